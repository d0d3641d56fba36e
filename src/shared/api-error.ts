// The one error type the API client throws. Every boundary (custom functions, task pane) maps
// it once, so the service's problem+json body is parsed here and nowhere else.

/** One entry of a problem body's `errors[]`: which input was wrong and why. */
export interface FieldProblem {
  pointer: string;
  detail: string;
}

/** The service's RFC 9457 problem+json body (DESIGN.md section 2, "Errors"). */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: FieldProblem[];
}

/**
 * Codes for failures the client detects. Their status is 0 (no answer came back), except
 * `invalid_response`, which keeps the status of the answer it could not read.
 * Codes of the service's own answers are the service's (`not_found`, `invalid_api_key`, ...).
 */
export type ClientErrorCode = "not_configured" | "network_error" | "timeout" | "aborted" | "invalid_response";

export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    /** HTTP status, or 0 when no answer came back. */
    readonly status: number,
    /** Stable snake_case code: the service's `code`, or a {@link ClientErrorCode}. */
    readonly code: string,
    message: string,
    /** The service's request id, to quote when asking for support. */
    readonly requestId: string | null = null,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/** Codes the service uses, by status, for bodies that do not carry one (e.g. from a proxy). */
const CODE_BY_STATUS: Record<number, string> = {
  400: "validation_failed",
  401: "invalid_api_key",
  402: "credits_exhausted",
  404: "not_found",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
  503: "overloaded",
};

/** Builds an ApiError from a non-2xx response, reading its problem+json body when there is one. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  const problem = await readProblem(response);
  const status = response.status;
  const code = problem.code ?? CODE_BY_STATUS[status] ?? (status >= 500 ? "internal" : "http_error");
  const requestId = problem.request_id ?? response.headers.get("x-request-id");
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  const message = problem.detail ?? problem.title ?? `The service answered HTTP ${status}.`;
  return new ApiError(status, code, message, requestId, errors);
}

async function readProblem(response: Response): Promise<ProblemBody> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return {};
  try {
    const body: unknown = await response.json();
    return body !== null && typeof body === "object" ? (body as ProblemBody) : {};
  } catch {
    // A truncated or non-JSON body still leaves the status to go on.
    return {};
  }
}
