// Market snapshots computed from the snapshot's own rows, so they describe imported data as
// well as generated data: one row per (the nation, state, county, metro, city or ZIP code) x asset
// type with at least one property. SQLite aggregates each table by (city, ZIP, county, state, metro,
// asset type), the finest grain; JS then rolls those groups up into the six geographies. Medians need the values,
// which come along as group_concat lists (a few per group, never a row per property in JS).
import type Database from "better-sqlite3";
import type { MarketRecord } from "../../contract/records";
import { ASSET_TYPES } from "../../contract/vocabulary";
import { UNIT_TYPES } from "../asset-kinds";
import { cityId, cityName } from "../geo-keys";
import { countyWord } from "../../contract/places";
import { stateName } from "../../contract/states";
import { Mean, median, Mode, roundTo } from "./stats";
import type { Windows } from "./windows";

type GeoType = MarketRecord["geography_type"];

class Acc {
  count = 0;
  sqft = 0;
  sqftN = 0;
  units = 0;
  unitsN = 0;
  occupancy = new Mean();
  rentSqft = new Mean();
  rentUnit = new Mean();
  years: number[] = [];
  states = new Mode();
  names = new Mode();
  caps: number[] = [];
  ppsf: number[] = [];
  ppu: number[] = [];
  sales12 = 0;
  volume12 = 0;
  leaseNow = new Mean();
  leasePrev = new Mean();
  constructor(
    readonly type: GeoType,
    readonly geoId: string,
    readonly asset: string,
  ) {}
}

export interface MarketFigures {
  occupancy: number | null;
  rentSqft: number | null;
  rentUnit: number | null;
  sales12: number;
}

/** State and metro market figures by geography id, then asset type, for the diligence scores. */
export interface MarketLookup {
  state: Map<string, Map<string, MarketFigures>>;
  metro: Map<string, Map<string, MarketFigures>>;
}

export interface Group {
  city: string;
  state_code: string;
  metro_id: string | null;
  zip: string | null;
  county_fips: string | null;
  asset_type: string;
}

/** The id of the one national market's geography. */
export const NATIONAL_ID = "US";

/** The six geographies a group of rows lies in (fewer when its metro, county or ZIP is unknown). */
export function geographiesOf(g: Group): [GeoType, string][] {
  const geos: [GeoType, string | null][] = [
    ["national", NATIONAL_ID],
    ["state", g.state_code],
    ["county", g.county_fips],
    ["metro", g.metro_id],
    ["city", cityId(g.city, g.state_code)],
    ["zip", g.zip],
  ];
  return geos.filter((x): x is [GeoType, string] => x[1] !== null);
}

/** How the derivations key a market: geography type, geography id and asset type. */
export const marketKey = (type: string, geoId: string, asset: string) => `${type}|${geoId}|${asset}`;

class Markets {
  readonly accs = new Map<string, Acc>();

  /** The accumulators of a group's geographies; `create` is false for sales and leases (no property, no market). */
  of(g: Group, create: boolean): Acc[] {
    const out: Acc[] = [];
    for (const [type, id] of geographiesOf(g)) {
      const key = marketKey(type, id, g.asset_type);
      let acc = this.accs.get(key);
      if (!acc && create) this.accs.set(key, (acc = new Acc(type, id, g.asset_type)));
      if (acc) out.push(acc);
    }
    return out;
  }
}

function pushAll(into: number[], list: string | null): void {
  if (list) for (const v of list.split(",")) into.push(Number(v));
}

// Weighted sums for a value column: the weighted mean needs rows that have both value and weight.
const weighted = (v: string, w: string, as: string) =>
  `SUM(CASE WHEN ${w} > 0 THEN ${v} * ${w} END) AS ${as}_ws, SUM(CASE WHEN ${v} IS NOT NULL AND ${w} > 0 THEN ${w} END) AS ${as}_w, SUM(${v}) AS ${as}_s, COUNT(${v}) AS ${as}_n`;

type Sums = Record<string, number | null>;
const addSums = (m: Mean, r: Sums, as: string) => m.addSums(r[`${as}_ws`] ?? 0, r[`${as}_w`] ?? 0, r[`${as}_s`] ?? 0, r[`${as}_n`] ?? 0);

function readProperties(db: Database.Database, m: Markets): void {
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type, MAX(metro_name) AS metro_name, MAX(county) AS county, COUNT(*) AS n,
      SUM(building_area_sqft) AS sqft, COUNT(building_area_sqft) AS sqft_n, SUM(units) AS units, COUNT(units) AS units_n,
      ${weighted("occupancy_rate", "units", "occ_u")}, ${weighted("occupancy_rate", "building_area_sqft", "occ_a")},
      ${weighted("asking_rent_sqft_year", "building_area_sqft", "rent_a")}, ${weighted("asking_rent_unit_month", "units", "rent_u")},
      group_concat(year_built) AS years
    FROM properties GROUP BY city, state_code, metro_id, zip, county_fips, asset_type`;
  type Row = Group & Sums & { metro_name: string | null; county: string | null; years: string | null };
  for (const r of db.prepare(sql).iterate() as IterableIterator<Row>) {
    for (const a of m.of(r, true)) {
      a.count += r.n!;
      a.sqft += r.sqft ?? 0;
      a.sqftN += r.sqft_n!;
      a.units += r.units ?? 0;
      a.unitsN += r.units_n!;
      // Unit-based types weigh occupancy by units, the others by building area.
      addSums(a.occupancy, r, UNIT_TYPES.has(r.asset_type) ? "occ_u" : "occ_a");
      addSums(a.rentSqft, r, "rent_a");
      addSums(a.rentUnit, r, "rent_u");
      pushAll(a.years, r.years);
      a.states.add(r.state_code, r.n!);
      a.names.add(a.type === "metro" ? r.metro_name : a.type === "city" ? r.city : a.type === "county" ? r.county : null, r.n!);
    }
  }
}

/** Recent sales grouped by (city, ZIP, county, state, metro, asset type): what markets take from the sales table. */
export type SalesGroup = Group & { caps: string | null; ppsf: string | null; ppu: string | null; n12: number; vol12: number };

/**
 * The sales side of the markets, as rows. Exported because a parallel build keeps the sales table
 * in the worker's part file until the end: the worker runs this there and hands the groups over.
 */
export function salesGroups(db: Database.Database, w: Windows): SalesGroup[] {
  const sql = `SELECT city, state_code, metro_id, zip, county_fips, asset_type, group_concat(cap_rate) AS caps, group_concat(price_per_sqft) AS ppsf,
      group_concat(price_per_unit) AS ppu, SUM(sale_date > @last12) AS n12, SUM(CASE WHEN sale_date > @last12 THEN sale_price ELSE 0 END) AS vol12
    FROM sales WHERE sale_date > @last24 AND sale_date <= @capture GROUP BY city, state_code, metro_id, zip, county_fips, asset_type`;
  return db.prepare(sql).all(w) as SalesGroup[];
}

function readSales(m: Markets, groups: SalesGroup[]): void {
  for (const r of groups) {
    for (const a of m.of(r, false)) {
      pushAll(a.caps, r.caps);
      pushAll(a.ppsf, r.ppsf);
      pushAll(a.ppu, r.ppu);
      a.sales12 += r.n12;
      a.volume12 += r.vol12;
    }
  }
}

function readLeases(db: Database.Database, m: Markets, w: Windows): void {
  // Leases that started in the last 12 months against the 12 before: the market's rent trend.
  const sql = `SELECT p.city, p.state_code, p.metro_id, p.zip, p.county_fips, p.asset_type,
      SUM(t.lease_start > @last12) AS n_now, SUM(CASE WHEN t.lease_start > @last12 THEN t.rent_sqft_year END) AS s_now,
      SUM(t.lease_start <= @last12) AS n_prev, SUM(CASE WHEN t.lease_start <= @last12 THEN t.rent_sqft_year END) AS s_prev
    FROM tenancies t JOIN properties p ON p.id = t.property_id
    WHERE t.rent_sqft_year IS NOT NULL AND t.lease_start > @prev12 AND t.lease_start <= @capture
    GROUP BY p.city, p.state_code, p.metro_id, p.zip, p.county_fips, p.asset_type`;
  type Row = Group & { n_now: number; s_now: number | null; n_prev: number; s_prev: number | null };
  for (const r of db.prepare(sql).iterate(w) as IterableIterator<Row>) {
    for (const a of m.of(r, false)) {
      a.leaseNow.addSums(0, 0, r.s_now ?? 0, r.n_now);
      a.leasePrev.addSums(0, 0, r.s_prev ?? 0, r.n_prev);
    }
  }
}

const MIN_LEASES = 5;
const GEO_ORDER: Record<GeoType, number> = { national: 0, state: 1, county: 2, metro: 3, city: 4, zip: 5 };

/** A metro named "Austin, TX metro" belongs to TX; otherwise to the state most of its properties are in. */
function metroState(a: Acc): string {
  const m = / ([A-Z]{2}) metro$/.exec(a.names.value ?? "");
  return m ? m[1] : a.states.value!;
}

/** How the market names its geography: "United States", "Texas", "Travis County, TX", "Austin, TX metro", "Austin, TX", "78704". */
function geographyName(a: Acc, state: string): string {
  switch (a.type) {
    case "national":
      return "United States";
    case "state":
      return stateName(a.geoId);
    case "county":
      return `${a.names.value ?? a.geoId} ${countyWord(state)}, ${state}`;
    case "city":
      return cityName(a.names.value ?? a.geoId, state);
    case "metro":
      return a.names.value ?? a.geoId;
    case "zip":
      return a.geoId;
  }
}

function toRow(a: Acc, asOf: string): MarketRecord {
  const occupancy = roundTo(a.occupancy.value, 4);
  // The nation lies in no one state.
  const state = a.type === "national" ? null : a.type === "state" ? a.geoId : a.type === "metro" ? metroState(a) : a.states.value!;
  const name = geographyName(a, state ?? "");
  // County FIPS codes and ZIP codes are both five digits: their market ids say which.
  const idPart = a.type === "county" || a.type === "zip" ? `${a.type}-${a.geoId}` : a.geoId;
  const [now, prev] = [a.leaseNow.value, a.leasePrev.value];
  const growth = a.leaseNow.count >= MIN_LEASES && a.leasePrev.count >= MIN_LEASES && prev ? roundTo(now! / prev - 1, 4) : null;
  const year = median(a.years);
  return {
    id: `mkt_${idPart}_${a.asset}`,
    object: "market_snapshot",
    geography_type: a.type,
    geography_id: a.geoId,
    geography_name: name,
    state_code: state,
    asset_type: a.asset as MarketRecord["asset_type"],
    as_of: asOf,
    property_count: a.count,
    inventory_sqft: a.sqftN ? Math.round(a.sqft) : null,
    inventory_units: a.unitsN ? Math.round(a.units) : null,
    occupancy_rate: occupancy,
    vacancy_rate: occupancy === null ? null : roundTo(1 - occupancy, 4),
    asking_rent_sqft_year: roundTo(a.rentSqft.value, 2),
    asking_rent_unit_month: roundTo(a.rentUnit.value, 0),
    rent_growth_yoy: growth,
    median_cap_rate: roundTo(median(a.caps), 4),
    sales_count_12m: a.sales12,
    sales_volume_12m: Math.round(a.volume12),
    median_price_per_sqft: roundTo(median(a.ppsf), 2),
    median_price_per_unit: roundTo(median(a.ppu), 0),
    median_year_built: year === null ? null : Math.round(year),
  };
}

export function deriveMarkets(
  db: Database.Database,
  w: Windows,
  insert: (row: MarketRecord) => void,
  sales: SalesGroup[] = salesGroups(db, w),
): MarketLookup {
  const m = new Markets();
  readProperties(db, m);
  readSales(m, sales);
  readLeases(db, m, w);
  const assetOrder = new Map<string, number>(ASSET_TYPES.map((t, i) => [t, i]));
  const accs = [...m.accs.values()].sort(
    (x, y) =>
      GEO_ORDER[x.type] - GEO_ORDER[y.type] ||
      (x.geoId < y.geoId ? -1 : x.geoId > y.geoId ? 1 : 0) ||
      assetOrder.get(x.asset)! - assetOrder.get(y.asset)!,
  );
  const lookup: MarketLookup = { state: new Map(), metro: new Map() };
  for (const a of accs) {
    const row = toRow(a, w.capture);
    insert(row);
    if (a.type !== "state" && a.type !== "metro") continue;
    const byAsset = lookup[a.type].get(a.geoId) ?? new Map<string, MarketFigures>();
    lookup[a.type].set(a.geoId, byAsset);
    byAsset.set(a.asset, {
      occupancy: row.occupancy_rate,
      rentSqft: row.asking_rent_sqft_year,
      rentUnit: row.asking_rent_unit_month,
      sales12: row.sales_count_12m,
    });
  }
  return lookup;
}
