// Diligence candidates: one row for every commercial property, scored 0..100 from signals in
// the data that suggest a closer look (a possible seller, a value-add play, a risk to price).
// Each signal adds points; the reason codes list the signals that fired, strongest first.
// The formula is documented in docs/snapshot.md ("Diligence score"); keep the two in step.
//
// At a million properties the row handling dominates, so JS reads only the inputs of the score
// (raw rows), keeps the results in a narrow temporary table, and SQLite assembles the full rows.
import type Database from "better-sqlite3";
import { UNIT_TYPES } from "../asset-kinds";
import type { MarketFigures, MarketLookup } from "./markets";
import { roundTo } from "./stats";
import type { Windows } from "./windows";

export interface Signals {
  occupancy: number | null;
  marketOccupancy: number | null;
  rollover: number | null;
  yearsSinceSale: number | null;
  age: number | null;
  rentRatio: number | null;
  marketSales12: number;
}

/** Points per reason code (see docs/snapshot.md); the score is their sum, at most 100. */
export function scoreSignals(s: Signals): { score: number; reasons: string[] } {
  const pts: [string, number][] = [];
  if (s.occupancy !== null && s.marketOccupancy !== null && s.marketOccupancy - s.occupancy >= 0.05) {
    pts.push(["below_market_occupancy", Math.min(30, Math.round((s.marketOccupancy - s.occupancy) * 150))]);
  }
  if (s.rollover !== null && s.rollover >= 0.2) pts.push(["lease_rollover_24m", Math.min(25, Math.round(s.rollover * 35))]);
  if (s.yearsSinceSale !== null && s.yearsSinceSale > 10)
    pts.push(["long_hold", Math.min(20, 8 + Math.round((s.yearsSinceSale - 10) * 1.5))]);
  if (s.yearsSinceSale === null) pts.push(["no_recorded_sale", 8]);
  if (s.age !== null && s.age >= 40) pts.push(["aging_asset", Math.min(15, 5 + Math.round((s.age - 40) / 4))]);
  if (s.rentRatio !== null && s.rentRatio <= 0.85) pts.push(["below_market_rent", Math.min(15, Math.round((1 - s.rentRatio) * 60))]);
  if (s.marketSales12 >= 5) pts.push(["recent_market_sales", Math.min(10, 4 + Math.floor(s.marketSales12 / 10))]);
  pts.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const total = pts.reduce((sum, [, p]) => sum + p, 0);
  return { score: Math.min(100, total), reasons: pts.map(([code]) => code) };
}

/** Whole days since 1970 for YYYY-MM-DD (memoised: sale dates repeat a lot). */
const dayCache = new Map<string, number>();
function dayNumber(date: string): number {
  let d = dayCache.get(date);
  if (d === undefined) dayCache.set(date, (d = Date.parse(`${date}T00:00:00Z`) / 86_400_000));
  return d;
}

type Input = [
  rid: number,
  asset: string,
  state: string,
  metro: string | null,
  occ: number | null,
  rentSqft: number | null,
  rentUnit: number | null,
  lastSale: string | null,
  year: number | null,
  rollover: number | null,
];

export function deriveDiligence(db: Database.Database, w: Windows, markets: MarketLookup): number {
  // Share of leased area (or, without areas, of leases) expiring within 24 months, per property.
  db.exec("DROP TABLE IF EXISTS temp.rollover; DROP TABLE IF EXISTS temp.scores");
  db.prepare(
    `CREATE TEMP TABLE rollover AS SELECT property_id, CASE WHEN SUM(leased_area_sqft) > 0
       THEN SUM(CASE WHEN lease_expiration <= @next24 THEN leased_area_sqft ELSE 0 END) * 1.0 / SUM(leased_area_sqft)
       ELSE SUM(lease_expiration <= @next24) * 1.0 / COUNT(*) END AS share
     FROM tenancies WHERE lease_expiration >= @capture GROUP BY property_id`,
  ).run(w);
  db.exec("CREATE UNIQUE INDEX temp.rollover_property ON rollover (property_id)");
  const inputs = db.prepare(
    `SELECT p.rowid, p.asset_type, p.state_code, p.metro_id, p.occupancy_rate, p.asking_rent_sqft_year, p.asking_rent_unit_month,
       p.last_sale_date, p.year_built, r.share FROM properties p LEFT JOIN rollover r ON r.property_id = p.id ORDER BY p.rowid`,
  );
  const captureDay = dayNumber(w.capture);
  const captureYear = Number(w.capture.slice(0, 4));
  const out: [number, number, string, number | null, number | null, number | null][] = [];
  for (const [rid, asset, state, metro, occ, rentSqft, rentUnit, lastSale, year, rollover] of inputs
    .raw()
    .iterate() as IterableIterator<Input>) {
    // The property's market: its metro for the asset type, else its state.
    const market: MarketFigures | undefined =
      (metro !== null ? markets.metro.get(metro)?.get(asset) : undefined) ?? markets.state.get(state)?.get(asset);
    const unitBased = UNIT_TYPES.has(asset);
    const rent = unitBased ? rentUnit : rentSqft;
    const marketRent = unitBased ? market?.rentUnit : market?.rentSqft;
    const sinceSale = lastSale !== null ? Math.max(0, (captureDay - dayNumber(lastSale)) / 365.25) : null;
    const marketOccupancy = market?.occupancy ?? null;
    const { score, reasons } = scoreSignals({
      occupancy: occ,
      marketOccupancy,
      rollover,
      yearsSinceSale: sinceSale,
      age: year !== null ? captureYear - year : null,
      rentRatio: rent !== null && marketRent ? rent / marketRent : null,
      marketSales12: market?.sales12 ?? 0,
    });
    out.push([
      rid,
      score,
      JSON.stringify(reasons),
      marketOccupancy,
      rollover === null ? null : roundTo(rollover, 4),
      roundTo(sinceSale, 1),
    ]);
  }
  db.exec("CREATE TEMP TABLE scores (rid INTEGER PRIMARY KEY, score INTEGER, reasons TEXT, market_occ REAL, share REAL, years REAL)");
  const put = db.prepare("INSERT INTO scores VALUES (?, ?, ?, ?, ?, ?)");
  for (const r of out) put.run(r);
  const n = db
    .prepare(
      `INSERT INTO diligence (id, object, property_id, property_name, asset_type, subtype, city, state_code, metro_id, owner_id, owner_name,
       score, reason_codes, occupancy_rate, market_occupancy_rate, lease_expiring_24m_share, years_since_last_sale, year_built, estimated_value)
     SELECT 'dil_' || substr(p.id, 4), 'diligence_candidate', p.id, p.name, p.asset_type, p.subtype, p.city, p.state_code, p.metro_id,
       p.owner_id, p.owner_name, s.score, s.reasons, p.occupancy_rate, s.market_occ, s.share, s.years, p.year_built, p.estimated_value
     FROM scores s JOIN properties p ON p.rowid = s.rid ORDER BY s.rid`,
    )
    .run().changes;
  db.exec("DROP TABLE temp.rollover; DROP TABLE temp.scores");
  return n;
}
