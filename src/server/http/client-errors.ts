// Refusals that happen before a route runs, answered as problems like every other answer: the
// router's (a malformed %-escape, a path segment over its length limit) and Node's own (headers
// too large, a request that cannot be read as HTTP or arrives too slowly). None quotes the URL,
// which may hold a key.
import type { FastifyReply, FastifyRequest } from "fastify";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { problemOf, type ProblemCode } from "../../contract/problem";
import { ApiProblem, sendProblem } from "./problem";
import { newRequestId } from "./request-id";

/** Fastify's `frameworkErrors` option: the router's refusals. */
export function answerRouterError(error: { code?: string }, req: FastifyRequest, reply: FastifyReply) {
  reply.header("X-Request-Id", req.id);
  const detail =
    error.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? "A part of the path is longer than this service accepts."
      : "The URL is not valid: it has a malformed %-escape.";
  return sendProblem(req, reply, new ApiProblem(400, "validation_failed", detail));
}

/** The status of a request Node could not read: 431 for headers too large, 408 for one too slow, else 400. */
function clientErrorStatus(err: NodeJS.ErrnoException): number {
  if (err.code === "HPE_HEADER_OVERFLOW") return 431;
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

const CLIENT_ERRORS: Record<number, { code: ProblemCode; detail: string }> = {
  400: { code: "validation_failed", detail: "The request could not be read as HTTP." },
  408: { code: "request_timeout", detail: "The request did not arrive in time." },
  431: { code: "headers_too_large", detail: "The request's headers are larger than this service accepts." },
};

/** Fastify's `clientErrorHandler` option: Node's refusals, written straight to the socket while it can still take them. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(err);
  const { code, detail } = CLIENT_ERRORS[status];
  const id = newRequestId();
  const body = JSON.stringify(problemOf(status, code, detail, id));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
}
