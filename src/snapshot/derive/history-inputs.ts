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
import { marketQuarters, STORED_HISTORY_COLUMNS, type StoredHistory } from "../history-codec";

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

/** The columns of a property completions read. */
export type PropertyColumns = Group & {
  id: string;
  year_built: number | null;
  building_area_sqft: number | null;
  units: number | null;
};

/**
 * What completions read of each property, column by column: its group (the markets' finest
 * grain), the quarter of the span it completed in (-1 when before the span, or without a
 * year_built: it stands throughout), its area and its units. Plain data, so a parallel build
 * can hand it to its worker.
 */
export interface PropertyFacts {
  groups: Group[];
  group: Int32Array<ArrayBuffer>;
  at: Int32Array<ArrayBuffer>;
  area: Float64Array<ArrayBuffer>;
  units: Float64Array<ArrayBuffer>;
}

/**
 * Collects PropertyFacts one property at a time: from a scan of the table (readPropertyFacts),
 * or as a build's generator writes the properties.
 *
 * A property stands from its completion quarter (its year, the quarter picked by the last
 * character of its id, so a year's completions spread over its quarters the same way in every
 * build; one completed in the capture year after the capture quarter, or later, counts in the
 * capture quarter).
 */
export class PropertyFactsBuilder {
  private readonly groupIds = new Map<string, number>();
  private readonly groups: Group[] = [];
  private size = 0;
  private group = new Int32Array(1024);
  private at = new Int32Array(1024);
  private area = new Float64Array(1024);
  private units = new Float64Array(1024);

  constructor(private readonly span: Span) {}

  add(p: PropertyColumns): void {
    const [metro_id, zip, county_fips] = [p.metro_id ?? null, p.zip ?? null, p.county_fips ?? null];
    const key = `${p.city}|${p.state_code}|${metro_id}|${zip}|${county_fips}|${p.asset_type}`;
    let g = this.groupIds.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.groupIds.set(key, g);
      this.groups.push({ city: p.city, state_code: p.state_code, metro_id, zip, county_fips, asset_type: p.asset_type });
    }
    if (this.size === this.group.length) this.grow();
    const q = completionQuarter(p.id, p.year_built ?? null, this.span.last);
    const i = this.size++;
    this.group[i] = g;
    this.at[i] = q === null || q < this.span.first ? -1 : q - this.span.first;
    this.area[i] = p.building_area_sqft ?? 0;
    this.units[i] = p.units ?? 0;
  }

  facts(): PropertyFacts {
    const n = this.size;
    return {
      groups: this.groups,
      group: this.group.slice(0, n),
      at: this.at.slice(0, n),
      area: this.area.slice(0, n),
      units: this.units.slice(0, n),
    };
  }

  private grow(): void {
    const bigger = <T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    this.group = bigger(this.group, (n) => new Int32Array(n));
    this.at = bigger(this.at, (n) => new Int32Array(n));
    this.area = bigger(this.area, (n) => new Float64Array(n));
    this.units = bigger(this.units, (n) => new Float64Array(n));
  }
}

/** Every property's facts, in one pass over the table without a GROUP BY (sorting by six text columns takes longer than reading). */
export function readPropertyFacts(db: Database.Database, span: Span): PropertyFacts {
  const b = new PropertyFactsBuilder(span);
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type, id, year_built, building_area_sqft, units FROM properties`;
  for (const p of db.prepare(sql).iterate() as IterableIterator<PropertyColumns>) b.add(p);
  return b.facts();
}

/**
 * Deliveries per market and quarter (area, units and properties completed), and (for a model)
 * each market's cycle key: the metro most of its properties are in.
 */
export function completionsOf(facts: PropertyFacts, ord: Map<string, number>, span: Span, withKeys: boolean): Completions {
  const sqft = new Float64Array(ord.size * span.n);
  const units = new Float64Array(ord.size * span.n);
  const count = new Float64Array(ord.size * span.n);
  const marketsOf = facts.groups.map((g) => groupMarkets(ord, g));
  const perGroup = new Float64Array(facts.groups.length);
  for (let p = 0; p < facts.group.length; p++) {
    const g = facts.group[p];
    perGroup[g]++;
    const j = facts.at[p];
    if (j < 0) continue;
    for (const i of marketsOf[g]) {
      sqft[i * span.n + j] += facts.area[p];
      units[i * span.n + j] += facts.units[p];
      count[i * span.n + j] += 1;
    }
  }
  const keys: string[] = [];
  if (withKeys) {
    const modes = Array.from({ length: ord.size }, () => new Mode());
    facts.groups.forEach((g, k) => {
      for (const i of marketsOf[k]) modes[i].add(g.metro_id ?? `nonmetro-${g.state_code}`, perGroup[k]);
    });
    for (const m of modes) keys.push(m.value ?? "");
  }
  return { sqft, units, count, keys };
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
  /** Cells by group, then by quarter: rows() gives a group's quarters one after another. */
  private readonly groups = new Map<string, Map<number, SalesCell>>();

  constructor(private readonly capture: string) {
    this.from = quarterStart(heldSpan(capture).first - MEDIAN_BACK);
  }

  add(s: HistorySale): void {
    const date = s.sale_date;
    if (date < this.from || date > this.capture) return;
    const q = Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
    // Rows written by the generator may leave a null column out; the table holds NULL.
    const [metro_id, zip, county_fips] = [s.metro_id ?? null, s.zip ?? null, s.county_fips ?? null];
    const key = `${s.city}|${s.state_code}|${metro_id}|${zip}|${county_fips}|${s.asset_type}`;
    let quarters = this.groups.get(key);
    if (!quarters) this.groups.set(key, (quarters = new Map()));
    let c = quarters.get(q);
    if (!c) {
      const { city, state_code, asset_type } = s;
      quarters.set(q, (c = { city, state_code, metro_id, zip, county_fips, asset_type, q, n: 0, vol: 0, caps: [], ppsf: [], ppu: [] }));
    }
    c.n++;
    c.vol += s.sale_price;
    if (s.cap_rate != null) c.caps.push(s.cap_rate);
    if (s.price_per_sqft != null) c.ppsf.push(s.price_per_sqft);
    if (s.price_per_unit != null) c.ppu.push(s.price_per_unit);
  }

  /** The rows, a group's quarters one after another (rollUpSales finds a group's markets once). */
  rows(): HistorySalesRow[] {
    const out: HistorySalesRow[] = [];
    for (const quarters of this.groups.values()) {
      for (const c of quarters.values()) {
        out.push({ ...c, caps: Float64Array.from(c.caps), ppsf: Float64Array.from(c.ppsf), ppu: Float64Array.from(c.ppu) });
      }
    }
    return out;
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
 * span's first up to (not including) its last, from the market's rows in order (however the previous
 * snapshot divided its quarters into rows): read market by market through the primary key,
 * so memory stays flat whatever the number of markets.
 */
export function carriedReader(db: Database.Database, schema: string, span: Span): (mk: MarketRow) => CarriedRow[] {
  const read = db.prepare(
    `SELECT ${STORED_HISTORY_COLUMNS} FROM ${schema}.market_history
     WHERE market = (SELECT rowid FROM ${schema}.markets WHERE geography_type = ? AND geography_id = ? AND asset_type = ?)
     ORDER BY first_quarter`,
  );
  return (mk) => {
    const rows = read.all(mk.geography_type, mk.geography_id, mk.asset_type) as StoredHistory[];
    return marketQuarters(rows, span.first, span.last - 1).map((q) => [q.quarter, ...CARRIED.map((m) => q[m])] as CarriedRow);
  };
}
