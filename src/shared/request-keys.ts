// What names a request for the add-in's cache: its normalised arguments (the cache key), and
// the snapshot it is pinned to, if any (the functions' as_of option).
import type { ApiClient, ApiRequest, QueryValue } from "./api-client";

/** A snapshot named by its id, or by a date (the newest captured on or before it). */
export type SnapshotPin = { snapshot: string } | { as_of: string };

/** The pin as query parameters: one request per pin, and one cache entry. */
export function pinQuery(pin: SnapshotPin | undefined): Record<string, string> {
  return pin ? { ...pin } : {};
}

/** A cache key without its snapshot selectors: the same request, whatever snapshot it asks. */
export function unpinnedKey(key: string): string {
  return key.replace(/([?&])(?:snapshot|as_of)=[^&\s]*&?/g, "$1").replace(/[?&](?=\s|$)/, "");
}

/** Whether a request names a snapshot (by id or date). */
export function isPinned(request: ApiRequest): boolean {
  return request.query?.snapshot !== undefined || request.query?.as_of !== undefined;
}

/** Whether a cache key (cacheKey's) is of a request pinned to a snapshot by its id. */
export function isPinnedById(key: string): boolean {
  return /[?&]snapshot=/.test(key.slice(key.indexOf("|") + 1).split(" ")[1] ?? "");
}

/** (service, method, path, sorted query, body): the normalised arguments of a request. */
export function cacheKey(client: Pick<ApiClient, "baseUrl">, request: ApiRequest): string {
  const query = new URLSearchParams(Object.entries(normaliseQuery(request.query ?? {})).map(([k, v]) => [k, String(v)])).toString();
  const body = request.body === undefined ? "" : ` ${JSON.stringify(request.body)}`;
  return `${client.baseUrl}|${request.method ?? "GET"} ${request.path}${query ? `?${query}` : ""}${body}`;
}

export function normaliseQuery(query: Record<string, QueryValue>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value !== null && value !== undefined && value !== "") out[name] = value;
  }
  return out;
}
