// The market history of the shared generated test snapshot: every quarter of every market,
// consistent with the market snapshot (the last quarter is today's figures), with the sales
// table (flows and medians), with the properties' year_built (inventory and deliveries), and
// with itself (net absorption); and the generated rents and vacancy move in cycles that differ
// from metro to metro.
import type Database from "better-sqlite3";
import type { HistoryCoverage } from "../../src/contract/coverage";
import { HISTORY_QUARTERS, heldSpan, MARKET_HISTORY_METRIC_NAMES } from "../../src/contract/history";
import { completionQuarter, quarterEnd, quarterOf, quarterStart } from "../../src/contract/periods";
import { monthsBefore } from "../../src/snapshot/derive/windows";
import { median } from "../../src/snapshot/derive/stats";
import { openSnapshot, readMeta } from "../../src/snapshot/snapshot-file";
import { MarketCycles } from "../../src/snapshot/generate/market-cycles";
import { decodeHistory, HistoryEncoder } from "../../src/snapshot/history-codec";
import { loadHistoryFigures } from "../helpers/history-figures";

let db: Database.Database;
let capture: string;
let first: number;
let last: number;
beforeAll(() => {
  db = openSnapshot(process.env.TEST_SNAPSHOT!);
  loadHistoryFigures(db);
  capture = readMeta(db).captured_at.slice(0, 10);
  ({ first, last } = heldSpan(capture));
});
afterAll(() => db.close());

const all = <T = any>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
const one = <T = any>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;

/** One market's series, oldest first. */
const series = (marketId: string) =>
  all(`SELECT h.* FROM market_history_figures h JOIN markets m ON m.rowid = h.market WHERE m.id = ? ORDER BY h.quarter`, marketId);

test("the span: whole years back to at least HISTORY_QUARTERS quarters, every market every quarter", () => {
  expect(capture).toBe("2026-11-01");
  expect(last).toBe(quarterOf("2026-11-01"));
  expect(last - first + 1).toBeGreaterThanOrEqual(HISTORY_QUARTERS);
  expect(first % 4).toBe(0);
  const markets = one("SELECT COUNT(*) AS n FROM markets").n;
  // A row per market and calendar year: each year's four quarters, then 2026 from its Q1 to Q4.
  const years = Array.from({ length: (last - first + 1) / 4 }, (_, i) => ({ q0: first + 4 * i, n: 4, rows: markets }));
  expect(years[years.length - 1].q0).toBe(quarterOf("2026-01-01"));
  expect(all("SELECT first_quarter AS q0, quarters AS n, COUNT(*) AS rows FROM market_history GROUP BY 1, 2 ORDER BY 1")).toEqual(years);
  expect(one("SELECT COUNT(*) AS n FROM market_history_figures").n).toBe(markets * (last - first + 1));
  expect(one("SELECT MIN(quarter) AS lo, MAX(quarter) AS hi, COUNT(DISTINCT market) AS n FROM market_history_figures")).toEqual({
    lo: first,
    hi: last,
    n: markets,
  });
  const coverage = JSON.parse(readMeta(db).coverage).history;
  expect(coverage).toMatchObject({ first_period: "2006-Q1", last_period: "2026-Q4", quarters: 84, markets, captured_rows: 0 });
});

test("the span reaches back through 2006 at any capture date, so it holds the 2008-2010 downturn, and holds 80 quarters at least", () => {
  for (const date of ["2026-01-01", "2026-11-01", "2027-01-01", "2027-12-31", "2031-06-30"]) {
    const span = heldSpan(date);
    expect([date, span.first]).toEqual([date, expect.any(Number)]);
    expect(span.first).toBeLessThanOrEqual(quarterOf("2006-01-01"));
    expect(span.last - span.first + 1).toBeGreaterThanOrEqual(HISTORY_QUARTERS);
  }
});

test("property_count is the properties standing at each quarter's end: the market's count today, less what completed after", () => {
  const differing = all(
    `SELECT m.id FROM markets m JOIN market_history_figures h ON h.market = m.rowid AND h.quarter = ? WHERE h.property_count IS NOT m.property_count`,
    last,
  );
  expect(differing).toEqual([]);
  const props = all<{ id: string; year_built: number | null }>(
    "SELECT id, year_built FROM properties WHERE state_code = 'TX' AND asset_type = 'industrial'",
  );
  const standing = (q: number) => props.filter((p) => (completionQuarter(p.id, p.year_built, last) ?? -Infinity) <= q).length;
  const rows = series("mkt_TX_industrial");
  expect(rows).toHaveLength(last - first + 1);
  for (const r of rows) expect([r.quarter, r.property_count]).toEqual([r.quarter, standing(r.quarter)]);
  // Not vacuous: the count grew over the span.
  expect(rows[0].property_count).toBeLessThan(rows[rows.length - 1].property_count);
});

test("every generated series shows the 2008-2010 downturn: from mid-2008 to the end of 2009 rents fell and vacancy rose", () => {
  const before = quarterOf("2008-06-30");
  const trough = quarterOf("2009-12-31");
  const rows = all(
    `SELECT a.market, a.asking_rent_sqft_year AS r0, b.asking_rent_sqft_year AS r1, a.asking_rent_unit_month AS u0,
       b.asking_rent_unit_month AS u1, a.vacancy_rate AS v0, b.vacancy_rate AS v1
     FROM market_history_figures a JOIN market_history_figures b ON b.market = a.market AND b.quarter = ? WHERE a.quarter = ?`,
    trough,
    before,
  );
  let rents = 0;
  let vacancies = 0;
  let rose = 0;
  for (const r of rows) {
    if (r.r0 !== null && r.r0 > 1) {
      expect([r.market, r.r1 < r.r0]).toEqual([r.market, true]);
      rents++;
    }
    if (r.u0 !== null && r.u0 > 100) expect([r.market, r.u1 < r.u0]).toEqual([r.market, true]);
    if (r.v0 !== null) {
      // Vacancy is held within 0..0.95, so a market empty or full at both dates stays put.
      expect([r.market, r.v1 >= r.v0]).toEqual([r.market, true]);
      if (r.v1 > r.v0) rose++;
      vacancies++;
    }
  }
  expect(rents).toBeGreaterThan(1000);
  expect(rose / vacancies).toBeGreaterThan(0.9);
});

test("coverage: metrics a type has no figure for at all are not_held, apart from the gaps (partial only)", () => {
  const { gaps, not_held } = JSON.parse(readMeta(db).coverage).history as HistoryCoverage;
  const notHeld = Object.fromEntries(not_held.map((n) => [n.asset_type, n.metrics]));
  expect(notHeld.multifamily).toEqual(expect.arrayContaining(["asking_rent_sqft_year"]));
  expect(notHeld.industrial).toEqual(expect.arrayContaining(["asking_rent_unit_month", "inventory_units"]));
  expect(notHeld.land).toEqual(expect.arrayContaining(["vacancy_rate", "median_cap_rate"]));
  expect(notHeld.land).not.toContain("sales_count");
  // Each listed metric really has no figure in any of the type's market-quarters.
  const held = one(
    `SELECT COUNT(h.vacancy_rate) AS n FROM market_history_figures h JOIN markets m ON m.rowid = h.market WHERE m.asset_type = 'land'`,
  ).n;
  expect(held).toBe(0);
  expect(gaps.length).toBeGreaterThan(0);
  for (const g of gaps) {
    expect(g.missing_periods).toBeGreaterThan(0);
    expect(g.missing_periods).toBeLessThan(g.periods);
  }
});

test("the last quarter's stocks and medians are the market snapshot's, in every market", () => {
  const same = [
    "asking_rent_sqft_year",
    "asking_rent_unit_month",
    "vacancy_rate",
    "median_cap_rate",
    "median_price_per_sqft",
    "median_price_per_unit",
    "inventory_sqft",
    "inventory_units",
  ];
  const differing = all(
    `SELECT m.id FROM markets m JOIN market_history_figures h ON h.market = m.rowid AND h.quarter = ?
     WHERE ${same.map((c) => `h.${c} IS NOT m.${c}`).join(" OR ")}`,
    last,
  );
  expect(differing).toEqual([]);
  // Not vacuous: the figures are there.
  expect(one(`SELECT COUNT(vacancy_rate) AS n FROM market_history_figures WHERE quarter = ?`, last).n).toBeGreaterThan(1000);
});

test("sales count and volume per quarter are exactly the sales recorded in it, and sum to the sales table's", () => {
  const want = all(
    `SELECT state_code, asset_type, CAST(substr(sale_date, 1, 4) AS INTEGER) * 4 + (CAST(substr(sale_date, 6, 2) AS INTEGER) - 1) / 3 AS q,
       COUNT(*) AS n, SUM(sale_price) AS vol
     FROM sales WHERE sale_date >= ? AND sale_date <= ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    quarterStart(first),
    capture,
  );
  const got = all(
    `SELECT m.geography_id AS state_code, m.asset_type, h.quarter AS q, h.sales_count AS n, h.sales_volume AS vol
     FROM market_history_figures h JOIN markets m ON m.rowid = h.market WHERE m.geography_type = 'state' AND h.sales_count > 0 ORDER BY 1, 2, 3`,
  );
  expect(got).toEqual(want);
  const total = one("SELECT COUNT(*) AS n FROM sales WHERE sale_date >= ? AND sale_date <= ?", quarterStart(first), capture).n;
  expect(total).toBeGreaterThan(500);
  expect(
    one(`SELECT SUM(sales_count) AS n FROM market_history_figures h JOIN markets m ON m.rowid = h.market WHERE m.geography_type = 'state'`)
      .n,
  ).toBe(total);
});

test("the 24-month medians of a complete quarter are the medians of the sales in the 24 months to its end", () => {
  const market = one(
    `SELECT m.id, m.geography_id, m.asset_type FROM markets m WHERE m.geography_type = 'state' AND m.asset_type = 'multifamily'
     ORDER BY property_count DESC LIMIT 1`,
  );
  const rows = series(market.id);
  let checked = 0;
  for (const r of rows.slice(0, -1)) {
    const end = quarterEnd(r.quarter);
    const sales = all(
      "SELECT cap_rate, price_per_unit FROM sales WHERE state_code = ? AND asset_type = ? AND sale_date > ? AND sale_date <= ?",
      market.geography_id,
      market.asset_type,
      monthsBefore(end, 24),
      end,
    );
    const caps = sales.map((s) => s.cap_rate).filter((v) => v !== null);
    const round = (x: number | null, d: number) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);
    expect([r.quarter, r.median_cap_rate]).toEqual([r.quarter, round(median(caps), 4)]);
    expect(r.median_price_per_unit).toBe(round(median(sales.map((s) => s.price_per_unit).filter((v) => v !== null)), 0));
    if (caps.length) checked++;
  }
  expect(checked).toBeGreaterThan(30);
});

test("inventory follows year_built: deliveries are what completed in the quarter, inventory moves by them", () => {
  const props = all<{ id: string; state_code: string; asset_type: string; year_built: number | null; building_area_sqft: number | null }>(
    "SELECT id, state_code, asset_type, year_built, building_area_sqft FROM properties",
  );
  const delivered = new Map<string, number>();
  for (const p of props) {
    const q = completionQuarter(p.id, p.year_built, last);
    if (q === null || q < first || p.building_area_sqft === null) continue;
    const key = `${p.state_code}|${p.asset_type}|${q}`;
    delivered.set(key, (delivered.get(key) ?? 0) + p.building_area_sqft);
  }
  const rows = all(
    `SELECT m.geography_id AS state, m.asset_type, h.quarter, h.deliveries_sqft, h.inventory_sqft
     FROM market_history_figures h JOIN markets m ON m.rowid = h.market WHERE m.geography_type = 'state' AND h.inventory_sqft IS NOT NULL
     ORDER BY m.rowid, h.quarter`,
  );
  let deliveries = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    expect([r.state, r.asset_type, r.quarter, r.deliveries_sqft]).toEqual([
      r.state,
      r.asset_type,
      r.quarter,
      Math.round(delivered.get(`${r.state}|${r.asset_type}|${r.quarter}`) ?? 0),
    ]);
    const prev = rows[i - 1];
    if (prev && prev.state === r.state && prev.asset_type === r.asset_type)
      expect(r.inventory_sqft - prev.inventory_sqft).toBe(r.deliveries_sqft);
    deliveries += r.deliveries_sqft;
  }
  expect(deliveries).toBeGreaterThan(0);
});

test("net absorption is the change in occupied area between quarter ends", () => {
  const rows = series("mkt_TX_office");
  expect(rows).toHaveLength(last - first + 1);
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1], rows[i]];
    const occupied = (r: any) => r.inventory_sqft * (1 - r.vacancy_rate);
    expect(Math.abs(b.net_absorption_sqft - (occupied(b) - occupied(a)))).toBeLessThanOrEqual(1);
  }
});

test("every metric the contract names is stored for every quarter, and decodes to the market snapshot's figures exactly in the last", () => {
  const rows = all(
    "SELECT h.quarters, h.figures FROM market_history h JOIN markets m ON m.rowid = h.market WHERE m.id = 'mkt_TX_office' ORDER BY h.first_quarter",
  );
  expect(rows).toHaveLength((last - first + 1) / 4);
  for (const row of rows) {
    const figures = decodeHistory(row.figures, row.quarters);
    expect(figures).toHaveLength(MARKET_HISTORY_METRIC_NAMES.length);
    // Packed as varints of quarter-to-quarter changes: far smaller than 8 bytes a figure.
    expect(row.figures.length).toBeLessThan(MARKET_HISTORY_METRIC_NAMES.length * row.quarters * 3);
    // Re-encoding what was decoded gives the same bytes: nothing is lost either way.
    const series = Object.fromEntries(MARKET_HISTORY_METRIC_NAMES.map((m, c) => [m, figures[c]])) as never;
    expect(Buffer.from(new HistoryEncoder(row.quarters).encode(series)).equals(row.figures)).toBe(true);
  }
  // The current year's row ends with today's quarter.
  const current = rows[rows.length - 1];
  const figures = decodeHistory(current.figures, current.quarters);
  const market = one("SELECT * FROM markets WHERE id = 'mkt_TX_office'");
  const at = (metric: string) => figures[MARKET_HISTORY_METRIC_NAMES.indexOf(metric as never)][current.quarters - 1];
  for (const m of [
    "vacancy_rate",
    "asking_rent_sqft_year",
    "median_cap_rate",
    "median_price_per_sqft",
    "inventory_sqft",
    "property_count",
  ]) {
    expect([m, at(m)]).toEqual([m, market[m]]);
  }
});

/** Quarters where a series turns (a peak or a trough). */
function turns(values: number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < values.length - 1; i++) {
    const [d1, d2] = [values[i] - values[i - 1], values[i + 1] - values[i]];
    if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) out.push(i);
  }
  return out;
}

test("generated vacancy and rents move in cycles, with each metro's own phase", () => {
  const metros = all<{ id: string }>(
    "SELECT id FROM markets WHERE geography_type = 'metro' AND asset_type = 'multifamily' ORDER BY property_count DESC LIMIT 6",
  );
  const vacancy = metros.map((m) => series(m.id).map((r) => r.vacancy_rate as number));
  for (const v of vacancy) {
    expect(turns(v).length).toBeGreaterThanOrEqual(2);
    // Not noise around a line: quarter to quarter, the direction mostly holds.
    const changes = v.slice(1).map((x, i) => Math.sign(x - v[i]));
    const flips = changes.slice(1).filter((s, i) => s !== changes[i]).length;
    expect(flips).toBeLessThan(changes.length / 4);
  }
  // Different metros peak at different times.
  const peaks = new Set(vacancy.map((v) => v.indexOf(Math.max(...v))));
  expect(peaks.size).toBeGreaterThan(1);
  const cycles = new MarketCycles(7);
  const [a, b] = metros.map((m) => cycles.of(m.id.replace(/^mkt_/, "").replace(/_multifamily$/, "")));
  expect(a.phase).not.toBe(b.phase);
  expect(a.length).not.toBe(b.length);
});

test("office vacancy rose after 2020; hotels took the 2020 shock hardest; industrial did not", () => {
  const at = (id: string, label: number) => series(id).find((r) => r.quarter === label);
  const q2019 = quarterOf("2019-12-31");
  const q2024 = quarterOf("2024-12-31");
  const q2020 = quarterOf("2020-09-30");
  const states = all<{ geography_id: string }>("SELECT DISTINCT geography_id FROM markets WHERE geography_type = 'state'");
  let officeUp = 0;
  let hotelsWorse = 0;
  let n = 0;
  for (const { geography_id: s } of states) {
    const office = [at(`mkt_${s}_office`, q2019), at(`mkt_${s}_office`, q2024)];
    const hotel = [at(`mkt_${s}_hospitality`, q2019), at(`mkt_${s}_hospitality`, q2020)];
    const industrial = [at(`mkt_${s}_industrial`, q2019), at(`mkt_${s}_industrial`, q2020)];
    if (
      office.some((r) => r?.vacancy_rate == null) ||
      hotel.some((r) => r?.vacancy_rate == null) ||
      industrial.some((r) => r?.vacancy_rate == null)
    )
      continue;
    n++;
    if (office[1]!.vacancy_rate > office[0]!.vacancy_rate) officeUp++;
    if (hotel[1]!.vacancy_rate - hotel[0]!.vacancy_rate > industrial[1]!.vacancy_rate - industrial[0]!.vacancy_rate) hotelsWorse++;
  }
  expect(n).toBeGreaterThan(40);
  expect(officeUp / n).toBeGreaterThan(0.9);
  expect(hotelsWorse / n).toBeGreaterThan(0.9);
});

test("sale prices follow the cycle: sales in 2010 went for less, against today's value, than in 2007", () => {
  const ratio = (year: number) =>
    median(
      all(
        `SELECT s.sale_price * 1.0 / p.estimated_value AS r FROM sales s JOIN properties p ON p.id = s.property_id
         WHERE s.sale_date BETWEEN ? AND ? AND p.estimated_value > 0`,
        `${year}-01-01`,
        `${year}-12-31`,
      ).map((r) => r.r),
    )!;
  // Along the 3.2% trend alone 2010 would be about 10% above 2007; the downturn takes it below.
  expect(ratio(2010)).toBeLessThan(ratio(2007));
});
