// "Insert as formula" must make the request the pane's preview made. For every search kind and
// a few representative inputs, the formula from formulaFor is evaluated by the BUILT functions
// bundle (dist/addin/functions.js in node:vm) against a stub that records the URL, and that
// request must equal apiRequestFor's: method, path and query parameters as a set.
import { ensureAddinBuild, readDist } from "../addin/addin-build";
import { loadFunctionsBundle } from "../addin/bundle-harness";
import { wellFormedKey } from "../addin/office-stand-ins";
import { checkSearch } from "../../src/taskpane/search-form";
import { SEARCH_KINDS, type SearchKind } from "../../src/taskpane/search-kinds";
import { apiRequestFor, formulaFor } from "../../src/taskpane/search-request";

const ORIGIN = "http://127.0.0.1:9";
let parameters: Map<string, string[]>;

beforeAll(async () => {
  await ensureAddinBuild();
  const metadata = JSON.parse(readDist("functions.json")) as { functions: { id: string; parameters: { name: string }[] }[] };
  parameters = new Map(metadata.functions.map((f) => [f.id, f.parameters.map((p) => p.name)]));
}, 240_000);

/**
 * The formulas formulaFor writes: =PROP.NAME(arg, ...), each argument empty or string
 * literals ("" for a quote) joined with &. Anything else is a formula this test cannot read,
 * which is itself a failure.
 */
function parseFormula(formula: string): { id: string; args: (string | null)[] } {
  const m = /^=PROP\.([A-Z]+)\((.*)\)$/s.exec(formula);
  if (!m) throw new Error(`not a PROP formula: ${formula}`);
  const args: (string | null)[] = [];
  const text = m[2];
  let i = 0;
  for (;;) {
    let value: string | null = null;
    while (text[i] === '"') {
      let piece = "";
      for (i++; ; i++) {
        if (i >= text.length) throw new Error(`unterminated text in ${formula}`);
        if (text[i] === '"' && text[i + 1] === '"') (piece += '"'), i++;
        else if (text[i] === '"') break;
        else piece += text[i];
      }
      i++;
      value = (value ?? "") + piece;
      if (text[i] !== "&") break;
      i++;
      if (text[i] !== '"') throw new Error(`& not followed by text in ${formula}`);
    }
    args.push(value);
    if (i >= text.length) break;
    if (text[i] !== ",") throw new Error(`unexpected ${text[i]} at ${i} in ${formula}`);
    i++;
  }
  return { id: m[1], args: text === "" ? [] : args };
}

/** A minimal answer: one record of a list, or a market snapshot. */
function answer(url: string): Response {
  const body = url.includes("/markets/snapshot")
    ? { object: "market_snapshot", geography_name: "Somewhere", property_count: 1 }
    : { object: "list", data: [{ id: "x_1" }], limit: 25, offset: 0, has_more: false, next_offset: null, total_count: 1 };
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
}

const LONG_NAME = `Holdings ${"x".repeat(110)}`;

/** Representative inputs of every kind, as typed into the pane (not yet normalised). */
const CASES: Record<SearchKind, Record<string, string>[]> = {
  listings: [
    { geography: "austin, tx", status: "Active", min_price: "250,000", limit: "10" },
    { status: "sold" },
    { geography: "78701", property_type: "condo", min_bedrooms: "3", max_price: "900000" },
    {},
  ],
  parcels: [{ geography: "tx", land_use: "Commercial", county_fips: "48453" }, { apn: "0123-45" }, { geography: "St. Louis", limit: "100" }],
  search: [
    { q: "ware*", geography: "Metro-Austin-TX", asset_type: "industrial", min_building_area_sqft: "100000" },
    { geography: "TX", owner_name: 'Smith "Holdings"' },
    { q: 'the "big" one; really' },
    {},
  ],
  assetsearch: [
    { asset_type: "Health Care", geography: "Austin, TX", min_units: "50", q: "medical" },
    { asset_type: "industrial", geography: "TX", min_building_area_sqft: "100000", limit: "25" },
    { asset_type: "land", min_land_area_acres: "2.5", owner_id: "co_0001a2b3", subtype: "pad site" },
    // Options longer than Excel's 255-character text constant: written as "..."&"...".
    { asset_type: "office", q: `tower ${"y".repeat(180)}`, owner_name: LONG_NAME, subtype: "medical office" },
  ],
  salecomps: [
    { subject: "cp_0001a2b3", max_distance_miles: "10", min_sale_date: "45000" },
    { subject: "Austin, TX", asset_type: "office", min_sale_date: "2023-01-01", max_sale_date: "2024-12-31", subtype: "medical office" },
    { subject: "metro-dallas-tx", min_price: "1,000,000", max_price: "5e6", min_building_area_sqft: "20000" },
    { subject: "tx", asset_type: "Senior Living", limit: "7" },
  ],
  market: [
    { geography: "austin,tx", asset_type: "Industrial" },
    { geography: "Austin, TX metro", asset_type: "office" },
    { geography: "metro-austin-tx", asset_type: "multifamily" },
    { geography: "ca", asset_type: "retail" },
  ],
  companies: [{ company_type: "owner" }, { company_type: "Property Manager", q: "capital", state_code: "tx" }, { company_type: "tenant", state_code: "NY" }],
  portfolio: [{ owner: "co_0001a2b3", asset_type: "office", state_code: "TX" }, { owner: "Blackstone Real Estate" }, { owner: LONG_NAME.slice(0, 120) }],
  footprint: [{ tenant: "co_00ff" }, { tenant: "Acme; Co", asset_type: "retail" }, { tenant: 'Joe\'s "Diner"', state_code: "ca", limit: "100" }],
};

test("every search kind has cases, and its positional arguments are the function's, in order, options last", () => {
  expect(Object.keys(CASES).sort()).toEqual(Object.keys(SEARCH_KINDS).sort());
  for (const [kind, spec] of Object.entries(SEARCH_KINDS)) {
    expect({ kind, parameters: [...spec.args.map((a) => a.arg), "options"] }).toEqual({ kind, parameters: parameters.get(spec.fn) });
  }
});

const cases = Object.entries(CASES).flatMap(([kind, list]) => list.map((values, i) => [`${kind} #${i + 1}`, kind as SearchKind, values] as const));

test.each(cases)("%s: the formula makes the preview's request", async (_name, kind, values) => {
  const checked = checkSearch(kind, values);
  if (!checked.ok) throw new Error(`the case itself is refused: ${JSON.stringify(checked.errors)}`);
  const formula = formulaFor(checked.request);
  const expected = apiRequestFor(checked.request);

  const { id, args } = parseFormula(formula);
  expect(id).toBe(SEARCH_KINDS[kind].fn);
  const arity = parameters.get(id)!.length;
  expect(args.length).toBeLessThanOrEqual(arity);
  // Excel passes an omitted optional argument as null, and the invocation after all of them.
  const padded = [...args, ...Array(arity - args.length).fill(null)];
  const loaded = loadFunctionsBundle({ origin: ORIGIN, apiKey: wellFormedKey(), respond: answer });
  const result = await loaded.call(id, padded);
  expect(Array.isArray(result)).toBe(true);

  expect(loaded.calls).toHaveLength(1);
  const sent = new URL(loaded.calls[0].url);
  const query = Object.entries(expected.query ?? {})
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${String(v)}`);
  expect({ formula, method: loaded.calls[0].method, path: sent.pathname, query: [...sent.searchParams].map(([k, v]) => `${k}=${v}`).sort() }).toEqual({
    formula,
    method: expected.method ?? "GET",
    path: expected.path,
    query: query.sort(),
  });
});

test("the long case really is split into several text constants, each within Excel's 255 characters", () => {
  const checked = checkSearch("assetsearch", CASES.assetsearch[3]);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  const formula = formulaFor(checked.request);
  expect(formula).toContain('"&"');
  for (const literal of formula.match(/"(?:[^"]|"")*"/g) ?? []) expect(literal.slice(1, -1).replace(/""/g, '"').length).toBeLessThanOrEqual(255);
});

test("the parser reads what it must, so a mismatch is the mapping's fault, not the test's", () => {
  expect(parseFormula('=PROP.LISTINGS(,"a""b"&"c","limit=25")')).toEqual({ id: "LISTINGS", args: [null, 'a"bc', "limit=25"] });
  expect(parseFormula("=PROP.SEARCH()")).toEqual({ id: "SEARCH", args: [] });
  expect(() => parseFormula('=PROP.SEARCH("a",B2)')).toThrow(/unexpected B/);
});
