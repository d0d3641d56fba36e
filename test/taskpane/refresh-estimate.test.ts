// What "Refresh workbook" will cost, estimated from the result cache before it runs. The
// entries are made with the cache's own key function, so a change to the key format that the
// estimate no longer reads fails here.
import type { ApiClient, ApiRequest } from "../../src/shared/api-client";
import { cacheKey } from "../../src/shared/request-keys";
import { ENDPOINTS, endpointPath } from "../../src/shared/endpoints";
import { ResultCache } from "../../src/shared/result-cache";
import { creditsForCacheKey, describeRefreshCost, estimateRefresh, type RefreshEstimate } from "../../src/taskpane/refresh-estimate";

// cacheKey reads only the client's base URL.
const client = { baseUrl: "https://api.example.test" } as ApiClient;

const requests = {
  coverage: (): ApiRequest => ({ method: "GET", path: ENDPOINTS.getCoverage.path }),
  property: (id: string): ApiRequest => ({ method: "GET", path: endpointPath(ENDPOINTS.getProperty, { property_id: id }) }),
  search: (q: string): ApiRequest => ({ method: "GET", path: ENDPOINTS.searchProperties.path, query: { q, limit: 100 } }),
  analysis: (assetType: string): ApiRequest => ({
    method: "GET",
    path: endpointPath(ENDPOINTS.analyseAssetType, { asset_type: assetType }),
    query: { state_code: "TX" },
  }),
  compare: (ids: string[]): ApiRequest => ({ method: "POST", path: ENDPOINTS.compareProperties.path, body: { property_ids: ids } }),
  diligence: (): ApiRequest => ({ method: "GET", path: ENDPOINTS.rankDiligenceCandidates.path, query: { asset_type: "office" } }),
};

function cacheWith(...entries: [ApiRequest, string | null][]): ResultCache {
  const cache = new ResultCache();
  for (const [request, snapshotId] of entries) cache.set(cacheKey(client, request), { value: { ok: true }, snapshotId });
  return cache;
}

function estimate(overrides: Partial<RefreshEstimate> = {}): RefreshEstimate {
  return { results: 10, staleResults: 0, maxCredits: 0, snapshotKnown: true, ...overrides };
}

describe("creditsForCacheKey", () => {
  test.each([
    ["coverage", requests.coverage(), 0, ENDPOINTS.getCoverage],
    ["a property", requests.property("cp_0001a2b3"), 1, ENDPOINTS.getProperty],
    ["a search page", requests.search("warehouse | dock"), 1, ENDPOINTS.searchProperties],
    ["an asset analysis", requests.analysis("industrial"), 2, ENDPOINTS.analyseAssetType],
    ["a compare", requests.compare(["cp_1", "cp_2"]), 2, ENDPOINTS.compareProperties],
    ["a diligence page", requests.diligence(), 3, ENDPOINTS.rankDiligenceCandidates],
  ])("%s costs what its endpoint publishes", (_, request, cost, endpoint) => {
    expect(endpoint.cost).toBe(cost);
    expect(creditsForCacheKey(cacheKey(client, request))).toBe(endpoint.cost);
  });

  test("a key no endpoint answers (stored by an older version) costs nothing", () => {
    expect(creditsForCacheKey("https://api.example.test|GET /v0/retired")).toBe(0);
    expect(creditsForCacheKey("not a key")).toBe(0);
  });
});

describe("estimateRefresh", () => {
  test("an unchanged snapshot costs nothing", () => {
    const cache = cacheWith([requests.coverage(), "snap_2"], [requests.property("cp_1"), "snap_2"], [requests.search("a"), "snap_2"]);
    expect(estimateRefresh(cache.list(), "snap_2")).toEqual({ results: 3, staleResults: 0, maxCredits: 0, snapshotKnown: true });
  });

  test("results from another snapshot cost at most their endpoints' prices", () => {
    const cache = cacheWith(
      [requests.coverage(), "snap_1"],
      [requests.property("cp_1"), "snap_1"],
      [requests.analysis("office"), "snap_1"],
      [requests.diligence(), "snap_1"],
      [requests.search("a"), "snap_2"],
    );
    expect(estimateRefresh(cache.list(), "snap_2")).toEqual({ results: 5, staleResults: 4, maxCredits: 6, snapshotKnown: true });
  });

  test("results whose snapshot was never known, or already marked stale, count as stale", () => {
    const cache = cacheWith(
      [requests.property("cp_1"), null],
      [requests.compare(["cp_1", "cp_2"]), "snap_2"],
      [requests.search("b"), "snap_2"],
    );
    cache.markStaleUnless("snap_3");
    cache.revalidated(cacheKey(client, requests.search("b")), "snap_2");
    expect(estimateRefresh(cache.list(), "snap_2")).toEqual({ results: 3, staleResults: 2, maxCredits: 3, snapshotKnown: true });
  });

  test("with the served snapshot unknown, every result may have to be fetched again", () => {
    const cache = cacheWith([requests.property("cp_1"), "snap_2"], [requests.search("a"), "snap_2"]);
    expect(estimateRefresh(cache.list(), null)).toEqual({ results: 2, staleResults: 2, maxCredits: 2, snapshotKnown: false });
  });

  test("an empty cache is an empty estimate", () => {
    expect(estimateRefresh([], "snap_1")).toEqual({ results: 0, staleResults: 0, maxCredits: 0, snapshotKnown: true });
  });
});

describe("describeRefreshCost", () => {
  test("says when a refresh is free", () => {
    expect(describeRefreshCost(estimate())).toBe("Refresh is free: the snapshot is unchanged (1 free check).");
    expect(describeRefreshCost(estimate({ staleResults: 2 }))).toBe(
      "Refresh is free: 2 cached results to revalidate, all from free endpoints (1 free check).",
    );
  });

  test("says the most it can cost and why", () => {
    expect(describeRefreshCost(estimate({ staleResults: 6, maxCredits: 12 }))).toBe(
      "Up to 12 credits: 6 cached results come from an older snapshot; those the new data left as they were are free.",
    );
    expect(describeRefreshCost(estimate({ staleResults: 1, maxCredits: 1 }))).toBe(
      "Up to 1 credit: 1 cached result comes from an older snapshot; those the new data left as they were are free.",
    );
    expect(describeRefreshCost(estimate({ results: 2000, staleResults: 1500, maxCredits: 2100 }))).toBe(
      "Up to 2,100 credits: 1,500 cached results come from an older snapshot; those the new data left as they were are free.",
    );
  });

  test("does not claim an older snapshot when the served one is unknown", () => {
    expect(describeRefreshCost(estimate({ staleResults: 3, maxCredits: 4, snapshotKnown: false }))).toBe(
      "Up to 4 credits if the service has a newer snapshot: 3 cached results would be fetched again.",
    );
  });

  test("with nothing cached, says that formulas will fetch", () => {
    expect(describeRefreshCost(estimate({ results: 0 }))).toMatch(/^Nothing is cached yet/);
  });
});
