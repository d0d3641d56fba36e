// "Insert as formula" must make the request the pane's preview made, and "Insert" must write
// the table the formula spills. For every search kind and a few representative inputs, the
// formula from formulaFor is evaluated by the BUILT functions bundle (dist/addin/functions.js in
// node:vm) against a stub that records the URL, and that request must equal apiRequestFor's:
// method, path and query parameters as a set. Then, for an answer holding every field of the
// kind's records, the cells Insert writes must hold what the formula spills, in a host that
// shows formatted numbers: the same values (Excel dates and percentages as their numbers, text
// as the same text, missing values empty) with the same number formats. The labels the
// preview shows for a market are the preview's alone: Insert writes the formula's spill.
import { ensureAddinBuild, readDist } from "../addin/addin-build";
import { loadFunctionsBundle } from "../addin/bundle-harness";
import { wellFormedKey } from "../addin/office-stand-ins";
import { DATETIME_FORMAT, DATE_FORMAT, PERCENT_FORMAT } from "../../src/functions/cell-values";
import { RESOURCES } from "../../src/functions/record-fields";
import { ENDPOINTS } from "../../src/shared/endpoints";
import { toCellRows } from "../../src/taskpane/cell-text";
import { writableFormat } from "../../src/taskpane/excel-cell-rules";
import { checkSearch } from "../../src/taskpane/search-form";
import { SEARCH_KINDS, type SearchKind } from "../../src/taskpane/search-kinds";
import { apiRequestFor, formulaFor, previewRows, type SearchAnswer } from "../../src/taskpane/search-request";
import type { CellValue } from "../../src/taskpane/workbook-types";
import { MARKET_HISTORY_UNITS, type MarketHistory, type MarketHistoryMetric } from "../../src/contract/history";

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
        if (text[i] === '"' && text[i + 1] === '"') {
          piece += '"';
          i++;
        } else if (text[i] === '"') break;
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

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

/** A market series of the metrics asked: two quarters, every value of its kind, one gap. */
function seriesAnswer(metrics: string[]): MarketHistory {
  return {
    object: "market_history",
    market_id: "mkt_1",
    geography_type: "city",
    geography_id: "austin-tx",
    geography_name: "Austin, TX",
    state_code: "TX",
    asset_type: "industrial",
    interval: "quarter",
    metrics,
    units: Object.fromEntries(metrics.map((m) => [m, MARKET_HISTORY_UNITS[m as MarketHistoryMetric]])),
    periods: ["2026-03-31", "2026-06-30"].map((end, i) => ({
      period: `2026-Q${i + 1}`,
      period_start: `2026-0${i * 3 + 1}-01`,
      period_end: end,
      complete: true,
      property_count: 12,
      thin: false,
      values: Object.fromEntries(
        metrics.map((m, j) => [
          m,
          (i + j) % 3 === 2 ? null : MARKET_HISTORY_UNITS[m as MarketHistoryMetric] === "fraction" ? 0.0625 + i / 100 : 1234.5 + i,
        ]),
      ),
    })),
    coverage: { requested_from: null, first_held: "2006-01-01", from_before_history: false },
    snapshot: { id: "snap_1", captured_at: "2026-11-01T00:00:00Z" },
  };
}

/**
 * A list of `records`, a market series of the metrics asked, or (for PROP.MARKET, which asks
 * through the markets batch) each market asked answered with `market`.
 */
function answering(records: Record<string, unknown>[], market: Record<string, unknown>) {
  return (url: string, init: RequestInit): Response => {
    const asked = new URL(url);
    if (asked.pathname === ENDPOINTS.getMarketHistory.path) return json(seriesAnswer((asked.searchParams.get("metrics") ?? "").split(",")));
    if (new URL(url).pathname === ENDPOINTS.getMarketSnapshotBatch.path) {
      const { markets } = JSON.parse(String(init.body)) as { markets: { geography: string; asset_type: string }[] };
      const results = markets.map((m) => ({ ...m, status: 200, market, etag: null, problem: null }));
      return json({
        object: "market_batch",
        results,
        credits_charged: results.length,
        snapshot: { id: "snap_1", captured_at: "2026-11-01T00:00:00Z" },
      });
    }
    return json({ object: "list", data: records, limit: 25, offset: 0, has_more: false, next_offset: null, total_count: records.length });
  };
}

/** A minimal answer: one record of a list, or a market snapshot. */
const answer = answering([{ id: "x_1" }], { object: "market_snapshot", geography_name: "Somewhere", property_count: 1 });

const LONG_NAME = `Holdings ${"x".repeat(110)}`;

/** Representative inputs of every kind, as typed into the pane (not yet normalised). */
const CASES: Record<SearchKind, Record<string, string>[]> = {
  listings: [
    { geography: "austin, tx", status: "Active", min_price: "250,000", limit: "10" },
    { status: "sold" },
    { geography: "78701", property_type: "condo", min_bedrooms: "3", max_price: "900000" },
    {},
  ],
  parcels: [
    { geography: "Travis County, TX", land_use: "Commercial" },
    { county_fips: "48453", apn: "0123-45" },
    { geography: "St. Louis", limit: "100" },
  ],
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
  history: [
    { property_id: "cp_0001a2b3" },
    { property_id: " cp_0001a2b3 ", event_type: "Sale, lease start", from: "2015-01-01", to: "45473", limit: "50" },
    { property_id: "cp_00ff", event_type: "built" },
  ],
  markethistory: [
    {
      geography: "austin tx",
      asset_type: "Industrial",
      metrics: "Vacancy Rate, asking_rent_sqft_year, median_cap_rate",
      from: "2016-Q1",
      to: "2020",
      interval: "year",
    },
    { geography: "Austin, TX metro", asset_type: "office", metrics: "sales_volume" },
    { geography: "TX", asset_type: "multifamily", metrics: "asking_rent_unit_month,deliveries_units", to: "45473", interval: "quarter" },
  ],
  market: [
    { geography: "austin,tx", asset_type: "Industrial" },
    { geography: "Austin, TX metro", asset_type: "office" },
    { geography: "metro-austin-tx", asset_type: "multifamily" },
    { geography: "ca", asset_type: "retail" },
  ],
  companies: [
    { company_type: "owner" },
    { company_type: "Property Manager", q: "capital", state_code: "tx" },
    { company_type: "tenant", state_code: "NY" },
  ],
  portfolio: [
    { owner: "co_0001a2b3", asset_type: "office", state_code: "TX" },
    { owner: "Blackstone Real Estate" },
    { owner: LONG_NAME.slice(0, 120) },
  ],
  footprint: [
    { tenant: "co_00ff" },
    { tenant: "Acme; Co", asset_type: "retail" },
    { tenant: 'Joe\'s "Diner"', state_code: "ca", limit: "100" },
  ],
};

test("every search kind has cases, and its positional arguments are the function's, in order, options last", () => {
  expect(Object.keys(CASES).sort()).toEqual(Object.keys(SEARCH_KINDS).sort());
  for (const [kind, spec] of Object.entries(SEARCH_KINDS)) {
    expect({ kind, parameters: [...spec.positional.map((p) => p.arg.name), "options"] }).toEqual({
      kind,
      parameters: parameters.get(spec.fn),
    });
  }
});

const cases = Object.entries(CASES).flatMap(([kind, list]) =>
  list.map((values, i) => [`${kind} #${i + 1}`, kind as SearchKind, values] as const),
);

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
  if (kind === "market") {
    // PROP.MARKET asks through the markets batch, and caches each market it gets as the
    // single endpoint's answer to exactly these inputs (CachedApi.market): the preview's request.
    expect(expected.path).toBe(ENDPOINTS.getMarketSnapshot.path);
    const asked = (JSON.parse(String(loaded.calls[0].body)) as { markets: Record<string, string>[] }).markets;
    expect({
      formula,
      method: loaded.calls[0].method,
      path: sent.pathname,
      query: asked.map((m) =>
        Object.entries(m)
          .map(([k, v]) => `${k}=${v}`)
          .sort(),
      ),
    }).toEqual({
      formula,
      method: "POST",
      path: ENDPOINTS.getMarketSnapshotBatch.path,
      query: [query.sort()],
    });
    return;
  }
  expect({
    formula,
    method: loaded.calls[0].method,
    path: sent.pathname,
    query: [...sent.searchParams].map(([k, v]) => `${k}=${v}`).sort(),
  }).toEqual({
    formula,
    method: expected.method ?? "GET",
    path: expected.path,
    query: query.sort(),
  });
});

/**
 * A record holding every field of `resource`, each with a value of its kind: dates, moments,
 * rates, amounts, counts, lists, text (some of it formula-like); every fourth field missing.
 */
function fullRecord(resource: keyof typeof RESOURCES, salt: number): Record<string, unknown> {
  return Object.fromEntries(
    RESOURCES[resource].map((f, i) => {
      if ((i + salt) % 4 === 3 && f.name !== "id") return [f.name, null];
      if (f.format === "date") return [f.name, "2026-03-15"];
      if (f.format === "datetime") return [f.name, "2026-03-15T18:30:00Z"];
      if (f.format === "fraction") return [f.name, 0.0625 + salt / 100];
      if (f.type.startsWith("integer")) return [f.name, 12 + salt];
      if (f.type.startsWith("number")) return [f.name, 1234.5 + salt];
      if (f.type.startsWith("list")) return [f.name, ["lease_rollover", "long_hold"]];
      if (f.type.startsWith("boolean")) return [f.name, salt % 2 === 0];
      return [f.name, i % 3 === 0 ? `=${f.name} ${salt}` : `${f.name} ${salt}`];
    }),
  );
}

/** A cell as Excel holds it: its value (a formatted number's number) and the number format it shows in. */
function held(cell: unknown): { value: unknown; format: string } {
  if (typeof cell === "object" && cell !== null && "basicValue" in cell) {
    const { basicValue, numberFormat } = cell as { basicValue: number; numberFormat: string };
    return { value: basicValue, format: numberFormat };
  }
  return { value: cell, format: "General" };
}

test.each(Object.keys(CASES) as SearchKind[])(
  "%s: Insert writes what the formula spills, dates and rates with their formats",
  async (kind) => {
    const checked = checkSearch(kind, CASES[kind][0]);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const resource = SEARCH_KINDS[kind].resource;
    const records = [fullRecord(resource, 0), fullRecord(resource, 1)];
    const market = { object: "market_snapshot", ...records[0] };
    const loaded = loadFunctionsBundle({ origin: ORIGIN, apiKey: wellFormedKey(), respond: answering(records, market) });
    // A host with CustomFunctionsRuntime 1.4 (Microsoft 365): dates and rates spill as formatted numbers.
    loaded.context.Office = { context: { requirements: { isSetSupported: (set: string) => set === "CustomFunctionsRuntime" } } };
    const { id, args } = parseFormula(formulaFor(checked.request));
    const spill = (await loaded.call(id, args)) as unknown[][];
    expect(Array.isArray(spill)).toBe(true);

    const series = seriesAnswer(String(checked.request.values.metrics).split(","));
    const body = kind === "market" ? market : kind === "markethistory" ? series : { object: "list", data: records, total_count: 2 };
    const table = previewRows(checked.request, body as SearchAnswer);
    const inserted: CellValue[][] = toCellRows([table.header, ...table.rows]);
    // What Insert hands Range.values (text as text: the apostrophe is Excel's, not the cell's) and Range.numberFormat.
    const written = inserted.map((row) => row.map((cell) => ({ value: held(cell).value, format: writableFormat(cell) })));
    expect(written).toEqual(spill.map((row) => row.map(held)));
    // The answer held what the comparison is about: every kind of formatted value the records have, and missing values.
    const FORMAT_OF = { date: DATE_FORMAT, datetime: DATETIME_FORMAT, fraction: PERCENT_FORMAT };
    const periods = series.periods.map((p) => ({ period_end: p.period_end, ...p.values }));
    const answered: Record<string, unknown>[] = kind === "market" ? [market] : kind === "markethistory" ? periods : records;
    const present = RESOURCES[resource].filter((f) => f.format && answered.some((r) => r[f.name] !== null && r[f.name] !== undefined));
    for (const f of present)
      expect({ field: f.name, shown: written.flat().some((c) => c.format === FORMAT_OF[f.format!]) }).toEqual({
        field: f.name,
        shown: true,
      });
    expect(written.flat().some((c) => c.value === "")).toBe(true);
  },
);

test("the long case really is split into several text constants, each within Excel's 255 characters", () => {
  const checked = checkSearch("assetsearch", CASES.assetsearch[3]);
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  const formula = formulaFor(checked.request);
  expect(formula).toContain('"&"');
  for (const literal of formula.match(/"(?:[^"]|"")*"/g) ?? [])
    expect(literal.slice(1, -1).replace(/""/g, '"').length).toBeLessThanOrEqual(255);
});

test("the parser reads what it must, so a mismatch is the mapping's fault, not the test's", () => {
  expect(parseFormula('=PROP.LISTINGS(,"a""b"&"c","limit=25")')).toEqual({ id: "LISTINGS", args: [null, 'a"bc', "limit=25"] });
  expect(parseFormula("=PROP.SEARCH()")).toEqual({ id: "SEARCH", args: [] });
  expect(() => parseFormula('=PROP.SEARCH("a",B2)')).toThrow(/unexpected B/);
});
