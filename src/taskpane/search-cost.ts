// What a search in the pane costs, said beside its buttons before anything is spent. The price
// is the endpoint's published cost (endpoints.ts, from the contract's credit costs), per
// request; a paged search asks for at most 100 rows a request. A result the add-in's cache
// already holds (fetched by an earlier preview or by a formula in the workbook, from the
// snapshot the service serves) is answered from there, free. Inserting after a preview costs
// nothing: the table is the rows just fetched, and the formula makes the preview's request.
import { cacheKey } from "../shared/request-keys";
import { MAX_LIMIT } from "../contract/paging";
import { ENDPOINTS } from "../shared/endpoints";
import type { ResultCache } from "../shared/result-cache";
import { SEARCH_KINDS, isPaged, type SearchKind } from "./search-kinds";
import { apiRequestFor, type SearchRequest } from "./search-request";

/** Requests a search of `rows` rows makes: one per 100 rows of a paged search, else one. */
export function requestsFor(kind: SearchKind, rows: number): number {
  return isPaged(kind) ? Math.max(1, Math.ceil(rows / MAX_LIMIT)) : 1;
}

/** Credits a search of `rows` rows costs when none of it is cached. */
export function creditsFor(kind: SearchKind, rows: number): number {
  return requestsFor(kind, rows) * ENDPOINTS[SEARCH_KINDS[kind].endpoint].cost;
}

/**
 * Whether the cache holds the answer to the search's request, current (not marked stale by a
 * refresh that found a newer snapshot): a remembered refusal counts, it is answered the same way.
 * `baseUrl` is the connection's (the cache keys results by service).
 */
export function isFetched(cache: ResultCache, baseUrl: string, search: SearchRequest): boolean {
  const entry = cache.peek(cacheKey({ baseUrl }, apiRequestFor(search)));
  return entry !== undefined && !entry.stale;
}

/**
 * The line beside Preview: its price, or that it is free. `fetched` is null while the form
 * does not make a request yet (a required input blank, a value to fix).
 */
export function previewCostText(kind: SearchKind, rows: number, fetched: boolean | null): string {
  const credits = creditsFor(kind, rows);
  if (credits === 0) return "Preview is free.";
  if (fetched) return "Preview is free: this result is already fetched.";
  const price = `Preview costs ${count(credits, "credit")}`;
  const requests = requestsFor(kind, rows);
  const perRequest = requests > 1 ? ` (${requests} requests of up to ${MAX_LIMIT} rows)` : "";
  return fetched === null ? `${price}${perRequest} (free if already fetched).` : `${price}${perRequest}.`;
}

/** The line beside Insert and Insert as formula, once a preview is shown. */
export function insertCostText(): string {
  return "Insert and Insert as formula use the result just fetched: no further credits.";
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
