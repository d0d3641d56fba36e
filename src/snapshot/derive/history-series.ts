// The market history's series maths: from one market's snapshot figures, its deliveries, its
// sales and (for a generated snapshot) the model's moves, the figures of every quarter of the
// span. Pure functions over arrays; reading the inputs is history-inputs.ts, storing the rows
// history-rows.ts.
//
// - Stocks (inventory, and the count of properties standing) run back from today's figure by
//   taking off each quarter's deliveries.
// - Sales count and volume are the sales recorded in each quarter (to the capture date in the
//   last); medians are of the sales in the 24 months to the quarter's end.
// - Rents and vacancy before today come from the model's moves, or from captured history
//   (imported), or from the previous snapshot (a next month); with none of them they are null.
// - Net absorption is the change in occupied area (units) between quarter ends, occupied being
//   inventory x (1 - vacancy).
// - The quarter holding the capture date takes the market snapshot's figures.
import { MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../../contract/history";
import type { AssetType } from "../../contract/vocabulary";
import { geographiesOf, marketKey, type Group } from "./markets";
import { WindowMedians, type ValueCell } from "./history-medians";
import { roundTo } from "./stats";

/** How rents and vacancy moved before the capture date, per market key (a metro, or `nonmetro-<state>`). */
export interface HistoryModel {
  /** Log asking rent on a date (YYYY-MM-DD), up to a constant. */
  logRent(key: string, asset: AssetType, date: string): number;
  /** Vacancy on a date, up to a constant. */
  vacancy(key: string, asset: AssetType, date: string): number;
}

/** The quarters before a quarter whose sales its 24-month medians take in. */
export const MEDIAN_BACK = 7;

/** The quarters of the history, first to last (the quarter holding the capture date). */
export class Span {
  readonly n: number;
  constructor(
    readonly first: number,
    readonly last: number,
  ) {
    this.n = last - first + 1;
  }
}

/** A market as the history reads it: its row id and its snapshot figures. */
export interface MarketRow {
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

/**
 * What completed per market (by ordinal) and quarter of the span, market by market: area,
 * units and properties; and each market's cycle key (the metro most of its properties are in),
 * when a model needs it.
 */
export interface Completions {
  sqft: Float64Array<ArrayBuffer>;
  units: Float64Array<ArrayBuffer>;
  count: Float64Array<ArrayBuffer>;
  keys: string[];
}

/** Sales by (city, ZIP, county, state, metro, asset type) and quarter, as market history reads them. */
export type HistorySalesRow = Group & {
  q: number;
  n: number;
  vol: number;
  /** The sales' cap rates, prices per sq ft and per unit (those they have). */
  caps: Float64Array;
  ppsf: Float64Array;
  ppu: Float64Array;
};

/** Captured figures (imported history) of one market, by quarter. */
export type Captured = Map<number, Partial<Record<MarketHistoryMetric, number | null>>>;

/** What a next month keeps from the previous snapshot: the modelled metrics and the absorption that follows from them. */
export const CARRIED: readonly MarketHistoryMetric[] = [
  "asking_rent_sqft_year",
  "asking_rent_unit_month",
  "vacancy_rate",
  "net_absorption_sqft",
  "net_absorption_units",
];

/** One quarter of a market's CARRIED figures in the previous snapshot. */
export type CarriedRow = [quarter: number, ...figures: (number | null)[]];

/** One market's figures, metric by metric, quarter by quarter across the span. */
export type Series = Record<MarketHistoryMetric, (number | null)[]>;

export function newSeries(n: number): Series {
  const series = {} as Series;
  for (const m of MARKET_HISTORY_METRIC_NAMES) series[m] = new Array<number | null>(n);
  return series;
}

/** The ordinals of the markets a group of rows lies in (by `ord`, markets keyed by marketKey). */
export function groupMarkets(ord: Map<string, number>, g: Group): number[] {
  const out: number[] = [];
  for (const [type, id] of geographiesOf(g)) {
    const i = ord.get(marketKey(type, id, g.asset_type));
    if (i !== undefined) out.push(i);
  }
  return out;
}

/** Sales per market and quarter, and the windows their medians are taken over. */
export interface MarketSales {
  count: Float64Array<ArrayBuffer>;
  volume: Float64Array;
  cap: WindowMedians;
  ppsf: WindowMedians;
  ppu: WindowMedians;
}

const sameGroup = (a: Group, b: Group) =>
  a.city === b.city &&
  a.state_code === b.state_code &&
  a.metro_id === b.metro_id &&
  a.zip === b.zip &&
  a.county_fips === b.county_fips &&
  a.asset_type === b.asset_type;

/** Rolls the sales rows up into every market they belong to. */
export function rollUpSales(ord: Map<string, number>, span: Span, rows: readonly HistorySalesRow[]): MarketSales {
  const count = new Float64Array(ord.size * span.n);
  const volume = new Float64Array(ord.size * span.n);
  const cells: Record<"caps" | "ppsf" | "ppu", ValueCell[]> = { caps: [], ppsf: [], ppu: [] };
  const base = span.first - MEDIAN_BACK;
  let prev: HistorySalesRow | null = null;
  let markets: number[] = [];
  for (const r of rows) {
    // Rows of a group come one after another: its markets are found once.
    if (!prev || !sameGroup(prev, r)) markets = groupMarkets(ord, r);
    prev = r;
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
      const values = r[m];
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

/** The model's moves from the capture date to each quarter's end, and last to the end of the quarter before the span. */
export interface Moves {
  rent: Float64Array;
  vacancy: Float64Array;
}

/**
 * The model's moves, once per market key and asset type (markets share them). `ends` are the
 * dates the moves run to: each quarter's end (the capture date for the last), then the end of
 * the quarter before the span.
 */
export function movesOf(model: HistoryModel, capture: string, ends: readonly string[]): (key: string, asset: AssetType) => Moves {
  const moves = new Map<string, Moves>();
  return (key, asset) => {
    let m = moves.get(`${key}|${asset}`);
    if (!m) {
      const rent0 = model.logRent(key, asset, capture);
      const vacancy0 = model.vacancy(key, asset, capture);
      m = {
        rent: Float64Array.from(ends, (d) => model.logRent(key, asset, d) - rent0),
        vacancy: Float64Array.from(ends, (d) => model.vacancy(key, asset, d) - vacancy0),
      };
      moves.set(`${key}|${asset}`, m);
    }
    return m;
  };
}

const round = (x: number | null, digits = 0) => (x === null ? null : roundTo(x, digits));
const clampRate = (x: number) => Math.min(0.95, Math.max(0, x));

/** Fills `out` with a stock running back from `now` by each quarter's `deliveries`; returns the stock before the span. */
export function runBack(out: (number | null)[], now: number | null, deliveries: Float64Array, at: number, n: number): number | null {
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
export function absorption(
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

/** Writes the carried figures of the metrics `which` picks over the series. */
function applyCarried(rows: readonly CarriedRow[], first: number, series: Series, which: (m: string) => boolean) {
  for (const [q, ...figures] of rows) CARRIED.forEach((m, c) => which(m) && (series[m][q - first] = figures[c]));
}

/** Everything one market's series is computed from. */
export interface MarketInputs {
  span: Span;
  /** The market's ordinal in `built` and `sales`. */
  i: number;
  mk: MarketRow;
  built: Completions;
  sales: MarketSales;
  /** The model's moves for this market, or null without a model. */
  moved: Moves | null;
  /** Captured figures by quarter (imported), if any. */
  given?: Captured;
  /** The previous snapshot's figures (a next month), if any. */
  carried?: readonly CarriedRow[];
}

/** Fills `series` with one market's figures for every quarter of the span. */
export function marketSeries(series: Series, inputs: MarketInputs): void {
  const { span, i, mk, built, sales, moved, given } = inputs;
  const { n, first } = span;
  const at = i * n;
  const carried = inputs.carried ?? [];
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
  const cols = MARKET_HISTORY_METRIC_NAMES;
  if (given) for (const [q, figures] of given) for (const m of cols) if (figures[m] !== undefined) series[m][q - first] = figures[m]!;
  // Rents and vacancy first (the last quarter's absorption reads the vacancy before it), absorption after.
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
}
