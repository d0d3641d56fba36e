// The market history (table `market_history`): for every market the markets table holds, one
// row per calendar quarter from the start of the span (src/contract/periods.ts,
// heldSpan in src/contract/history.ts) to the quarter holding the capture date, which is "to date". Every figure is
// anchored on the market snapshot: the last quarter's stocks and medians are the snapshot's,
// and the series runs back from there.
//
// - Inventory and deliveries follow the properties' year_built: a property stands from its
//   completion quarter (its year, the quarter picked by the last character of its id, so a
//   year's completions spread over its quarters the same way in every build; one completed
//   in the capture year after the capture quarter, or later, counts in the capture quarter).
//   Inventory runs back from today's by taking off each quarter's deliveries, and so does the
//   count of properties standing (property_count, the number behind a quarter's figures).
//   Properties with no year_built stand throughout.
// - Sales count and volume are the sales recorded in each quarter (to the capture date in the
//   last); medians are of the sales in the 24 months to the quarter's end.
// - Rents and vacancy before today come from a model (generated snapshots: the market cycles)
//   or from captured history (imported); with neither they are null, a gap.
// - Net absorption is the change in occupied area (units) between quarter ends, occupied being
//   inventory x (1 - vacancy).
// Captured figures (imported) take the place of derived ones in every quarter but the last,
// whose figures are the market snapshot's. A next month (a generated snapshot built from the
// previous one) keeps the previous snapshot's rents, vacancy and absorption in every quarter
// before its last, so only the quarter to date moves from month to month: anchoring the model
// on each month's figures again would shift a small market's whole past with one lease. One pass over the properties and one over the sales
// (grouped at the markets' finest grain by SQL; in a parallel build the part worker runs it)
// feed it; JS rolls the groups up into every market they belong to.
import type Database from "better-sqlite3";
import { heldSpan, MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../../contract/history";
import type { HistoryCoverage } from "../../contract/coverage";
import { completionQuarter, parseQuarter, quarterEnd, quarterLabel, quarterStart } from "../../contract/periods";
import type { AssetType } from "../../contract/vocabulary";
import { parseList, WindowMedians, type ValueCell } from "./history-medians";
import { GapTally } from "./history-gaps";
import { HISTORY_SCALES } from "../history-tables";
import { geographiesOf, marketKey, type Group } from "./markets";
import { Mode, roundTo } from "./stats";

/** How rents and vacancy moved before the capture date, per market key (a metro, or `nonmetro-<state>`). */
export interface HistoryModel {
  /** Log asking rent on a date (YYYY-MM-DD), up to a constant. */
  logRent(key: string, asset: AssetType, date: string): number;
  /** Vacancy on a date, up to a constant. */
  vacancy(key: string, asset: AssetType, date: string): number;
}

/** The quarters before a quarter whose sales its 24-month medians take in. */
const MEDIAN_BACK = 7;

interface MarketRow {
  rid: number;
  geography_type: string;
  geography_id: string;
  asset_type: AssetType;
  inventory_sqft: number | null;
  inventory_units: number | null;
  vacancy_rate: number | null;
  asking_rent_sqft_year: number | null;
  asking_rent_unit_month: number | null;
  median_cap_rate: number | null;
  median_price_per_sqft: number | null;
  median_price_per_unit: number | null;
  property_count: number;
}

type Captured = Map<number, Partial<Record<MarketHistoryMetric, number | null>>>;

class Span {
  readonly n: number;
  constructor(
    readonly first: number,
    readonly last: number,
  ) {
    this.n = last - first + 1;
  }
}

function groupMarkets(ord: Map<string, number>, g: Group): number[] {
  const out: number[] = [];
  for (const [type, id] of geographiesOf(g)) {
    const i = ord.get(marketKey(type, id, g.asset_type));
    if (i !== undefined) out.push(i);
  }
  return out;
}

/**
 * Deliveries per market and quarter, and (for a model) each market's cycle key: the metro most of
 * its properties are in. One pass over the properties without a GROUP BY (sorting a million rows
 * by six text columns took longer than reading them), grouped here by their geography.
 */
function readCompletions(db: Database.Database, ord: Map<string, number>, span: Span, withKeys: boolean) {
  const sqft = new Float64Array(ord.size * span.n);
  const units = new Float64Array(ord.size * span.n);
  const count = new Float64Array(ord.size * span.n);
  const keys = withKeys ? Array.from({ length: ord.size }, () => new Mode()) : [];
  const groups = new Map<string, number[]>();
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type, id, year_built, building_area_sqft, units FROM properties`;
  type Row = [string, string, string | null, string | null, string | null, string, string, number | null, number | null, number | null];
  for (const r of db.prepare(sql).raw().iterate() as IterableIterator<Row>) {
    const [city, state_code, metro_id, zip, county_fips, asset_type, id, yearBuilt, area, unitCount] = r;
    const key = `${city}|${state_code}|${metro_id}|${zip}|${county_fips}|${asset_type}`;
    let markets = groups.get(key);
    if (!markets) groups.set(key, (markets = groupMarkets(ord, { city, state_code, metro_id, zip, county_fips, asset_type })));
    const q = completionQuarter(id, yearBuilt, span.last);
    const j = q === null || q < span.first ? -1 : q - span.first;
    for (const i of markets) {
      if (j >= 0) {
        sqft[i * span.n + j] += area ?? 0;
        units[i * span.n + j] += unitCount ?? 0;
        count[i * span.n + j] += 1;
      }
      if (withKeys) keys[i].add(metro_id ?? `nonmetro-${state_code}`);
    }
  }
  return { sqft, units, count, keys: keys.map((k) => k.value ?? "") };
}

/** Sales by (city, ZIP, county, state, metro, asset type) and quarter, as market history reads them. */
export type HistorySalesRow = Group & { q: number; n: number; vol: number; caps: string | null; ppsf: string | null; ppu: string | null };

/**
 * The sales side of the history, as rows (from MEDIAN_BACK quarters before the span, for the
 * first quarters' medians, to the capture date). Exported because a parallel build keeps the
 * sales in the worker's part file: the worker runs this there and hands the rows over.
 */
export function historySalesRows(db: Database.Database, capture: string): HistorySalesRow[] {
  const from = heldSpan(capture).first - MEDIAN_BACK;
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type,
      CAST(substr(sale_date, 1, 4) AS INTEGER) * 4 + (CAST(substr(sale_date, 6, 2) AS INTEGER) - 1) / 3 AS q,
      COUNT(*) AS n, SUM(sale_price) AS vol, group_concat(cap_rate) AS caps, group_concat(price_per_sqft) AS ppsf, group_concat(price_per_unit) AS ppu
    FROM sales NOT INDEXED WHERE sale_date >= ? AND sale_date <= ? GROUP BY 1, 2, 3, 4, 5, 6, 7`;
  return db.prepare(sql).all(quarterStart(from), capture) as HistorySalesRow[];
}

/** Sales per market and quarter, and the windows their medians are taken over. */
function readSales(ord: Map<string, number>, span: Span, rows: HistorySalesRow[]) {
  const count = new Float64Array(ord.size * span.n);
  const volume = new Float64Array(ord.size * span.n);
  const cells: Record<"caps" | "ppsf" | "ppu", ValueCell[]> = { caps: [], ppsf: [], ppu: [] };
  const base = span.first - MEDIAN_BACK;
  for (const r of rows) {
    const markets = groupMarkets(ord, r);
    if (!markets.length) continue;
    const j = r.q - span.first;
    if (j >= 0) {
      for (const i of markets) {
        count[i * span.n + j] += r.n;
        volume[i * span.n + j] += r.vol;
      }
    }
    const bucket = r.q - base;
    for (const m of ["caps", "ppsf", "ppu"] as const) {
      const values = parseList(r[m]);
      if (values.length) cells[m].push({ markets, bucket, values });
    }
  }
  const buckets = span.n + MEDIAN_BACK;
  return {
    count,
    volume,
    cap: new WindowMedians(ord.size, buckets, cells.caps),
    ppsf: new WindowMedians(ord.size, buckets, cells.ppsf),
    ppu: new WindowMedians(ord.size, buckets, cells.ppu),
  };
}

/** Captured history (imported snapshots) by market ordinal and quarter, inside the span before the last quarter. */
function readCaptured(db: Database.Database, ord: Map<string, number>, span: Span): { captured: Captured[]; rows: number } {
  const captured: Captured[] = [];
  let rows = 0;
  for (const r of db.prepare("SELECT * FROM captured_market_history").iterate() as IterableIterator<Record<string, unknown>>) {
    const i = ord.get(marketKey(String(r.geography_type), String(r.geography_id), String(r.asset_type)));
    const q = parseQuarter(String(r.period));
    if (i === undefined || q === null || q < span.first || q >= span.last) continue;
    const byQuarter = (captured[i] ??= new Map());
    const figures: Partial<Record<MarketHistoryMetric, number | null>> = {};
    for (const m of MARKET_HISTORY_METRIC_NAMES) if (r[m] !== null && r[m] !== undefined) figures[m] = r[m] as number;
    byQuarter.set(q, figures);
    rows++;
  }
  return { captured, rows };
}

/** What a next month keeps from the previous snapshot: the modelled metrics and the absorption that follows from them. */
const CARRIED: readonly MarketHistoryMetric[] = [
  "asking_rent_sqft_year",
  "asking_rent_unit_month",
  "vacancy_rate",
  "net_absorption_sqft",
  "net_absorption_units",
];

type CarriedRow = [quarter: number, ...figures: (number | null)[]];

/**
 * One market's CARRIED figures in the snapshot attached as `schema`, quarter by quarter from the
 * span's first up to (not including) its last: read market by market through the index, so
 * memory stays flat whatever the number of markets.
 */
function carriedReader(db: Database.Database, schema: string, span: Span): (mk: MarketRow) => CarriedRow[] {
  const read = db
    .prepare(
      `SELECT h.quarter, ${CARRIED.map((m) => `h.${m}`).join(", ")} FROM ${schema}.market_history_figures h
       WHERE h.market = (SELECT rowid FROM ${schema}.markets WHERE geography_type = ? AND geography_id = ? AND asset_type = ?)
         AND h.quarter >= ? AND h.quarter < ?`,
    )
    .raw();
  return (mk) => read.all(mk.geography_type, mk.geography_id, mk.asset_type, span.first, span.last) as CarriedRow[];
}

/** Writes the carried figures of the metrics `which` picks over the series. */
function applyCarried(
  rows: CarriedRow[],
  first: number,
  series: Record<MarketHistoryMetric, (number | null)[]>,
  which: (m: string) => boolean,
) {
  for (const [q, ...figures] of rows) CARRIED.forEach((m, c) => which(m) && (series[m][q - first] = figures[c]));
}

const round = (x: number | null, digits = 0) => (x === null ? null : roundTo(x, digits));

/** Fills `out` with a stock running back from `now` by each quarter's `deliveries`; returns the stock before the span. */
function runBack(out: (number | null)[], now: number | null, deliveries: Float64Array, at: number, n: number): number | null {
  if (now === null) {
    out.fill(null);
    return null;
  }
  let stock = now;
  out[n - 1] = now;
  for (let j = n - 1; j > 0; j--) out[j - 1] = stock -= Math.round(deliveries[at + j]);
  return stock - Math.round(deliveries[at]);
}

/** Net absorption: the change in occupied stock (stock x (1 - vacancy)) from one quarter's end to the next. */
function absorption(
  out: (number | null)[],
  stock: readonly (number | null)[],
  stockBefore: number | null,
  vacancy: readonly (number | null)[],
  vacancyBefore: number | null,
  n: number,
): void {
  let prev = stockBefore === null || vacancyBefore === null ? null : stockBefore * (1 - vacancyBefore);
  for (let j = 0; j < n; j++) {
    const s = stock[j];
    const v = vacancy[j];
    const occupied = s === null || v === null ? null : s * (1 - v);
    out[j] = occupied === null || prev === null ? null : Math.round(occupied - prev);
    prev = occupied;
  }
}
const clampRate = (x: number) => Math.min(0.95, Math.max(0, x));

export interface HistoryOptions {
  /** The capture date, YYYY-MM-DD. */
  capture: string;
  model?: HistoryModel;
  /** The sales rows, when the sales are not in `db` yet (a parallel build's worker computed them). */
  sales?: HistorySalesRow[];
  /** The schema an earlier snapshot of the same data is attached as (a next month's previous one): its completed quarters are kept. */
  previous?: string;
  /** Step timings, for the build's log. */
  log?: (msg: string) => void;
}

/** Fills `market_history` from the markets table and the rows; returns the coverage report's `history`. */
export function deriveMarketHistory(db: Database.Database, opts: HistoryOptions): HistoryCoverage {
  const { first, last } = heldSpan(opts.capture);
  const span = new Span(first, last);
  const n = span.n;
  const markets = db
    .prepare(
      `SELECT rowid AS rid, geography_type, geography_id, asset_type, inventory_sqft, inventory_units, vacancy_rate,
        asking_rent_sqft_year, asking_rent_unit_month, median_cap_rate, median_price_per_sqft, median_price_per_unit, property_count
      FROM markets ORDER BY rowid`,
    )
    .all() as MarketRow[];
  const ord = new Map(markets.map((m, i) => [marketKey(m.geography_type, m.geography_id, m.asset_type), i]));
  const model = opts.model;
  let t = performance.now();
  const lap = (what: string) => {
    opts.log?.(`market history: ${what} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
  };
  const built = readCompletions(db, ord, span, model !== undefined);
  lap("completions");
  const sales = readSales(ord, span, opts.sales ?? historySalesRows(db, opts.capture));
  lap("sales and their medians' windows");
  const { captured, rows: capturedRows } = readCaptured(db, ord, span);
  const carriedOf = opts.previous ? carriedReader(db, opts.previous, span) : null;
  // The model's moves from the capture date to each quarter's end (and, last, to the end of the
  // quarter before the span), once per market key and asset type: markets share them.
  const ends = [...Array.from({ length: n }, (_, j) => (j === n - 1 ? opts.capture : quarterEnd(first + j))), quarterEnd(first - 1)];
  const moves = new Map<string, { rent: Float64Array; vacancy: Float64Array }>();
  const modelled = (key: string, asset: AssetType) => {
    let m = moves.get(`${key}|${asset}`);
    if (!m) {
      const rent0 = model!.logRent(key, asset, opts.capture);
      const vacancy0 = model!.vacancy(key, asset, opts.capture);
      m = {
        rent: Float64Array.from(ends, (d) => model!.logRent(key, asset, d) - rent0),
        vacancy: Float64Array.from(ends, (d) => model!.vacancy(key, asset, d) - vacancy0),
      };
      moves.set(`${key}|${asset}`, m);
    }
    return m;
  };

  const cols = MARKET_HISTORY_METRIC_NAMES;
  const insert = db.prepare(
    `INSERT INTO market_history (market, quarter, ${cols.join(", ")}) VALUES ${Array.from(
      { length: n },
      () =>
        `(${Array(cols.length + 2)
          .fill("?")
          .join(",")})`,
    ).join(",")}`,
  );
  const gaps = new GapTally(n);
  const values = new Array<number | null>(n * (cols.length + 2));
  const series = {} as Record<MarketHistoryMetric, (number | null)[]>;
  for (const m of cols) series[m] = new Array<number | null>(n);

  const nulls = new Int32Array(cols.length);
  // Stored as integers in fixed units (history-tables.ts); whole figures are rounded already.
  const scale = cols.map((m) => HISTORY_SCALES[m] ?? 1);
  for (let i = 0; i < markets.length; i++) {
    const mk = markets[i];
    const at = i * n;
    const moved = model ? modelled(built.keys[i], mk.asset_type) : null;
    // Stocks run back from today's figure (the market snapshot's) by taking off each quarter's deliveries.
    const sqftBefore = runBack(series.inventory_sqft, mk.inventory_sqft, built.sqft, at, n);
    const unitsBefore = runBack(series.inventory_units, mk.inventory_units, built.units, at, n);
    runBack(series.property_count, mk.property_count, built.count, at, n);
    for (let j = 0; j < n - 1; j++) {
      series.asking_rent_sqft_year[j] =
        moved && mk.asking_rent_sqft_year !== null ? roundTo(mk.asking_rent_sqft_year * Math.exp(moved.rent[j]), 2) : null;
      series.asking_rent_unit_month[j] =
        moved && mk.asking_rent_unit_month !== null ? Math.round(mk.asking_rent_unit_month * Math.exp(moved.rent[j])) : null;
      series.vacancy_rate[j] = moved && mk.vacancy_rate !== null ? roundTo(clampRate(mk.vacancy_rate + moved.vacancy[j]), 4) : null;
      series.median_cap_rate[j] = round(sales.cap.median(i, j, j + MEDIAN_BACK), 4);
      series.median_price_per_sqft[j] = round(sales.ppsf.median(i, j, j + MEDIAN_BACK), 2);
      series.median_price_per_unit[j] = round(sales.ppu.median(i, j, j + MEDIAN_BACK), 0);
    }
    // The quarter holding the capture date: the market snapshot's figures.
    series.asking_rent_sqft_year[n - 1] = mk.asking_rent_sqft_year;
    series.asking_rent_unit_month[n - 1] = mk.asking_rent_unit_month;
    series.vacancy_rate[n - 1] = mk.vacancy_rate;
    series.median_cap_rate[n - 1] = mk.median_cap_rate;
    series.median_price_per_sqft[n - 1] = mk.median_price_per_sqft;
    series.median_price_per_unit[n - 1] = mk.median_price_per_unit;
    for (let j = 0; j < n; j++) {
      series.sales_count[j] = sales.count[at + j];
      series.sales_volume[j] = Math.round(sales.volume[at + j]);
      series.deliveries_sqft[j] = mk.inventory_sqft === null ? null : Math.round(built.sqft[at + j]);
      series.deliveries_units[j] = mk.inventory_units === null ? null : Math.round(built.units[at + j]);
    }
    const given = captured[i];
    if (given) for (const [q, figures] of given) for (const m of cols) if (figures[m] !== undefined) series[m][q - first] = figures[m]!;
    // Rents and vacancy first (the last quarter's absorption reads the vacancy before it), absorption after.
    const carried = carriedOf?.(mk) ?? [];
    applyCarried(carried, first, series, (m) => !m.startsWith("net_absorption"));
    const vacancyBefore = moved && mk.vacancy_rate !== null ? clampRate(mk.vacancy_rate + moved.vacancy[n]) : null;
    absorption(series.net_absorption_sqft, series.inventory_sqft, sqftBefore, series.vacancy_rate, vacancyBefore, n);
    absorption(series.net_absorption_units, series.inventory_units, unitsBefore, series.vacancy_rate, vacancyBefore, n);
    applyCarried(carried, first, series, (m) => m.startsWith("net_absorption"));
    if (given) {
      for (const [q, figures] of given) {
        if (figures.net_absorption_sqft !== undefined) series.net_absorption_sqft[q - first] = figures.net_absorption_sqft;
        if (figures.net_absorption_units !== undefined) series.net_absorption_units[q - first] = figures.net_absorption_units;
      }
    }
    nulls.fill(0);
    for (let c = 0; c < cols.length; c++) {
      const list = series[cols[c]];
      for (let j = 0, k = 2 + c; j < n; j++, k += cols.length + 2) {
        const v = list[j];
        values[k] = scale[c] === 1 || v === null ? v : Math.round(v * scale[c]);
        if (v === null) nulls[c]++;
      }
    }
    for (let j = 0, k = 0; j < n; j++, k += cols.length + 2) {
      values[k] = mk.rid;
      values[k + 1] = first + j;
    }
    insert.run(values);
    gaps.add(mk.asset_type, nulls);
  }
  lap("series written");
  return {
    first_period: quarterLabel(first),
    last_period: quarterLabel(last),
    quarters: n,
    markets: markets.length,
    captured_rows: capturedRows,
    ...gaps.summary(),
  };
}
