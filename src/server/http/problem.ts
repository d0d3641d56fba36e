// One error type for the service and one place that turns any error into an RFC 9457
// problem+json body. Handlers throw `ApiProblem`; everything else that goes wrong is either a
// framework error with a 4xx status (mapped to our codes) or a bug, answered with a bare 500
// whose details go to the log only.
//
// Most problems are free answers (a bad parameter, an unknown place), which one key may send as
// fast as the service answers them, so the path that builds and writes one is kept short: a 4xx
// problem captures no stack, request validation builds its problem directly from Ajv's errors,
// and the body is written as one JSON text, redacted once.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { problemOf, type FieldError, type Problem, type ProblemCode, type ProblemExtensions } from "../../contract/problem";
import { nearestInputName } from "../../contract/near-names";
import { fieldFault, type SchemaError } from "../../contract/schema-errors";
import { redactKeys, redactKeysDeep } from "./request-id";

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly extra: Omit<ProblemExtensions, "errors"> = {},
    readonly headers: Record<string, string> = {},
  ) {
    // A 4xx is the caller's mistake, answered and never logged, so no one reads its stack, and
    // capturing one costs a free answer a good share of its time. A 5xx keeps its stack.
    const stackTraceLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * What `build` returns, with no stack captured for the errors it throws: for code whose errors
 * become 4xx problems (a parser's syntax errors), where a stack is never read.
 */
export function withoutStacks<T>(build: () => T): T {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
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

/** The problem's members in the order the body lists them (the field errors before the extensions). */
function problemMembers(req: FastifyRequest, p: ApiProblem): Problem {
  return problemOf(p.status, p.code, p.detail, String(req.id), p.errors ? { errors: p.errors, ...p.extra } : p.extra);
}

/**
 * The problem as its body. Messages, field errors and extensions may quote what the caller sent
 * (a place, an id, a parameter's name); anything shaped like an API key anywhere in them is
 * redacted, so a key pasted into the wrong place is never echoed back (or into a log that
 * records answers).
 */
export function problemBody(req: FastifyRequest, p: ApiProblem): Problem {
  return redactKeysDeep(problemMembers(req, p));
}

/**
 * The problem's body as JSON text, redacted as `problemBody` is: the same bytes as that body's
 * JSON. A key-shaped run of characters inside a JSON string is the same run in the string's
 * value (JSON escapes begin with a backslash, which a key cannot hold), so one pass over the
 * text redacts every string and member name at once.
 */
export function problemText(req: FastifyRequest, p: ApiProblem): string {
  return redactKeys(JSON.stringify(problemMembers(req, p)));
}

/** The content type of every problem (with the charset Fastify would add to a JSON type). */
export const PROBLEM_CONTENT_TYPE = "application/problem+json; charset=utf-8";

export function sendProblem(req: FastifyRequest, reply: FastifyReply, p: ApiProblem) {
  for (const name in p.headers) reply.header(name, p.headers[name]);
  return reply.code(p.status).type(PROBLEM_CONTENT_TYPE).send(problemText(req, p));
}

/** The words of a field error that names a field rather than checks a value, by request part. */
const BODY_WORDS = { unknown: "is not a known field", required: "is required" };
const PARAMETER_WORDS = { unknown: "is not a known parameter of this endpoint", required: "is required" };

/**
 * "; did you mean max_distance_miles?" for an unknown member near one its schema has (a slip or
 * a prefix: contract/near-names.ts), else "". Ajv's verbose errors carry the schema that failed.
 */
function nearestInput(e: SchemaError & { parentSchema?: { properties?: Record<string, unknown> } }): string {
  if (e.keyword !== "additionalProperties" || !e.parentSchema?.properties) return "";
  const near = nearestInputName(String(e.params.additionalProperty), Object.keys(e.parentSchema.properties));
  return near ? `; did you mean ${near}?` : "";
}

/**
 * The 400 for a request part that failed its schema (`part`: Fastify's "querystring", "params",
 * "body" or "headers"), with every error as a field error a person can act on. Fastify's
 * `schemaErrorFormatter` (app.ts), so validation builds this problem directly.
 */
export function validationProblem(errors: readonly SchemaError[], part: string): ApiProblem {
  const body = part === "body";
  const words = body ? BODY_WORDS : PARAMETER_WORDS;
  const fields = errors.map((v) => {
    const { pointer, field, detail } = fieldFault(v, words);
    const out: FieldError = { pointer, detail: `${field || "value"} ${detail}${nearestInput(v)}` };
    if (!body && field) out.parameter = field;
    return out;
  });
  return new ApiProblem(400, "validation_failed", fields.map((e) => e.detail).join("; "), fields);
}

export function toProblem(err: FastifyError): ApiProblem {
  if (err instanceof ApiProblem) return err;
  // Fastify's validation errors arrive as problems already (validationProblem); this is an
  // error that carries Ajv's errors some other way.
  if (err.validation) return validationProblem(err.validation, err.validationContext ?? "querystring");
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
