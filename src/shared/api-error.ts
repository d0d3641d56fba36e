// The one error type the API client throws. Every boundary (custom functions, task pane) maps
// it once, so the service's problem+json body is parsed here and nowhere else.
import { formatResetTime, parseResetTime } from "./credit-headers";

/** One entry of a problem body's `errors[]`: which input was wrong and why. */
export interface FieldProblem {
  pointer: string;
  detail: string;
}

/** The service's RFC 9457 problem+json body (docs/decisions.md, "Errors"). */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: FieldProblem[];
  [extension: string]: unknown;
}

/**
 * Codes for failures the client detects. Their status is 0 (no answer came back), except
 * `invalid_response`, which keeps the status of the answer it could not read.
 * Codes of the service's own answers are the service's (`not_found`, `invalid_api_key`, ...).
 */
export type ClientErrorCode =
  | "not_configured"
  | "malformed_api_key"
  | "network_error"
  | "timeout"
  | "aborted"
  | "invalid_response";

export interface ApiErrorExtras {
  /** When the credits come back (402), as an ISO timestamp, if the service said. */
  resetAt?: string | null;
  /** How long the service asked us to wait (429/503 `Retry-After`), in milliseconds. */
  retryAfterMs?: number | null;
  /** Extension members of the problem body (e.g. `unknown_ids` of a compare 404). */
  extensions?: Record<string, unknown>;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly resetAt: string | null;
  readonly retryAfterMs: number | null;
  readonly extensions: Record<string, unknown>;

  constructor(
    /** HTTP status, or 0 when no answer came back. */
    readonly status: number,
    /** Stable snake_case code: the service's `code`, or a {@link ClientErrorCode}. */
    readonly code: string,
    message: string,
    /** The service's request id, to quote when asking for support. */
    readonly requestId: string | null = null,
    readonly errors: FieldProblem[] = [],
    extras: ApiErrorExtras = {},
  ) {
    super(message);
    this.resetAt = extras.resetAt ?? null;
    this.retryAfterMs = extras.retryAfterMs ?? null;
    this.extensions = extras.extensions ?? {};
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

const STANDARD_MEMBERS = new Set(["type", "title", "status", "detail", "code", "request_id", "errors"]);
// The credits work names its reset field in the problem body; accept the plausible spellings
// and fall back to the X-Credits-Reset header, which every authenticated answer carries.
const RESET_MEMBERS = ["reset_at", "credits_reset_at", "resets_at", "credits_reset"];

/** Builds an ApiError from a non-2xx response, reading its problem+json body when there is one. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  const problem = await readProblem(response);
  const status = response.status;
  const code = problem.code ?? CODE_BY_STATUS[status] ?? (status >= 500 ? "internal" : "http_error");
  const requestId = problem.request_id ?? response.headers.get("x-request-id");
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  const extensions = Object.fromEntries(Object.entries(problem).filter(([k]) => !STANDARD_MEMBERS.has(k)));
  let message = problem.detail ?? problem.title ?? `The service answered HTTP ${status}.`;
  let resetAt: string | null = null;
  if (status === 402) {
    const fromBody = RESET_MEMBERS.map((k) => problem[k]).find((v) => typeof v === "string" || typeof v === "number");
    resetAt = parseResetTime(fromBody ?? response.headers.get("x-credits-reset"));
    // The cell must say when credits come back; add it unless the service's words already do.
    if (resetAt && !message.includes(resetAt.slice(0, 10))) message = `${message} Credits reset ${formatResetTime(resetAt)}.`;
  }
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  return new ApiError(status, code, message, requestId, errors, { resetAt, retryAfterMs, extensions });
}

/** `Retry-After` as milliseconds to wait: delay-seconds or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
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
