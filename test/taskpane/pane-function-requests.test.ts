// The pane's searches and the PROP functions are one definition each (src/functions/function-def.ts):
// the form's fields come from the function's arguments, and the preview's request is the
// function's own. These tests run the function itself (no build) with the arguments and options
// the pane's formula holds, on a stub service, and hold the request it sends equal to the
// preview's; and they hold the form's fields to the definitions they come from.
import { ENDPOINTS } from "../../src/shared/endpoints";
import { marketFigures } from "../../src/functions/market";
import { marketHistory } from "../../src/functions/market-history";
import type { ListFunction } from "../../src/functions/list-table";
import { checkSearch } from "../../src/taskpane/search-form";
import { SEARCH_KINDS, type SearchKind } from "../../src/taskpane/search-kinds";
import { apiRequestFor, formulaArgs } from "../../src/taskpane/search-request";
import { jsonResponse } from "../addin/office-stand-ins";
import { listResponse, testSession, type SeenRequest } from "../addin/session-factory";

/** For every search kind, inputs covering each positional argument, options and paging. */
const CASES: Record<SearchKind, Record<string, string>[]> = {
  listings: [{ geography: "austin, tx", status: "Active", min_price: "250,000", limit: "10" }, { status: "sold" }, {}],
  parcels: [
    { geography: "Travis County, TX", land_use: "Commercial" },
    { county_fips: "48453", apn: "0123-45" },
  ],
  search: [{ q: "ware*", geography: "Metro-Austin-TX", asset_type: "industrial", min_building_area_sqft: "100000" }, {}],
  assetsearch: [
    { asset_type: "Health Care", geography: "Austin, TX", min_units: "50", q: "medical" },
    { asset_type: "land", subtype: "pad site" },
  ],
  salecomps: [
    { subject: "cp_0001a2b3", max_distance_miles: "10", min_sale_date: "45000" },
    { subject: "tx", asset_type: "Senior Living", limit: "7" },
  ],
  history: [{ property_id: "cp_0001a2b3", event_type: "Sale, lease start", from: "2015", limit: "50" }, { property_id: "cp_00ff" }],
  market: [
    { geography: "us", asset_type: "Multi-Family" },
    { geography: "austin tx", asset_type: "office" },
  ],
  markethistory: [
    {
      geography: "TX",
      asset_type: "industrial",
      metrics: "Vacancy Rate, asking_rent_sqft_year",
      from: "2016-Q1",
      to: "2020",
      interval: "year",
    },
    { geography: "United States", asset_type: "office", metrics: "median_cap_rate" },
  ],
  companies: [{ company_type: "Owner", q: "Silver", state_code: "texas" }, { company_type: "tenant" }],
  portfolio: [
    { owner: "co_0001a2b3", asset_type: "office" },
    { owner: "Silver Creek", state_code: "TX", limit: "100" },
  ],
  footprint: [{ tenant: "Acme", asset_type: "retail" }, { tenant: "co_00ff" }],
};

const cases = Object.entries(CASES).flatMap(([kind, list]) =>
  list.map((values, i) => [`${kind} #${i + 1}`, kind as SearchKind, values] as const),
);

/** A stub answer of the right shape for whatever the function asks. */
function answer(request: SeenRequest): Response {
  if (request.path.endsWith("/markets/history")) {
    return jsonResponse({
      object: "market_history",
      asset_type: "office",
      geography_name: "US",
      interval: "quarter",
      metrics: [],
      periods: [],
    });
  }
  if (request.path.endsWith("/markets/batch")) return jsonResponse({ object: "list", data: [{ object: "market", geography: "US" }] });
  if (request.path.endsWith("/markets")) return jsonResponse({ object: "market", geography: "US" });
  return listResponse([]);
}

/** The inputs of one sent request: the query, or for the markets batch its one market. */
function sentInputs(request: SeenRequest): Record<string, string> {
  if (request.method === "POST") {
    const [market] = (request.body as { markets: Record<string, string>[] }).markets;
    return Object.fromEntries(Object.entries(market).map(([k, v]) => [k, String(v)]));
  }
  return request.query;
}

test.each(cases)("%s: the function, given the pane's formula arguments, sends the preview's request", async (_name, kind, values) => {
  const checked = checkSearch(kind, values);
  if (!checked.ok) throw new Error(`the case itself is refused: ${JSON.stringify(checked.errors)}`);
  const preview = apiRequestFor(checked.request);
  const { args, options } = formulaArgs(checked.request);
  const { ctx, requests } = testSession(answer, { batchWindowMs: 0 });

  const spec = SEARCH_KINDS[kind];
  if (kind === "market") await marketFigures(args[0], args[1], args[2], options, ctx).catch(() => undefined);
  else if (kind === "markethistory") await marketHistory(args[0], args[1], args[2], args[3], args[4], options, ctx).catch(() => undefined);
  else await (spec.def as ListFunction).run(args, options, ctx).catch(() => undefined);

  expect(requests).toHaveLength(1);
  const query = Object.fromEntries(Object.entries(preview.query ?? {}).map(([k, v]) => [k, String(v)]));
  if (requests[0].method === "POST") {
    // PROP.MARKET asks through the markets batch, caching each market as the single endpoint's answer to these inputs.
    expect(sentInputs(requests[0])).toEqual(query);
    expect(preview.path).toBe(ENDPOINTS.getMarketSnapshot.path);
  } else {
    expect({ path: requests[0].path, query: sentInputs(requests[0]) }).toEqual({ path: preview.path, query });
  }
});

test("every search kind has cases", () => {
  expect(Object.keys(CASES).sort()).toEqual(Object.keys(SEARCH_KINDS).sort());
});

test("a form's first fields are its function's positional arguments, with their labels, help and required flags", () => {
  for (const [kind, spec] of Object.entries(SEARCH_KINDS)) {
    const shown = spec.positional.filter((p) => p.field !== null);
    const fields = spec.fields.slice(0, shown.length).map((f) => ({ name: f.name, label: f.label, help: f.help }));
    expect({ kind, fields }).toEqual({
      kind,
      fields: shown.map((p) => ({ name: p.arg.input ?? p.arg.name, label: p.arg.label, help: p.arg.help })),
    });
    for (const { arg } of shown) {
      if (arg.required)
        expect({ kind, arg: arg.name, required: spec.fields.find((f) => f.name === (arg.input ?? arg.name))?.required }).toEqual({
          kind,
          arg: arg.name,
          required: true,
        });
    }
  }
});

test("a field typed by an input's schema carries that schema's bounds and allowed values", () => {
  const units = SEARCH_KINDS.search.fields.find((f) => f.name === "min_units")!;
  expect(units).toMatchObject({ input: "number", min: 0, step: 1 });
  const status = SEARCH_KINDS.listings.fields.find((f) => f.name === "status")!;
  expect(status.input).toBe("select");
  expect(status.options).toEqual(expect.arrayContaining(["active", "sold"]));
  const company = SEARCH_KINDS.companies.fields.find((f) => f.name === "company_type")!;
  expect(company).toMatchObject({ input: "select", required: true, catalogList: "company_types" });
});
