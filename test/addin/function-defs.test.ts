// The PROP function definitions (src/functions/function-def.ts): what `request` builds from the
// cells Excel passes, with nothing fetched.
import { ANALYSIS } from "../../src/functions/asset-analysis";
import { MARKET } from "../../src/functions/market";
import { SALECOMPS } from "../../src/functions/sale-comps";
import { HISTORY } from "../../src/functions/property-history";
import { COVERAGE } from "../../src/functions/coverage-table";

test("ANALYSIS: the asset type in the path; no place, or the whole country, is the national analysis", () => {
  expect(ANALYSIS.request(["Multi-Family", null], null)).toMatchObject({
    operation: "analyseAssetType",
    params: { asset_type: "multifamily" },
    query: {},
  });
  expect(ANALYSIS.request(["industrial", "US"], null).query).toEqual({});
  expect(ANALYSIS.request(["industrial", "austin tx"], "breakdown=subtype").query).toEqual({ geography: "Austin, TX" });
  expect(() => ANALYSIS.request(["industrial", "Texas!"], null)).toThrow(/geography: "Texas!" is not a place/);
});

test("MARKET: the whole country is US; a metric is checked but sent nowhere; its options depend on it", () => {
  expect(MARKET.request(["United States", "office", null], "layout=columns")).toMatchObject({
    operation: "getMarketSnapshot",
    params: {},
    query: { geography: "US", asset_type: "office" },
  });
  expect(MARKET.request(["TX", "office", "Vacancy Rate"], null).query).toEqual({ geography: "TX", asset_type: "office" });
  expect(() => MARKET.request(["TX", "office", "vacancy"], null)).toThrow(/is not a market metric/);
  expect(() => MARKET.request(["TX", "office", "vacancy_rate"], "layout=columns")).toThrow(/"layout" is not an option here/);
});

test("a list function's request is its first page: limit at most 100, from the offset asked", () => {
  expect(SALECOMPS.request(["cp_0001", null], "limit=250; offset=10").query).toMatchObject({
    property_id: "cp_0001",
    limit: 100,
    offset: 10,
  });
  // PROP.HISTORY's own default is one page of 100 rows.
  expect(HISTORY.request(["cp_0001"], null)).toMatchObject({ params: { property_id: "cp_0001" }, query: { limit: 100, offset: 0 } });
  expect(() => SALECOMPS.request(["TX", null], "max_distance_miles=5")).toThrow(/max_distance_miles needs a property id/);
});

test("COVERAGE: a free report with no inputs; its section is checked before any request", () => {
  expect(COVERAGE.request(["snapshots"], "dates=text")).toMatchObject({ operation: "getCoverage", params: {}, query: {} });
  expect(COVERAGE.args.map((a) => [a.name, a.kind, a.required])).toEqual([["section", "name", false]]);
  expect(() => COVERAGE.request(["pins"], null)).toThrow(/section: "pins" is not a section; use one of .*snapshot, snapshots\./);
});
