// The one error type the API client throws. Every boundary (custom functions, task pane) maps
// it once, so the service's problem+json body (src/contract/problem.ts) is read here and
// nowhere else.
import { CREDIT_HEADERS } from "../contract/credit-fields";
import type { FieldError, Problem, ProblemCode, ProblemExtensions } from "../contract/problem";
import { formatResetTime, parseResetTime, planName } from "./credit-headers";

/**
 * Codes for failures the client detects. Their status is 0 (no answer came back), except
 * `invalid_response`, which keeps the status of the answer it could not read.
 * Codes of the service's own answers are the service's (`not_found`, `invalid_api_key`, ...).
 */
export type ClientErrorCode = "not_configured" | "malformed_api_key" | "network_error" | "timeout" | "aborted" | "invalid_response";

/** What a 402 says the call needed and what was left (its problem's credit fields, and the plan's header). */
/**
 * What to do when no answer came back (network_error, timeout), as a cell says it: the usual
 * cause is a service that is not running, or a Service URL that names the wrong place.
 */
export function unreachableAdvice(baseUrl: string | null): string {
  const where = baseUrl ? ` at ${baseUrl}` : "";
  return `Is the service running${where}? Start it with npm start, or check the Service URL under Connection in the Property Intelligence pane.`;
}

export interface CreditShortfall {
  cost: number;
  remaining: number;
  limit: number;
  /** The key's plan id (X-Credits-Plan), when the answer named it. */
  plan: string | null;
  /**
   * A call priced per row (a match request): how many of its rows, from the first, the credits
   * left pay for (`rows_covered`); null when the 402 did not say.
   */
  rowsCovered: number | null;
}

export interface ApiErrorExtras {
  /** When the credits come back (402), as an ISO timestamp, if the service said. */
  resetsAt?: string | null;
  /** How long the service asked us to wait (429/503 `Retry-After`), in milliseconds. */
  retryAfterMs?: number | null;
  /** Extension members of the problem body (e.g. `unknown_ids` of a compare 404). */
  extensions?: Omit<ProblemExtensions, "errors">;
  /** The key's plan id (X-Credits-Plan). */
  plan?: string | null;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly resetsAt: string | null;
  readonly retryAfterMs: number | null;
  readonly extensions: Omit<ProblemExtensions, "errors">;
  /** The key's plan id (X-Credits-Plan), when the answer named it. */
  readonly plan: string | null;

  constructor(
    /** HTTP status, or 0 when no answer came back. */
    readonly status: number,
    /** Stable snake_case code: the service's `code`, or a {@link ClientErrorCode}. */
    readonly code: string,
    message: string,
    /** The service's request id, to quote when asking for support. */
    readonly requestId: string | null = null,
    readonly errors: FieldError[] = [],
    extras: ApiErrorExtras = {},
  ) {
    super(message);
    this.resetsAt = extras.resetsAt ?? null;
    this.retryAfterMs = extras.retryAfterMs ?? null;
    this.extensions = extras.extensions ?? {};
    this.plan = extras.plan ?? null;
  }

  /** A 402's cost and credits left, when its body gave them. */
  get shortfall(): CreditShortfall | null {
    return this.status === 402 ? shortfallOf(this.extensions, this.plan) : null;
  }
}

function shortfallOf(
  { cost, credits_remaining, credits_limit, rows_covered }: ProblemExtensions,
  plan: string | null,
): CreditShortfall | null {
  if (typeof cost !== "number" || typeof credits_remaining !== "number" || typeof credits_limit !== "number") return null;
  const rowsCovered = typeof rows_covered === "number" && Number.isInteger(rows_covered) && rows_covered >= 0 ? rows_covered : null;
  return { cost, remaining: credits_remaining, limit: credits_limit, plan, rowsCovered };
}

/** "This call costs 2 credits and 0 of the Explorer plan's 1,000 monthly credits are left." */
export function describeShortfall({ cost, remaining, limit, plan }: CreditShortfall): string {
  const whose = plan ? `the ${planName(plan)} plan's` : "the";
  const of = `${remaining.toLocaleString("en-US")} of ${whose} ${limit.toLocaleString("en-US")} monthly credits`;
  return `This call costs ${cost} credit${cost === 1 ? "" : "s"} and ${of} ${remaining === 1 ? "is" : "are"} left.`;
}

/** Codes the service uses, by status, for bodies that do not carry one (e.g. from a proxy). */
const CODE_BY_STATUS: Partial<Record<number, ProblemCode>> = {
  400: "validation_failed",
  401: "invalid_api_key",
  402: "credits_exhausted",
  404: "not_found",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

/** Builds an ApiError from a non-2xx response, reading its problem+json body when there is one. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  const { type: _type, title, status: _status, detail, code, request_id, errors, ...extensions } = await readProblem(response);
  const status = response.status;
  const requestId = request_id ?? response.headers.get("x-request-id");
  let message = detail ?? title ?? `The service answered HTTP ${status}.`;
  let resetsAt: string | null = null;
  const plan = response.headers.get(CREDIT_HEADERS.plan)?.trim() || null;
  if (status === 402) {
    // Said from the problem's fields, so the cell and the pane each word it their own way;
    // when the credits come back is `resets_at`, or the header every authenticated answer has.
    const { resets_at } = extensions;
    resetsAt = parseResetTime(typeof resets_at === "string" ? resets_at : response.headers.get(CREDIT_HEADERS.reset));
    const shortfall = shortfallOf(extensions, plan);
    if (shortfall) message = describeShortfall(shortfall);
    if (resetsAt) message = `${message} Credits reset ${formatResetTime(resetsAt)}.`;
  }
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  const fieldErrors = Array.isArray(errors) ? errors : [];
  return new ApiError(
    status,
    code ?? CODE_BY_STATUS[status] ?? (status >= 500 ? "internal" : "http_error"),
    message,
    requestId,
    fieldErrors,
    {
      resetsAt,
      retryAfterMs,
      extensions,
      plan,
    },
  );
}

/** `Retry-After` as milliseconds to wait: delay-seconds or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The problem body, as far as the answer has one: the service's bodies are Problems, but a
 * proxy's may have none of its members, or no JSON at all.
 */
async function readProblem(response: Response): Promise<Partial<Problem>> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return {};
  try {
    const body: unknown = await response.json();
    return body !== null && typeof body === "object" ? (body as Partial<Problem>) : {};
  } catch {
    // A truncated or non-JSON body still leaves the status to go on.
    return {};
  }
}
