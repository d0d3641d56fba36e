// One error type for the service and one place that turns any error into an RFC 9457
// problem+json body. Handlers throw `ApiProblem`; everything else that goes wrong is either a
// framework error with a 4xx status (mapped to our codes) or a bug, answered with a bare 500
// whose details go to the log only.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { problemOf, type FieldError, type Problem, type ProblemCode, type ProblemExtensions } from "../../contract/problem";
import { fieldFault, type SchemaError } from "../../contract/schema-errors";
import { redactKeysDeep } from "./request-id";

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly extra: Omit<ProblemExtensions, "errors"> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** 503: the service's store (PostgreSQL) is out of reach or too slow; the call was not charged. */
export const serviceUnavailable = (retryAfterSeconds: number) =>
  new ApiProblem(
    503,
    "service_unavailable",
    `The service cannot reach its account store just now, so this call was not answered (and not charged). Try again in ${retryAfterSeconds} s.`,
    undefined,
    { retry_after_seconds: retryAfterSeconds },
    { "Retry-After": String(retryAfterSeconds) },
  );

export const notFound = (detail: string, extra: Omit<ProblemExtensions, "errors"> = {}) =>
  new ApiProblem(404, "not_found", detail, undefined, extra);

/**
 * The problem as its body. Messages, field errors and extensions may quote what the caller sent
 * (a place, an id, a parameter's name); anything shaped like an API key anywhere in them is
 * redacted, so a key pasted into the wrong place is never echoed back (or into a log that
 * records answers).
 */
export function problemBody(req: FastifyRequest, p: ApiProblem): Problem {
  return redactKeysDeep(problemOf(p.status, p.code, p.detail, String(req.id), { ...(p.errors ? { errors: p.errors } : {}), ...p.extra }));
}

export function sendProblem(req: FastifyRequest, reply: FastifyReply, p: ApiProblem) {
  for (const [k, v] of Object.entries(p.headers)) reply.header(k, v);
  return reply.code(p.status).type("application/problem+json").send(problemBody(req, p));
}

/** Turns Fastify's schema-validation errors into field errors a person can act on. */
function fieldErrors(err: FastifyError): FieldError[] {
  const context = (err as { validationContext?: string }).validationContext ?? "querystring";
  const words = {
    unknown: context === "body" ? "is not a known field" : "is not a known parameter of this endpoint",
    required: "is required",
  };
  return ((err.validation ?? []) as SchemaError[]).map((v) => {
    const { pointer, field, detail } = fieldFault(v, words);
    const out: FieldError = { pointer, detail: `${field || "value"} ${detail}` };
    if (context !== "body" && field) out.parameter = field;
    return out;
  });
}

export function toProblem(err: FastifyError): ApiProblem {
  if (err instanceof ApiProblem) return err;
  if (err.validation) {
    const errors = fieldErrors(err);
    return new ApiProblem(400, "validation_failed", errors.map((e) => e.detail).join("; "), errors);
  }
  const status = err.statusCode ?? 500;
  if (status === 413) return new ApiProblem(413, "payload_too_large", "The request body is larger than allowed.");
  if (status === 415) return new ApiProblem(415, "unsupported_media_type", "This endpoint accepts application/json bodies only.");
  if (status === 404) return notFound("No such endpoint.");
  if (status >= 400 && status < 500) {
    // Framework 4xx: malformed JSON, empty body and the like. The message is about the request.
    return new ApiProblem(400, "validation_failed", err.message);
  }
  return new ApiProblem(500, "internal", "An unexpected error occurred. Quote the request id if you contact us.");
}
