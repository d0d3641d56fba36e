// The coverage report (snapshot_meta `coverage`), computed from the rows: counts per resource,
// per asset type, per state, per listing status and company type, and the known gaps.
import type Database from "better-sqlite3";
import { ASSET_TYPES, COMPANY_TYPES, LISTING_STATUSES } from "../../contract/vocabulary";
import type { AssetCoverage, HistoryCoverage, StateCoverage } from "../../contract/coverage";
import type { FieldCounts } from "./field-counts";
import { knownGaps } from "./gaps";
import { COUNTED_TABLES, type Coverage, type SalesCell } from "./coverage-shape";

export type { Coverage } from "./coverage-shape";
import type { Windows } from "./windows";

type Counted = Record<string, number | string>;

function salesSummary(db: Database.Database, w: Windows): SalesCell[] {
  return db
    .prepare(
      `SELECT asset_type, state_code, COUNT(*) AS n, SUM(cap_rate IS NOT NULL) AS cap, SUM(sale_date > @last24 AND sale_date <= @capture) AS recent
      FROM sales NOT INDEXED GROUP BY asset_type, state_code`,
    )
    .all(w) as SalesCell[];
}

function sum(cells: SalesCell[], keep: (c: SalesCell) => boolean, field: "n" | "cap" | "recent"): number {
  let total = 0;
  for (const c of cells) if (keep(c)) total += c[field];
  return total;
}

function grouped(db: Database.Database, sql: string, key: string, ...params: unknown[]): Map<string, Counted> {
  return new Map((db.prepare(sql).all(...params) as Counted[]).map((r) => [String(r[key]), r]));
}

function byAssetType(db: Database.Database, fields: FieldCounts, sales: SalesCell[]): AssetCoverage[] {
  // Count leases per property first (an index scan), then look up each property's type once.
  const leases = grouped(
    db,
    `SELECT p.asset_type, SUM(c.n) AS n FROM (SELECT property_id, COUNT(*) AS n FROM tenancies GROUP BY property_id) c
    JOIN properties p ON p.id = c.property_id GROUP BY p.asset_type`,
    "asset_type",
  );
  return ASSET_TYPES.map((t) => {
    const p = fields.get(t) ?? {};
    const ofType = (c: SalesCell) => c.asset_type === t;
    return {
      asset_type: t,
      properties: p.n ?? 0,
      sales: sum(sales, ofType, "n"),
      tenancies: Number(leases.get(t)?.n ?? 0),
      with_building_area: p.building_area_sqft ?? 0,
      with_land_area: p.land_area_acres ?? 0,
      with_units: p.units ?? 0,
      with_occupancy: p.occupancy_rate ?? 0,
      with_cap_rate: sum(sales, ofType, "cap"),
    };
  });
}

function byState(db: Database.Database, sales: SalesCell[]): StateCoverage[] {
  const per = (table: string) => grouped(db, `SELECT state_code, COUNT(*) AS n FROM ${table} GROUP BY state_code`, "state_code");
  const tables = { properties: per("properties"), parcels: per("parcels"), listings: per("listings") };
  const states = new Set<string>(sales.map((c) => c.state_code));
  for (const m of Object.values(tables)) for (const k of m.keys()) states.add(k);
  const n = (m: Map<string, Counted>, s: string) => Number(m.get(s)?.n ?? 0);
  return [...states].sort().map((s) => ({
    state_code: s,
    properties: n(tables.properties, s),
    parcels: n(tables.parcels, s),
    listings: n(tables.listings, s),
    sales: sum(sales, (c) => c.state_code === s, "n"),
  }));
}

export function deriveCoverage(
  db: Database.Database,
  w: Windows,
  fields: FieldCounts,
  history: HistoryCoverage,
  buildSeconds: number,
): Coverage {
  const counts = {} as Coverage["counts"];
  for (const t of COUNTED_TABLES) counts[t] = (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
  const status = grouped(db, "SELECT status, COUNT(*) AS n FROM listings GROUP BY status", "status");
  const types = grouped(db, "SELECT company_type, COUNT(*) AS n FROM companies GROUP BY company_type", "company_type");
  const sales = salesSummary(db, w);
  const by_asset_type = byAssetType(db, fields, sales);
  const by_state = byState(db, sales);
  return {
    counts,
    by_asset_type,
    by_state,
    listings_by_status: LISTING_STATUSES.map((s) => ({ status: s, listings: Number(status.get(s)?.n ?? 0) })),
    companies_by_type: COMPANY_TYPES.map((t) => ({ company_type: t, companies: Number(types.get(t)?.n ?? 0) })),
    known_gaps: knownGaps(db, { counts, fields, sales, assets: by_asset_type, states: by_state, history }),
    history,
    build_seconds: Math.round(buildSeconds * 100) / 100,
  };
}
