// Known gaps of the snapshot, found by looking at the data (never written by hand): missing
// resources, fields an asset type mostly lacks, thin sales by asset type and state, asset types
// without leases, markets whose rent growth cannot be measured. docs/snapshot.md lists the rules.
import type Database from "better-sqlite3";
import { SNAPSHOT_RESOURCES } from "../../contract/records";
import { ASSET_TYPES, LISTING_STATUSES } from "../../contract/vocabulary";
import { STATE_CODES } from "../state-data";
import type { AssetCoverage, Gap, HistoryCoverage, StateCoverage } from "../../contract/coverage";
import type { Coverage, SalesCell } from "./coverage-shape";
import type { FieldCounts } from "./field-counts";

/** Below these, figures built on the rows are called thin. */
export const THIN_ASSET_SALES_24M = 30;
export const THIN_STATE_SALES_24M = 10;
const FIELD_SHARE = 0.5;
const PROPERTY_FIELDS = ["building_area_sqft", "land_area_acres", "units", "occupancy_rate", "year_built", "subtype", "owner_id"];

const pct = (n: number, d: number) => `${Math.round((100 * n) / d)}%`;

function propertyFieldGaps(fields: FieldCounts): Gap[] {
  const gaps: Gap[] = [];
  for (const [asset, r] of [...fields.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const f of PROPERTY_FIELDS) {
      const n = r[f] ?? 0;
      if (n / r.n >= FIELD_SHARE) continue;
      const detail =
        n === 0
          ? `${f} is not captured for ${asset} properties`
          : `${f} is present for only ${pct(n, r.n)} of ${asset} properties (${n} of ${r.n})`;
      gaps.push({
        resource: "properties",
        asset_type: asset,
        field: f,
        detail: `${detail}; filters and figures that need it are unavailable`,
      });
    }
  }
  return gaps;
}

function salesGaps(sales: SalesCell[], assets: AssetCoverage[]): Gap[] {
  const gaps: Gap[] = [];
  for (const a of assets) {
    if (!a.properties) continue;
    const n = sales.reduce((total, c) => total + (c.asset_type === a.asset_type ? c.recent : 0), 0);
    if (n < THIN_ASSET_SALES_24M) {
      gaps.push({
        resource: "sales",
        asset_type: a.asset_type,
        field: null,
        detail: `only ${n} ${a.asset_type} sales in the 24 months before capture; sale medians are thin`,
      });
    }
    if (a.sales && a.with_cap_rate / a.sales < FIELD_SHARE) {
      gaps.push({
        resource: "sales",
        asset_type: a.asset_type,
        field: "cap_rate",
        detail: `cap rate is reported for ${pct(a.with_cap_rate, a.sales)} of ${a.asset_type} sales`,
      });
    }
  }
  for (const s of STATE_CODES) {
    const n = sales.reduce((total, c) => total + (c.state_code === s ? c.recent : 0), 0);
    if (n < THIN_STATE_SALES_24M)
      gaps.push({ resource: "sales", asset_type: null, field: null, detail: `${s}: only ${n} sales in the 24 months before capture` });
  }
  return gaps;
}

function marketGaps(db: Database.Database, assets: AssetCoverage[]): Gap[] {
  const rows = db
    .prepare("SELECT asset_type, COUNT(*) AS n, SUM(rent_growth_yoy IS NULL) AS missing FROM markets GROUP BY asset_type")
    .all() as { asset_type: string; n: number; missing: number }[];
  const leases = new Map(assets.map((a) => [a.asset_type, a.tenancies]));
  return rows
    .filter((r) => r.missing > 0)
    .map((r) => ({
      resource: "markets",
      asset_type: r.asset_type,
      field: "rent_growth_yoy",
      detail: leases.get(r.asset_type)
        ? `null in ${r.missing} of ${r.n} ${r.asset_type} markets: fewer than 5 leases with a rent started in one of the two 12-month windows`
        : `null in all ${r.n} ${r.asset_type} markets: no lease rents are captured for ${r.asset_type}`,
    }));
}

/**
 * History metrics an asset type's markets mostly lack (half their market-quarters or more). A
 * metric missing in every market-quarter of a type is one the type does not have at all (rent
 * per sq ft of apartments): it is in `history.not_held`, not here.
 */
function historyGaps(history: HistoryCoverage): Gap[] {
  return history.gaps
    .filter((g) => g.missing_periods / g.periods >= FIELD_SHARE)
    .map((g) => ({
      resource: "market_history",
      asset_type: g.asset_type,
      field: g.metric,
      detail:
        `${g.metric} has no figure in ${pct(g.missing_periods, g.periods)} of ${g.asset_type} market-quarters ` +
        `(${g.markets_with_gaps} of ${g.markets} markets have gaps): neither captured nor derivable from the rows there`,
    }));
}

export interface GapInputs {
  history: HistoryCoverage;
  counts: Coverage["counts"];
  fields: FieldCounts;
  sales: SalesCell[];
  assets: AssetCoverage[];
  states: StateCoverage[];
}

export function knownGaps(db: Database.Database, { counts, fields, sales, assets, states, history }: GapInputs): Gap[] {
  const gaps: Gap[] = [];
  for (const r of Object.keys(SNAPSHOT_RESOURCES) as (keyof typeof SNAPSHOT_RESOURCES)[]) {
    if (!counts[r]) gaps.push({ resource: r, asset_type: null, field: null, detail: `no ${r} captured` });
  }
  for (const t of ASSET_TYPES) {
    const a = assets.find((x) => x.asset_type === t)!;
    if (!a.properties) gaps.push({ resource: "properties", asset_type: t, field: null, detail: `no ${t} properties in the snapshot` });
    else if (!a.tenancies)
      gaps.push({
        resource: "tenancies",
        asset_type: t,
        field: null,
        detail: `no leases captured for ${t}; tenant footprints and lease rollover do not cover it`,
      });
  }
  const missingStates = STATE_CODES.filter((s) => !states.some((x) => x.state_code === s && x.properties > 0));
  if (missingStates.length)
    gaps.push({ resource: "properties", asset_type: null, field: null, detail: `no properties in ${missingStates.join(", ")}` });
  const noListings = STATE_CODES.filter((s) => !states.some((x) => x.state_code === s && x.listings > 0));
  if (counts.listings && noListings.length)
    gaps.push({ resource: "listings", asset_type: null, field: null, detail: `no listings in ${noListings.join(", ")}` });
  if (counts.listings) {
    const present = new Set((db.prepare("SELECT DISTINCT status FROM listings").all() as { status: string }[]).map((r) => r.status));
    for (const s of LISTING_STATUSES)
      if (!present.has(s)) gaps.push({ resource: "listings", asset_type: null, field: "status", detail: `no ${s} listings` });
  }
  gaps.push(...propertyFieldGaps(fields), ...salesGaps(sales, assets), ...marketGaps(db, assets), ...historyGaps(history));
  const key = (g: Gap) => [g.resource, g.asset_type ?? "", g.field ?? "", g.detail];
  return gaps.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}
