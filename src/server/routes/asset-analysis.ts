// GET /v1/commercial/assets/{asset_type}/analysis: aggregate figures of one asset type,
// nationally or in a place (state, county, metro, city or ZIP code), with breakdowns by
// subtype, class and (nationally) state. Computed on
// first request and kept: the snapshot never changes under a running service.
import { isNational } from "../../contract/places";
import { AssetAnalysis, type AssetBreakdown } from "../../contract/responses";
import type { CommercialProperty, SaleComp } from "../../contract/records";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import type { SnapshotContext } from "../data/snapshot-context";
import { Where } from "../data/sql-where";
import { median, round } from "../data/stats";
import { wherePlace } from "../data/place-filter";
import type { ResolvedPlace } from "../data/place-resolver";
import type { PlaceKind } from "../../contract/places";
import { assetTypeParam } from "./properties";
import { queryPlaces } from "./place-params";

const cache = new WeakMap<SnapshotContext, Map<string, AssetAnalysis>>();

/** A breakdown's row as SQLite returns it: the key is the group's value, which may be missing. */
type BreakdownRow = Omit<AssetBreakdown, "key"> & { key: string | number | null };

function breakdown(snapshot: SnapshotContext, column: string, w: Where): AssetBreakdown[] {
  return snapshot
    .all<BreakdownRow>(
      `SELECT ${column} AS key, count(*) AS property_count, sum(building_area_sqft) AS building_area_sqft, sum(units) AS units,
        sum(occupancy_rate * coalesce(units, building_area_sqft, 1)) / sum(CASE WHEN occupancy_rate IS NULL THEN NULL ELSE coalesce(units, building_area_sqft, 1) END) AS occupancy_rate
       FROM properties${w.sql} GROUP BY ${column} ORDER BY property_count DESC, key`,
      w.params,
    )
    .filter((r) => r.key !== null)
    .map((r) => ({ ...r, key: String(r.key), occupancy_rate: round(r.occupancy_rate, 4) }));
}

/** Most specific first: the kind an analysis over several places is said to cover. */
const SPECIFICITY: PlaceKind[] = ["zip", "city", "county", "metro", "state"];

type PropertyFigures = Pick<CommercialProperty, "building_area_sqft" | "units" | "year_built" | "occupancy_rate">;
type SaleFigures = Pick<SaleComp, "sale_date" | "sale_price" | "cap_rate" | "price_per_sqft" | "price_per_unit">;

function analyse(snapshot: SnapshotContext, assetType: string, places: ResolvedPlace[]): AssetAnalysis {
  const w = new Where().add("asset_type = ?", assetType);
  // Properties and sales name their geography columns alike.
  for (const place of places)
    wherePlace(w, place, { state: "state_code", city: "city", zip: "zip", county: "county_fips", metro: "metro_id" });
  const main = places.slice().sort((a, b) => SPECIFICITY.indexOf(a.kind) - SPECIFICITY.indexOf(b.kind))[0];
  const props = snapshot.all<PropertyFigures>(
    `SELECT building_area_sqft, units, year_built, occupancy_rate FROM properties${w.sql}`,
    w.params,
  );
  const asOf = new Date(snapshot.asOf);
  const back = (months: number) => new Date(asOf.getTime() - months * 30.44 * 86_400_000).toISOString().slice(0, 10);
  const sales = snapshot.all<SaleFigures>(
    `SELECT sale_date, sale_price, cap_rate, price_per_sqft, price_per_unit FROM sales${w.sql} AND sale_date >= ?`,
    [...w.params, back(24)],
  );
  const recent = sales.filter((s) => s.sale_date >= back(12));
  const nums = <T, F extends keyof T>(rows: T[], f: F) => rows.map((r) => r[f]).filter((v): v is T[F] & number => typeof v === "number");
  const weight = (p: PropertyFigures) => p.units ?? p.building_area_sqft ?? 1;
  const occ = props.filter((p) => p.occupancy_rate !== null);
  const occWeight = occ.reduce((s, p) => s + weight(p), 0);
  const sum = (f: keyof PropertyFigures) => (nums(props, f).length ? nums(props, f).reduce((a, b) => a + b, 0) : null);
  return {
    object: "asset_analysis",
    asset_type: assetType,
    geography_type: main?.kind ?? "national",
    geography_id: main?.entries[0].code ?? null,
    as_of: snapshot.asOf,
    property_count: props.length,
    total_building_area_sqft: sum("building_area_sqft"),
    total_units: sum("units"),
    median_building_area_sqft: median(nums(props, "building_area_sqft")),
    median_year_built: median(nums(props, "year_built")),
    occupancy_rate: occWeight ? round(occ.reduce((s, p) => s + (p.occupancy_rate ?? 0) * weight(p), 0) / occWeight, 4) : null,
    median_cap_rate: round(median(nums(sales, "cap_rate")), 4),
    median_price_per_sqft: round(median(nums(sales, "price_per_sqft")), 2),
    median_price_per_unit: round(median(nums(sales, "price_per_unit")), 0),
    sales_count_12m: recent.length,
    sales_volume_12m: nums(recent, "sale_price").reduce((a, b) => a + b, 0),
    by_subtype: breakdown(snapshot, "subtype", w),
    by_building_class: breakdown(snapshot, "building_class", w),
    by_state: main ? [] : breakdown(snapshot, "state_code", w),
  };
}

export const assetAnalysisRoute = defineRoute(OPERATIONS.analyseAssetType, {
  handler: ({ snapshot, params, query }) => {
    const assetType = assetTypeParam(params.asset_type);
    // The whole country ("US", "United States") is the national analysis, as no geography is.
    const national = isNational(query.geography);
    const places = queryPlaces(snapshot, "analyseAssetType", national ? { ...query, geography: undefined } : query, { single: true });
    const key = `${assetType}|${places.map((p) => `${p.kind}:${p.entries[0].code}`).join("|")}`;
    let memo = cache.get(snapshot);
    if (!memo) cache.set(snapshot, (memo = new Map()));
    let analysis = memo.get(key);
    if (!analysis) memo.set(key, (analysis = analyse(snapshot, assetType, places)));
    return analysis;
  },
});
