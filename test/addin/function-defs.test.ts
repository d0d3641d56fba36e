// The PROP function definitions (src/functions/function-def.ts): what `request` builds from the
// cells Excel passes, with nothing fetched.
import { ANALYSIS } from "../../src/functions/asset-analysis";
import { MARKET } from "../../src/functions/market";
import { SALECOMPS } from "../../src/functions/sale-comps";
import { HISTORY } from "../../src/functions/property-history";
import { COVERAGE } from "../../src/functions/coverage-table";
import { MATCH } from "../../src/functions/property-match";
import { addressRows } from "../../src/functions/address-rows";
import { fieldNames, resourceNamed } from "../../src/functions/record-fields";

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
  expect(() => SALECOMPS.request(["TX", null], "prefer_sold_within_months=36")).toThrow(/prefer_sold_within_months needs a property id/);
  expect(SALECOMPS.request(["cp_0001", null], "prefer_sold_within_months=36")).toMatchObject({
    query: { property_id: "cp_0001", prefer_sold_within_months: 36 },
  });
});

test("COVERAGE: a free report with no inputs; its section is checked before any request", () => {
  expect(COVERAGE.request(["snapshots"], "dates=text")).toMatchObject({ operation: "getCoverage", params: {}, query: {} });
  expect(COVERAGE.args.map((a) => [a.name, a.kind, a.required])).toEqual([["section", "name", false]]);
  expect(() => COVERAGE.request(["pins"], null)).toThrow(/section: "pins" is not a section; use one of .*snapshot, snapshots\./);
});

test("MATCH: its request is the match request of its distinct addresses, each with its row number as ref; blanks are not asked", () => {
  const call = MATCH.request(
    [[["1 Main St"], [""], ["2 Main St"], ["1 Main St"]], [["Austin"]], null, [[2134], [null], [78701], [2134]]],
    "headers=true",
  );
  expect(call).toMatchObject({ operation: "matchProperties", params: {}, query: {} });
  expect(call.body).toEqual({
    addresses: [
      { ref: "1", address: "1 Main St", city: "Austin", zip: "02134" },
      { ref: "3", address: "2 Main St", city: "Austin", zip: "78701" },
    ],
  });
  expect(MATCH.args.map((a) => [a.name, a.required, a.input])).toEqual([
    ["address", true, "address"],
    ["city", false, "city"],
    ["state", false, "state"],
    ["zip", false, "zip"],
  ]);
  expect(MATCH.args[3].read(501)).toEqual({ zip: "00501" });
  expect(MATCH.args[2].read("Texas")).toEqual({ state: "TX" });
  expect(() => MATCH.args[0].read("")).toThrow(/address is empty/);
  expect(addressRows(["1 Main St", null, null, 21340001]).map((r) => r.kind === "ask" && r.ask.zip)).toEqual(["021340001"]);
  // Its columns are a match result's fields without the row's ref; =PROP.FIELDS("match") lists them.
  expect(resourceNamed("matches")).toBe("property_match");
  expect(fieldNames("property_match")).toEqual([
    "status",
    "property_id",
    "parcel_id",
    "matched_address",
    "score",
    "match",
    "candidates",
    "detail",
    "confidence",
  ]);
});
