// What a search costs, said before it runs: the endpoint's published price per request, free
// when the cache already holds the result.
import { cacheKey } from "../../src/shared/request-keys";
import { ENDPOINTS } from "../../src/shared/endpoints";
import { ResultCache } from "../../src/shared/result-cache";
import { creditsFor, insertCostText, isFetched, previewCostText, requestsFor } from "../../src/taskpane/search-cost";
import { SEARCH_KINDS, type SearchKind } from "../../src/taskpane/search-kinds";
import { apiRequestFor, type SearchRequest } from "../../src/taskpane/search-request";

const BASE = "http://127.0.0.1:3000";
const comps: SearchRequest = { kind: "salecomps", values: { subject: "Austin, TX", asset_type: "industrial" }, limit: 10 };

test("the price is the endpoint's published cost per request; a paged search asks 100 rows a request", () => {
  for (const kind of Object.keys(SEARCH_KINDS) as SearchKind[]) {
    expect({ kind, credits: creditsFor(kind, 25) }).toEqual({ kind, credits: ENDPOINTS[SEARCH_KINDS[kind].endpoint].cost });
  }
  expect(creditsFor("salecomps", 10)).toBe(2);
  expect([1, 100, 101, 250].map((rows) => requestsFor("salecomps", rows))).toEqual([1, 1, 2, 3]);
  expect(creditsFor("salecomps", 250)).toBe(6);
  // A market is one record: one request whatever Rows says.
  expect(requestsFor("market", 250)).toBe(1);
});

test("the line beside Preview: its price, free if fetched, or free outright", () => {
  expect(previewCostText("salecomps", 10, null)).toBe("Preview costs 2 credits (free if already fetched).");
  expect(previewCostText("salecomps", 10, false)).toBe("Preview costs 2 credits.");
  expect(previewCostText("market", 25, false)).toBe("Preview costs 1 credit.");
  expect(previewCostText("salecomps", 10, true)).toBe("Preview is free: this result is already fetched.");
  expect(previewCostText("salecomps", 250, false)).toBe("Preview costs 6 credits (3 requests of up to 100 rows).");
  expect(insertCostText()).toMatch(/no further credits/);
});

describe("isFetched", () => {
  const key = cacheKey({ baseUrl: BASE }, apiRequestFor(comps));

  test("true when the cache holds the preview's exact request from this service, current", () => {
    const cache = new ResultCache();
    expect(isFetched(cache, BASE, comps)).toBe(false);
    cache.set(key, { value: { object: "list", data: [] }, snapshotId: "snap_1" });
    expect(isFetched(cache, BASE, comps)).toBe(true);
    // Another service, or another page size, is another request.
    expect(isFetched(cache, "http://127.0.0.1:4000", comps)).toBe(false);
    expect(isFetched(cache, BASE, { ...comps, limit: 11 })).toBe(false);
  });

  test("a remembered refusal is answered from the cache too; a result marked stale by a refresh is not free", () => {
    const cache = new ResultCache();
    cache.set(key, { error: { status: 404, code: "unknown_place", message: "no such place", requestId: null }, snapshotId: "snap_1" });
    expect(isFetched(cache, BASE, comps)).toBe(true);
    cache.set(key, { value: {}, snapshotId: "snap_1" });
    cache.markStaleUnless("snap_2");
    expect(isFetched(cache, BASE, comps)).toBe(false);
  });
});
