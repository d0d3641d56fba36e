// A small HTTP client for the v1 service, shared by the custom functions and the task pane.
// It owns the promises the rest of the add-in relies on: the key travels only in the
// Authorization header and is checked locally first, requests are paced to the key's rate
// limit (request-pacer.ts), every call settles within the timeout once sent, including any
// retries, a caller's abort cancels it (waiting in line too), and every failure is an ApiError.
import { ApiError, apiErrorFromResponse, parseRetryAfter } from "./api-error";
import { RequestPacer } from "./request-pacer";
import { readCreditHeaders, type CreditHeaders } from "./credit-headers";
import { describeKeyProblem } from "../contract/api-key-format";
import { fillPath, type AnswerOf, type CallParts, type Operation } from "../contract/operation";

/** Well under Excel's 60 s limit for a custom function, so the cell shows our message, not Excel's. */
export const DEFAULT_TIMEOUT_MS = 20_000;
/** Retries after a 429 or 503; each waits for the service's Retry-After (or a short back-off). */
export const DEFAULT_MAX_RETRIES = 3;
const BACKOFF_MS = [500, 1500];

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequest {
  method?: "GET" | "POST";
  /** Path under the base URL, e.g. `/v1/commercial/coverage`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON body (POST). */
  body?: unknown;
  /** ETag of the copy the caller holds: sent as If-None-Match, so an unchanged answer is a free 304. */
  etag?: string | null;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  /** 2xx, or 304 when `etag` matched (then `body` is null: the caller's copy is current). */
  status: number;
  body: T | null;
  etag: string | null;
  requestId: string | null;
  credits: CreditHeaders | null;
  /** The snapshot that answered (X-Snapshot-Id), a 304 included. */
  snapshotId: string | null;
}

/** Reported for every answer the service gives (errors and retried attempts included). */
export interface ResponseInfo {
  method: string;
  path: string;
  status: number;
  credits: CreditHeaders | null;
}

export interface ApiClientOptions {
  /** Service origin (and optional path prefix), e.g. `http://localhost:3000`; no trailing slash needed. */
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Paces requests to the key's rate limit; one per client by default. */
  pacer?: RequestPacer;
  /** Defaults to the global fetch, looked up per request. */
  fetch?: typeof fetch;
  /** Sees every response: the credit meter and the benchmark's counters hang off it. */
  onResponse?: (info: ResponseInfo) => void;
}

/** What a call sends besides its operation's parts: the ETag held, and a caller's abort. */
export interface CallOptions {
  etag?: string | null;
  signal?: AbortSignal;
}

export interface ApiClient {
  readonly baseUrl: string;
  /**
   * Calls `operation` (src/contract/operations.ts) with its path parameters, query and body, each
   * typed from the operation's schemas, and answers with its 200 body, typed the same way
   * (null for a 304 when `etag` matched).
   */
  call<O extends Operation>(operation: O, parts: CallParts<O>, options?: CallOptions): Promise<ApiResponse<AnswerOf<O>>>;
  /** GETs `path` and returns the parsed JSON body. */
  get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T>;
  /** The full exchange: conditional GETs, POST bodies, ETag and credit headers. */
  send<T>(request: ApiRequest): Promise<ApiResponse<T>>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const pacer = options.pacer ?? new RequestPacer();
  const keyProblem = describeKeyProblem(options.apiKey);

  async function send<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    // A mistyped key is caught here, without a request (the key format has a checksum).
    if (keyProblem) {
      throw new ApiError(
        0,
        "malformed_api_key",
        `The saved API key is not usable: ${keyProblem} Reconnect in the Property Intelligence pane.`,
      );
    }
    const method = request.method ?? "GET";
    const url = buildUrl(baseUrl, request.path, request.query);
    const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${options.apiKey}` };
    if (request.etag) headers["If-None-Match"] = request.etag;
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);

    // Wait for a turn within the key's rate limit first (the cell shows #BUSY! meanwhile);
    // the timeout counts from the first send, so waiting in line is not a network failure.
    await pacer.acquire(request.signal);
    if (request.signal?.aborted) {
      pacer.release();
      throw new ApiError(0, "aborted", "The request was cancelled.");
    }
    // One deadline for the whole call, retries included: the cell must settle in time.
    const deadline = Date.now() + timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const cancel = () => controller.abort();
    request.signal?.addEventListener("abort", cancel, { once: true });
    if (request.signal?.aborted) controller.abort();
    let holding = true;
    const release = () => {
      if (holding) pacer.release();
      holding = false;
    };
    try {
      for (let attempt = 0; ; attempt++) {
        if (!holding) {
          await pacer.acquire(controller.signal);
          holding = true;
        }
        const fetchImpl = options.fetch ?? globalThis.fetch;
        const response = await fetchImpl(url, { method, headers, body, signal: controller.signal });
        // What the answer says of the bucket is read before its slot is given back, so no request
        // slips out between the two on a stale count.
        pacer.observe(response.headers, response.status, parseRetryAfter(response.headers.get("retry-after")));
        release();
        const credits = readCreditHeaders(response.headers);
        options.onResponse?.({ method, path: request.path, status: response.status, credits });
        if (response.ok || response.status === 304) {
          // The body is read inside the deadline too: a stalled body must not leave a cell pending.
          const parsed = response.status === 304 ? null : parseJson<T>(await response.text(), response.status, baseUrl);
          return {
            status: response.status,
            body: parsed,
            etag: response.headers.get("etag"),
            requestId: response.headers.get("x-request-id"),
            credits,
            snapshotId: response.headers.get("x-snapshot-id"),
          };
        }
        const error = await apiErrorFromResponse(response);
        const wait = retryWait(error, attempt, maxRetries);
        // Retry only when the wait still leaves time for an answer before the deadline. The
        // pacer holds every request back until the service's Retry-After has passed.
        if (wait === null || Date.now() + wait + 1000 > deadline) throw error;
        await sleep(wait, controller.signal);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (timedOut) {
        throw new ApiError(0, "timeout", `No answer from ${baseUrl} within ${Math.round(timeoutMs / 1000)} s.`);
      }
      if (request.signal?.aborted) throw new ApiError(0, "aborted", "The request was cancelled.");
      throw new ApiError(0, "network_error", `Could not reach ${baseUrl}: ${describe(err)}`);
    } finally {
      release();
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", cancel);
    }
  }

  async function get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T> {
    const response = await send<T>({ path, query, signal });
    return response.body as T;
  }

  async function call<O extends Operation>(operation: O, parts: CallParts<O>, options: CallOptions = {}) {
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(parts.params ?? {})) params[name] = String(value);
    const query: Record<string, QueryValue> = {};
    for (const [name, value] of Object.entries(parts.query ?? {})) query[name] = queryValue(value);
    return send<AnswerOf<O>>({
      method: operation.method,
      path: fillPath(operation, params),
      query,
      body: parts.body,
      etag: options.etag,
      signal: options.signal,
    });
  }

  return { baseUrl, call, get, send };
}

/** How long to wait before retrying, or null when the error is not worth retrying. */
function retryWait(error: ApiError, attempt: number, maxRetries: number): number | null {
  if ((error.status !== 429 && error.status !== 503) || attempt >= maxRetries) return null;
  const wait = error.retryAfterMs ?? BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
  // A recalculation sends many requests at once; spread their retries a little, or they all
  // come back in the same instant and are refused together again.
  return wait + Math.random() * Math.min(1000, wait / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function parseJson<T>(text: string, status: number, baseUrl: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    // Typically a proxy or login page in front of the service: the base URL is likely wrong.
    throw new ApiError(status, "invalid_response", `${baseUrl} did not answer with JSON; is the base URL right?`);
  }
}

function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined || value === "") continue;
    params.append(name, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ""}`;
}

/** A query member as sent: scalars as they are, anything else (a list) as comma-separated text. */
function queryValue(value: unknown): QueryValue {
  if (value === null || value === undefined) return value;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return Array.isArray(value) ? value.join(",") : String(value);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
