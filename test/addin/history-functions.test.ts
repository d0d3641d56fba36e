// PROP.MARKETHISTORY and PROP.HISTORY end to end: the built functions.js in node:vm, with the
// stand-in CustomFunctions, against the real service over the shared test snapshot. A series
// spills its periods oldest first with real Excel dates, agrees with PROP.MARKET about today,
// and cells asking one market with different metrics cost one request; a property's history
// spills its events, filtered by the service as asked.
import { ensureAddinBuild } from "./addin-build";
import { loadFunctionsBundle } from "./bundle-harness";
import { pick, startService, type TestService, listenOnLoopback } from "../helpers/service";
import { fromExcelSerial } from "../../src/functions/cell-values";

let svc: TestService;
let origin: string;
let market: { state: string; asset: string };
let propertyId: string;

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
  const state = pick(svc, "SELECT state_code FROM properties WHERE asset_type = 'industrial' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
  market = { state: state.state_code, asset: "industrial" };
  propertyId = pick(svc, "SELECT property_id FROM sales GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1").property_id;
}, 240_000);

afterAll(() => svc?.app.close());

const bundle = () => loadFunctionsBundle({ origin, apiKey: svc.key });
const historyCalls = (loaded: ReturnType<typeof bundle>) => loaded.calls.filter((c) => new URL(c.url).pathname.endsWith("/history"));

test("a market's series: period ends as Excel dates, oldest first, a column per metric; with partial=true its latest period is PROP.MARKET's today", async () => {
  const loaded = bundle();
  const spill = (await loaded.call("MARKETHISTORY", [
    market.state,
    market.asset,
    "vacancy_rate,asking_rent_sqft_year",
    "2020-Q1",
    null,
    "partial=true; labels=false",
  ])) as unknown[][];
  expect(spill[0]).toEqual(["period_end", "vacancy_rate", "asking_rent_sqft_year"]);
  const rows = spill.slice(1);
  expect(rows.length).toBeGreaterThan(4);
  const ends = rows.map((r) => r[0]);
  for (const end of ends) expect(typeof end).toBe("number");
  expect([...ends].sort((a, b) => Number(a) - Number(b))).toEqual(ends);
  expect(fromExcelSerial(ends[0] as number)).toBe("2020-03-31");
  const snapshot = (await loaded.call("MARKET", [market.state, market.asset, null, null])) as unknown[][];
  const today = Object.fromEntries(snapshot.slice(1).map(([k, v]) => [k, v]));
  expect(rows[rows.length - 1][1]).toBe(today.vacancy_rate);
  expect(rows[rows.length - 1][2]).toBe(today.asking_rent_sqft_year);
  expect(historyCalls(loaded)).toHaveLength(1);
});

test("by default the period to date is left out, so the last row is the last whole quarter; partial=true keeps it, labelled", async () => {
  const loaded = bundle();
  const whole = (await loaded.call("MARKETHISTORY", [
    market.state,
    market.asset,
    "sales_count",
    "2026-Q1",
    null,
    "labels=true",
  ])) as unknown[][];
  expect(whole.slice(1).map((r) => r[1])).toEqual(["2026-Q1", "2026-Q2", "2026-Q3"]);
  expect(fromExcelSerial(whole[whole.length - 1][0] as number)).toBe("2026-09-30");
  const kept = (await loaded.call("MARKETHISTORY", [
    market.state,
    market.asset,
    "sales_count",
    "2026-Q1",
    null,
    "partial=true",
  ])) as unknown[][];
  expect(kept.slice(1).map((r) => r[1])).toEqual(["2026-Q1", "2026-Q2", "2026-Q3", "2026-Q4 (to Nov 1)"]);
  const years = (await loaded.call("MARKETHISTORY", [
    market.state,
    market.asset,
    "sales_count",
    2025,
    null,
    "interval=year; labels=true",
  ])) as unknown[][];
  expect(years.slice(1).map((r) => r[1])).toEqual(["2025"]);
});

test("PROP.MARKET gives the properties behind a market: property_count and thin, one cell each, in the same request", async () => {
  const loaded = bundle();
  const [count, thin] = await Promise.all([
    loaded.call("MARKET", [market.state, market.asset, "property_count", null]),
    loaded.call("MARKET", [market.state, market.asset, "thin", null]),
  ]);
  expect(count).toEqual([[expect.any(Number)]]);
  expect(thin).toEqual([[(count as number[][])[0][0] < 5]]);
});

test("interval=year, headers=false, labels=true: one row per year, named", async () => {
  const spill = (await bundle().call("MARKETHISTORY", [
    market.state,
    market.asset,
    [["sales_count"], ["sales_volume"]],
    2019,
    2022,
    "interval=year; headers=false; labels=true",
  ])) as unknown[][];
  expect(spill.map((r) => r[1])).toEqual(["2019", "2020", "2021", "2022"]);
  expect(spill.map((r) => fromExcelSerial(r[0] as number))).toEqual(["2019-12-31", "2020-12-31", "2021-12-31", "2022-12-31"]);
  expect(spill.every((r) => r.length === 4)).toBe(true);
});

test("three cells of one market and period asking different metrics: one request, two credits, each its own columns", async () => {
  const loaded = bundle();
  const ask = (metrics: string) =>
    loaded.call("MARKETHISTORY", [market.state, market.asset, metrics, "2022", null, null]) as Promise<unknown[][]>;
  const [vacancy, rent, both] = await Promise.all([ask("vacancy_rate"), ask("asking_rent_sqft_year"), ask("median_cap_rate,vacancy_rate")]);
  expect(historyCalls(loaded)).toHaveLength(1);
  expect(new URL(historyCalls(loaded)[0].url).searchParams.get("metrics")).toBe("asking_rent_sqft_year,vacancy_rate,median_cap_rate");
  expect(vacancy[0]).toEqual(["period_end", "vacancy_rate"]);
  expect(rent[0]).toEqual(["period_end", "asking_rent_sqft_year"]);
  expect(both[0]).toEqual(["period_end", "median_cap_rate", "vacancy_rate"]);
  expect(both.map((r) => r[2])).toEqual(vacancy.map((r) => r[1]));
  // Recalculated, each answers from its own cached series.
  await Promise.all([ask("vacancy_rate"), ask("asking_rent_sqft_year")]);
  expect(historyCalls(loaded)).toHaveLength(1);
});

test('the whole country: PROP.MARKET("US", ...) and PROP.MARKETHISTORY("United States", ...) are the national market, one request each', async () => {
  const loaded = bundle();
  const vacancy = await loaded.call("MARKET", ["US", "industrial", "vacancy_rate", null]);
  const national = pick(svc, "SELECT vacancy_rate FROM markets WHERE geography_type = 'national' AND asset_type = 'industrial'");
  expect(vacancy).toEqual([[national.vacancy_rate]]);
  const series = (await loaded.call("MARKETHISTORY", [
    "United States",
    "industrial",
    "vacancy_rate",
    null,
    null,
    "partial=true",
  ])) as unknown[][];
  expect(series[series.length - 1][2]).toBe(national.vacancy_rate);
  const asked = historyCalls(loaded).map((c) => new URL(c.url).searchParams.get("geography"));
  expect(asked).toEqual(["US"]);
});

test("a place the snapshot does not hold is #VALUE! from the service, free", async () => {
  await expect(bundle().call("MARKETHISTORY", ["Atlantis, TX", "industrial", "vacancy_rate", null, null, null])).rejects.toMatchObject({
    code: "#VALUE!",
  });
});

test("a property's history: its events with readable columns; event_type and dates filter them", async () => {
  const loaded = bundle();
  const spill = (await loaded.call("HISTORY", [propertyId, null])) as unknown[][];
  expect(spill[0].slice(0, 3)).toEqual(["date", "event_type", "description"]);
  const types = spill.slice(1).map((r) => r[1]);
  expect(types).toContain("sale");
  for (const row of spill.slice(1)) expect(typeof row[0]).toBe("number");
  const sales = (await loaded.call("HISTORY", [propertyId, "event_type=sale; cols=date,event_type,price"])) as unknown[][];
  expect(sales[0]).toEqual(["date", "event_type", "price"]);
  expect(new Set(sales.slice(1).map((r) => r[1]))).toEqual(new Set(["sale"]));
  expect(sales.length - 1).toBe(types.filter((t) => t === "sale").length);
  await expect(loaded.call("HISTORY", ["cp_doesnotexist", null])).rejects.toMatchObject({ code: "#N/A" });
});
