// What the market history is computed from, read with SQL: the markets, what completed in each
// market and quarter (one pass over the properties), the sales grouped at the markets' finest
// grain by quarter, captured history (imported snapshots) and the previous snapshot's figures
// (a next month).
import type Database from "better-sqlite3";
import { heldSpan, MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../../contract/history";
import { completionQuarter, parseQuarter, quarterStart } from "../../contract/periods";
import { marketKey, type Group } from "./markets";
import {
  CARRIED,
  groupMarkets,
  MEDIAN_BACK,
  type Captured,
  type CarriedRow,
  type Completions,
  type HistorySalesRow,
  type MarketRow,
  type Span,
} from "./history-series";
import { Mode } from "./stats";
import { historyQuarters, STORED_HISTORY_COLUMNS, type StoredHistory } from "../history-codec";

/** The markets in rowid order (a market's ordinal is its place in this list). */
export function readMarkets(db: Database.Database): MarketRow[] {
  return db
    .prepare(
      `SELECT rowid AS rid, geography_type, geography_id, asset_type, inventory_sqft, inventory_units, vacancy_rate,
        asking_rent_sqft_year, asking_rent_unit_month, median_cap_rate, median_price_per_sqft, median_price_per_unit, property_count
      FROM markets ORDER BY rowid`,
    )
    .all() as MarketRow[];
}

/** Market ordinals by marketKey. */
export function marketOrdinals(markets: readonly MarketRow[]): Map<string, number> {
  return new Map(markets.map((m, i) => [marketKey(m.geography_type, m.geography_id, m.asset_type), i]));
}

/**
 * Deliveries per market and quarter, and (for a model) each market's cycle key: the metro most of
 * its properties are in. One pass over the properties without a GROUP BY (sorting a million rows
 * by six text columns took longer than reading them), grouped here by their geography.
 *
 * A property stands from its completion quarter (its year, the quarter picked by the last
 * character of its id, so a year's completions spread over its quarters the same way in every
 * build; one completed in the capture year after the capture quarter, or later, counts in the
 * capture quarter). Properties with no year_built stand throughout.
 */
export function readCompletions(db: Database.Database, ord: Map<string, number>, span: Span, withKeys: boolean): Completions {
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

/** The columns of a sale the history reads. */
export type HistorySale = Group & {
  sale_date: string;
  sale_price: number;
  cap_rate: number | null;
  price_per_sqft: number | null;
  price_per_unit: number | null;
};

type SalesCell = Group & { q: number; n: number; vol: number; caps: number[]; ppsf: number[]; ppu: number[] };

/**
 * The sales side of the history: sales grouped by the markets' finest grain (city, ZIP, county,
 * state, metro, asset type) and quarter, from MEDIAN_BACK quarters before the span (for the first
 * quarters' medians) to the capture date. Counted in one pass as the sales come, without sorting:
 * from a scan of the table (historySalesRows), or from the rows as a parallel build's worker
 * writes them.
 */
export class HistorySalesTally {
  private readonly from: string;
  private readonly cells = new Map<string, SalesCell>();

  constructor(private readonly capture: string) {
    this.from = quarterStart(heldSpan(capture).first - MEDIAN_BACK);
  }

  add(s: HistorySale): void {
    const date = s.sale_date;
    if (date < this.from || date > this.capture) return;
    const q = Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
    // Rows written by the generator may leave a null column out; the table holds NULL.
    const [metro_id, zip, county_fips] = [s.metro_id ?? null, s.zip ?? null, s.county_fips ?? null];
    const key = `${s.city}|${s.state_code}|${metro_id}|${zip}|${county_fips}|${s.asset_type}|${q}`;
    let c = this.cells.get(key);
    if (!c) {
      const { city, state_code, asset_type } = s;
      this.cells.set(key, (c = { city, state_code, metro_id, zip, county_fips, asset_type, q, n: 0, vol: 0, caps: [], ppsf: [], ppu: [] }));
    }
    c.n++;
    c.vol += s.sale_price;
    if (s.cap_rate != null) c.caps.push(s.cap_rate);
    if (s.price_per_sqft != null) c.ppsf.push(s.price_per_sqft);
    if (s.price_per_unit != null) c.ppu.push(s.price_per_unit);
  }

  rows(): HistorySalesRow[] {
    return Array.from(this.cells.values(), (c) => ({
      ...c,
      caps: Float64Array.from(c.caps),
      ppsf: Float64Array.from(c.ppsf),
      ppu: Float64Array.from(c.ppu),
    }));
  }
}

/** The history's sales rows from the snapshot's sales table (a parallel build's worker counts them as it writes instead). */
export function historySalesRows(db: Database.Database, capture: string): HistorySalesRow[] {
  const tally = new HistorySalesTally(capture);
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type, sale_date, sale_price, cap_rate, price_per_sqft, price_per_unit
    FROM sales`;
  for (const s of db.prepare(sql).iterate() as IterableIterator<HistorySale>) tally.add(s);
  return tally.rows();
}

/** Captured history (imported snapshots) by market ordinal and quarter, inside the span before the last quarter. */
export function readCaptured(db: Database.Database, ord: Map<string, number>, span: Span): { captured: Captured[]; rows: number } {
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

/**
 * One market's CARRIED figures in the snapshot attached as `schema`, quarter by quarter from the
 * span's first up to (not including) its last: read market by market through the primary key,
 * so memory stays flat whatever the number of markets.
 */
export function carriedReader(db: Database.Database, schema: string, span: Span): (mk: MarketRow) => CarriedRow[] {
  const read = db.prepare(
    `SELECT ${STORED_HISTORY_COLUMNS} FROM ${schema}.market_history
     WHERE market = (SELECT rowid FROM ${schema}.markets WHERE geography_type = ? AND geography_id = ? AND asset_type = ?)`,
  );
  return (mk) => {
    const row = read.get(mk.geography_type, mk.geography_id, mk.asset_type) as StoredHistory | undefined;
    if (!row) return [];
    return historyQuarters(row, span.first, span.last - 1).map((q) => [q.quarter, ...CARRIED.map((m) => q[m])] as CarriedRow);
  };
}
