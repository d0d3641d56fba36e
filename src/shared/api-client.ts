// A small HTTP client for the v1 service, shared by the custom functions and the task pane.
// It owns three promises the rest of the add-in relies on: the key travels only in the
// Authorization header, every request settles within the timeout (Excel gives a function 60 s),
// and every failure is an ApiError.
import { ApiError, apiErrorFromResponse } from "./api-error";

/** Well under Excel's 60 s limit for a custom function, so the cell shows our message, not Excel's. */
export const DEFAULT_TIMEOUT_MS = 20_000;

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiClientOptions {
  /** Service origin (and optional path prefix), e.g. `http://localhost:3000`; no trailing slash needed. */
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  /** Defaults to the global fetch, looked up per request. */
  fetch?: typeof fetch;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** GETs `path` (e.g. `/v1/commercial/coverage`) and returns the parsed JSON body. */
  get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function get<T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<T> {
    const url = buildUrl(baseUrl, path, query);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const cancel = () => controller.abort();
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const response = await fetchImpl(url, {
        method: "GET",
        headers: { Accept: "application/json", Authorization: `Bearer ${options.apiKey}` },
        signal: controller.signal,
      });
      if (!response.ok) throw await apiErrorFromResponse(response);
      // The body is read inside the timeout too: a stalled body must not leave a cell pending.
      return parseJson<T>(await response.text(), response.status, baseUrl);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (timedOut) {
        throw new ApiError(0, "timeout", `No answer from ${baseUrl} within ${Math.round(timeoutMs / 1000)} s.`);
      }
      if (signal?.aborted) throw new ApiError(0, "aborted", "The request was cancelled.");
      throw new ApiError(0, "network_error", `Could not reach ${baseUrl}: ${describe(err)}`);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
    }
  }

  return { baseUrl, get };
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

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
