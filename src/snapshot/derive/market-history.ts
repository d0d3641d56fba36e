// The market history (table `market_history`): for every market the markets table holds, one
// row per calendar quarter from the start of the span (src/shared/contract/periods.ts,
// historySpan) to the quarter holding the capture date, which is "to date". Every figure is
// anchored on the market snapshot: the last quarter's stocks and medians are the snapshot's,
// and the series runs back from there.
//
// - Inventory and deliveries follow the properties' year_built: a property stands from its
//   completion quarter (its year, the quarter picked by the last character of its id, so a
//   year's completions spread over its quarters the same way in every build; one completed
//   in the capture year after the capture quarter, or later, counts in the capture quarter).
//   Inventory runs back from today's by taking off each quarter's deliveries. Properties with
//   no year_built stand throughout.
// - Sales count and volume are the sales recorded in each quarter (to the capture date in the
//   last); medians are of the sales in the 24 months to the quarter's end.
// - Rents and vacancy before today come from a model (generated snapshots: the market cycles)
//   or from captured history (imported); with neither they are null, a gap.
// - Net absorption is the change in occupied area (units) between quarter ends, occupied being
//   inventory x (1 - vacancy).
// Captured figures (imported) take the place of derived ones in every quarter but the last,
// whose figures are the market snapshot's. Two SQL scans (properties, sales) feed it, grouped at
// the markets' finest grain; JS rolls the groups up into every market they belong to.
import type Database from "better-sqlite3";
import { HISTORY_QUARTERS, MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../../shared/contract/history";
import type { HistoryCoverage } from "../../shared/contract/coverage";
import { historySpan, parseQuarter, quarterEnd, quarterLabel, quarterStart } from "../../shared/contract/periods";
import type { AssetType } from "../../shared/contract/vocabulary";
import { parseList, WindowMedians, type ValueCell } from "./history-medians";
import { GapTally } from "./history-gaps";
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

/** Deliveries per market and quarter, and (for a model) each market's cycle key: the metro most of its properties are in. */
function readCompletions(db: Database.Database, ord: Map<string, number>, span: Span, withKeys: boolean) {
  const sqft = new Float64Array(ord.size * span.n);
  const units = new Float64Array(ord.size * span.n);
  const keys = withKeys ? Array.from({ length: ord.size }, () => new Mode()) : [];
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type,
      -- completionQuarter (src/shared/contract/periods.ts), before its clamp to the capture quarter
      CASE WHEN year_built IS NULL THEN NULL ELSE year_built * 4 + unicode(substr(id, -1)) % 4 END AS cq,
      COUNT(*) AS n, SUM(building_area_sqft) AS sqft, SUM(units) AS units
    FROM properties GROUP BY city, state_code, metro_id, zip, county_fips, asset_type, cq`;
  type Row = Group & { cq: number | null; n: number; sqft: number | null; units: number | null };
  for (const r of db.prepare(sql).iterate() as IterableIterator<Row>) {
    const markets = groupMarkets(ord, r);
    const j = r.cq === null || r.cq < span.first ? -1 : Math.min(r.cq, span.last) - span.first;
    for (const i of markets) {
      if (j >= 0) {
        sqft[i * span.n + j] += r.sqft ?? 0;
        units[i * span.n + j] += r.units ?? 0;
      }
      if (withKeys) keys[i].add(r.metro_id ?? `nonmetro-${r.state_code}`, r.n);
    }
  }
  return { sqft, units, keys: keys.map((k) => k.value ?? "") };
}

/** Sales per market and quarter, and the windows their medians are taken over. */
function readSales(db: Database.Database, ord: Map<string, number>, span: Span, capture: string) {
  const count = new Float64Array(ord.size * span.n);
  const volume = new Float64Array(ord.size * span.n);
  const cells: Record<"caps" | "ppsf" | "ppu", ValueCell[]> = { caps: [], ppsf: [], ppu: [] };
  const base = span.first - MEDIAN_BACK;
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type,
      CAST(substr(sale_date, 1, 4) AS INTEGER) * 4 + (CAST(substr(sale_date, 6, 2) AS INTEGER) - 1) / 3 AS q,
      COUNT(*) AS n, SUM(sale_price) AS vol, group_concat(cap_rate) AS caps, group_concat(price_per_sqft) AS ppsf, group_concat(price_per_unit) AS ppu
    FROM sales NOT INDEXED WHERE sale_date >= ? AND sale_date <= ? GROUP BY 1, 2, 3, 4, 5, 6, 7`;
  type Row = Group & { q: number; n: number; vol: number; caps: string | null; ppsf: string | null; ppu: string | null };
  for (const r of db.prepare(sql).iterate(quarterStart(base), capture) as IterableIterator<Row>) {
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

const round = (x: number | null, digits = 0) => (x === null ? null : roundTo(x, digits));
const clampRate = (x: number) => Math.min(0.95, Math.max(0, x));

export interface HistoryOptions {
  /** The capture date, YYYY-MM-DD. */
  capture: string;
  model?: HistoryModel;
}

/** Fills `market_history` from the markets table and the rows; returns the coverage report's `history`. */
export function deriveMarketHistory(db: Database.Database, opts: HistoryOptions): HistoryCoverage {
  const { first, last } = historySpan(opts.capture, HISTORY_QUARTERS);
  const span = new Span(first, last);
  const n = span.n;
  const markets = db
    .prepare(
      `SELECT rowid AS rid, geography_type, geography_id, asset_type, inventory_sqft, inventory_units, vacancy_rate,
        asking_rent_sqft_year, asking_rent_unit_month, median_cap_rate, median_price_per_sqft, median_price_per_unit
      FROM markets ORDER BY rowid`,
    )
    .all() as MarketRow[];
  const ord = new Map(markets.map((m, i) => [marketKey(m.geography_type, m.geography_id, m.asset_type), i]));
  const model = opts.model;
  const built = readCompletions(db, ord, span, model !== undefined);
  const sales = readSales(db, ord, span, opts.capture);
  const { captured, rows: capturedRows } = readCaptured(db, ord, span);
  const ends = Array.from({ length: n }, (_, j) => (j === n - 1 ? opts.capture : quarterEnd(first + j)));
  const endBefore = quarterEnd(first - 1);

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

  markets.forEach((mk, i) => {
    const at = i * n;
    const key = model ? built.keys[i] : "";
    const given = captured[i];
    const pick = (m: MarketHistoryMetric, j: number, derived: number | null): number | null => {
      const c = j < n - 1 ? given?.get(first + j)?.[m] : undefined;
      return c ?? derived;
    };
    // Stocks run back from today's figure (the market snapshot's) by taking off each quarter's deliveries.
    const back = (now: number | null, deliveries: Float64Array): { at: (number | null)[]; before: number | null } => {
      const out = new Array<number | null>(n).fill(null);
      if (now === null) return { at: out, before: null };
      out[n - 1] = now;
      for (let j = n - 1; j > 0; j--) out[j - 1] = out[j]! - deliveries[at + j];
      return { at: out, before: out[0]! - deliveries[at] };
    };
    const invSqft = back(mk.inventory_sqft, built.sqft);
    const invUnits = back(mk.inventory_units, built.units);
    const modelled = (now: number | null, f: (date: string) => number, toValue: (now: number, d: number) => number) => {
      if (now === null || !model) return () => null;
      const base = f(opts.capture);
      return (date: string) => toValue(now, f(date) - base);
    };
    const rentAt = modelled(
      mk.asking_rent_sqft_year,
      (d) => model!.logRent(key, mk.asset_type, d),
      (now, d) => now * Math.exp(d),
    );
    const unitRentAt = modelled(
      mk.asking_rent_unit_month,
      (d) => model!.logRent(key, mk.asset_type, d),
      (now, d) => now * Math.exp(d),
    );
    const vacancyAt = modelled(
      mk.vacancy_rate,
      (d) => model!.vacancy(key, mk.asset_type, d),
      (now, d) => clampRate(now + d),
    );

    const vacBefore = vacancyAt(endBefore);
    for (let j = 0; j < n; j++) {
      const lastQ = j === n - 1;
      const rent = lastQ ? mk.asking_rent_sqft_year : pick("asking_rent_sqft_year", j, round(rentAt(ends[j]), 2));
      const unitRent = lastQ ? mk.asking_rent_unit_month : pick("asking_rent_unit_month", j, round(unitRentAt(ends[j]), 0));
      const vacancy = lastQ ? mk.vacancy_rate : pick("vacancy_rate", j, round(vacancyAt(ends[j]), 4));
      const inventorySqft = pick("inventory_sqft", j, round(invSqft.at[j]));
      const inventoryUnits = pick("inventory_units", j, round(invUnits.at[j]));
      const prevSqft = j === 0 ? round(invSqft.before) : series.inventory_sqft[j - 1];
      const prevUnits = j === 0 ? round(invUnits.before) : series.inventory_units[j - 1];
      const prevVacancy = j === 0 ? vacBefore : series.vacancy_rate[j - 1];
      const absorbed = (inv: number | null, prev: number | null) =>
        inv === null || prev === null || vacancy === null || prevVacancy === null
          ? null
          : Math.round(inv * (1 - vacancy) - prev * (1 - prevVacancy));
      series.asking_rent_sqft_year[j] = rent;
      series.asking_rent_unit_month[j] = unitRent;
      series.vacancy_rate[j] = vacancy;
      series.median_cap_rate[j] = lastQ
        ? mk.median_cap_rate
        : pick("median_cap_rate", j, round(sales.cap.median(i, j, j + MEDIAN_BACK), 4));
      series.median_price_per_sqft[j] = lastQ
        ? mk.median_price_per_sqft
        : pick("median_price_per_sqft", j, round(sales.ppsf.median(i, j, j + MEDIAN_BACK), 2));
      series.median_price_per_unit[j] = lastQ
        ? mk.median_price_per_unit
        : pick("median_price_per_unit", j, round(sales.ppu.median(i, j, j + MEDIAN_BACK), 0));
      series.sales_count[j] = pick("sales_count", j, sales.count[at + j]);
      series.sales_volume[j] = pick("sales_volume", j, Math.round(sales.volume[at + j]));
      series.inventory_sqft[j] = inventorySqft;
      series.inventory_units[j] = inventoryUnits;
      series.deliveries_sqft[j] = pick("deliveries_sqft", j, mk.inventory_sqft === null ? null : Math.round(built.sqft[at + j]));
      series.deliveries_units[j] = pick("deliveries_units", j, mk.inventory_units === null ? null : Math.round(built.units[at + j]));
      series.net_absorption_sqft[j] = pick("net_absorption_sqft", j, absorbed(inventorySqft, prevSqft));
      series.net_absorption_units[j] = pick("net_absorption_units", j, absorbed(inventoryUnits, prevUnits));
    }
    let k = 0;
    for (let j = 0; j < n; j++) {
      values[k++] = mk.rid;
      values[k++] = first + j;
      for (const m of cols) values[k++] = series[m][j];
    }
    insert.run(values);
    gaps.add(mk.asset_type, series);
  });
  return {
    first_period: quarterLabel(first),
    last_period: quarterLabel(last),
    quarters: n,
    markets: markets.length,
    captured_rows: capturedRows,
    gaps: gaps.summary(),
  };
}
