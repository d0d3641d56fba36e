// The rent roll of a leased property: the occupied area is split among distinct tenant
// companies in suites of varied size, and the property's occupancy is recomputed from the
// leases so the two always agree. Leases start on the first of a month; older leases carry
// lower rents, following the market's rent trend, which is what market rent growth measures.
import type { Tenancy } from "../../contract/records";
import type { AssetType } from "../../contract/vocabulary";
import { LEASED_TYPES } from "../asset-kinds";
import { ASSET_PROFILES } from "./asset-profiles";
import { drawTenant, type CompanyRec } from "./companies";
import type { GenContext } from "./context";
import { isoDate } from "./dates";
import type { PropertyDraft } from "./properties";

/** Median lease term in years by type (log-normal around it). */
export const TERM_YEARS: Partial<Record<AssetType, number>> = {
  office: 5.5,
  retail: 7,
  industrial: 5,
  flex: 4,
  "health-care": 8,
  specialty: 12,
  "sports-and-entertainment": 12,
};
const ANCHORED = new Set(["grocery-anchored", "neighborhood-center", "power-center", "regional-mall"]);

const MONTH_START = new Map<number, number>();
/** Day number of the first day of month `m` (months since January 1970). */
function monthStart(m: number): number {
  let d = MONTH_START.get(m);
  if (d === undefined) {
    d = Date.UTC(1970, m, 1) / 86_400_000;
    MONTH_START.set(m, d);
  }
  return d;
}

function suiteLabel(asset: AssetType, i: number, k: number, floorMax: number): string | null {
  if (asset === "office" || asset === "health-care") return `Suite ${(1 + (i % floorMax)) * 100 + 10 * Math.floor(i / floorMax) + 10}`;
  if (asset === "retail") return `Unit ${String.fromCharCode(65 + (Math.floor(i / 9) % 26))}${(i % 9) + 1}`;
  if (k > 1) return `Bay ${i + 1}`;
  return null;
}

export function makeTenancies(ctx: GenContext, d: PropertyDraft, nextId: () => string): { rows: Tenancy[]; tenants: CompanyRec[] } {
  const { rng, captureDay, captureMonth } = ctx;
  const row = d.row;
  const asset = row.asset_type;
  const p = ASSET_PROFILES[asset];
  const area = row.building_area_sqft;
  if (!LEASED_TYPES.has(asset) || !p.suiteSqft || !area || !row.occupancy_rate) return { rows: [], tenants: [] };

  const leased = area * row.occupancy_rate;
  const k = Math.max(1, Math.min(p.maxTenants, Math.round((leased / p.suiteSqft) * rng.lognormal(1, 0.4))));
  const weights: number[] = [];
  for (let i = 0; i < k; i++) weights.push(rng.lognormal(1, 0.8) * (i === 0 && ANCHORED.has(row.subtype ?? "") ? 5 : 1));
  const total = weights.reduce((a, b) => a + b, 0);

  const builtMonth = row.year_built !== null ? (row.year_built - 1970) * 12 : -Infinity;
  const growth = d.market.rentGrowth[asset];
  const rows: Tenancy[] = [];
  const tenants: CompanyRec[] = [];
  const seen = new Set<string>();
  let sum = 0;
  for (let i = 0; i < k; i++) {
    let t = drawTenant(ctx.pools, asset, rng);
    for (let tries = 0; t && seen.has(t.id) && tries < 4; tries++) t = drawTenant(ctx.pools, asset, rng);
    if (!t || seen.has(t.id)) continue;
    seen.add(t.id);
    const sqft = Math.max(200, Math.round((leased * weights[i]) / total));
    const anchor = i === 0 && ANCHORED.has(row.subtype ?? "");
    const termMonths = Math.max(12, Math.round(rng.lognormal((anchor ? 15 : (TERM_YEARS[asset] ?? 5)) * 12, 0.35)));
    let start = Math.max(captureMonth - rng.int(0, termMonths - 1), builtMonth);
    let end = start + termMonths;
    if (monthStart(end) <= captureDay) end = captureMonth + rng.int(1, 36); // renewed past the capture date
    start = Math.min(start, captureMonth);
    const yearsAgo = (captureDay - monthStart(start)) / 365.25;
    const rent =
      row.asking_rent_sqft_year === null || rng.chance(0.1)
        ? null
        : Math.round(row.asking_rent_sqft_year * Math.pow(1 + growth, -yearsAgo) * (anchor ? 0.55 : 1) * rng.lognormal(1, 0.07) * 100) /
          100;
    rows.push({
      id: nextId(),
      object: "tenancy",
      tenant_id: t.id,
      property_id: row.id,
      suite: suiteLabel(asset, i, k, Math.max(1, row.stories ?? 1)),
      leased_area_sqft: sqft,
      lease_start: isoDate(monthStart(start)),
      lease_expiration: isoDate(monthStart(end) - 1),
      rent_sqft_year: rent,
    });
    tenants.push(t);
    sum += sqft;
  }
  // Occupancy is what the rent roll says it is.
  row.occupancy_rate = rows.length ? Math.min(1, Math.round((sum / area) * 1000) / 1000) : 0;
  row.tenant_count = rows.length;
  return { rows, tenants };
}
