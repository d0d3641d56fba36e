// The properties that change during the month: exactly `share` of them (Knuth's selection
// sampling over the previous snapshot's properties, in their order), each with one event drawn
// from those that apply to it. Every event changes the property's own record, so its stored
// document changes; every other property keeps its row, and so its document, byte for byte.
//
// Events and their weights (among those that apply):
//   sale          12  always: a new sale record, the buyer becomes the owner (sale-event.ts)
//   lease_signed  25  leased types with 200+ sq ft vacant: a new tenancy, occupancy and tenant_count up
//   lease_ended   15  leased types with tenants: a tenancy (one expiring this month if any) ends or
//                     contracts, occupancy down
//   occupancy     35  unit types (apartments, beds, keys): occupancy moves (sd 2.5 points)
//   asking_rent   20  properties with an asking rent: a revision (mean +0.4%, sd 2.5%)
// Each is at most what one event moves of its local market (local-markets.ts), and the month's
// leases are settled per market so that move-ins and move-outs offset (market-leasing.ts).
// Land can only be sold, so it weighs on sales. At the default 5% this sells about 1.3% of
// properties in a month (some 16% a year, as the generator's last twelve months), changes the
// occupancy of about 2.2%, and revises the asking rent of about 1.4% (docs/snapshot.md).
import type { CommercialProperty, Tenancy } from "../../contract/records";
import type { AssetType } from "../../contract/vocabulary";
import { LEASED_TYPES, UNIT_TYPES } from "../asset-kinds";
import { ASSET_PROFILES } from "../generate/asset-profiles";
import { dayOf, isoDate } from "../generate/dates";
import { type Random, Selector } from "../generate/random";
import { TERM_YEARS } from "../generate/tenancies";
import { type NextContext, type NextMonthTallies, countCompany } from "./next-context";
import { LocalMarkets } from "./local-markets";
import { type LeaseEvent, LEAST_LEASE_SQFT, ownSize, settleLeasing } from "./market-leasing";
import { SalePools, sell } from "./sale-event";

type EventKind = keyof NextMonthTallies["by_event"];
const WEIGHTS: Record<EventKind, number> = { sale: 12, lease_signed: 25, lease_ended: 15, occupancy: 35, asking_rent: 20 };

/** Day number of the first day of the month holding `day`. */
export function monthStartOf(day: number): number {
  const d = new Date(day * 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 86_400_000;
}

/** Day number of the first day of the month `months` after the one holding `day`. */
export function monthsAfter(day: number, months: number): number {
  const d = new Date(day * 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1) / 86_400_000;
}

/** Tenant companies that lease each asset type in the previous snapshot: new leases draw from them. */
function tenantsByType(ctx: NextContext): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const rows = ctx.db
    .prepare(
      "SELECT p.asset_type, t.tenant_id FROM prev.tenancies t JOIN prev.properties p ON p.id = t.property_id GROUP BY 1, 2 ORDER BY 1, 2",
    )
    .raw()
    .all() as [string, string][];
  for (const [type, tenant] of rows) (out.get(type) ?? out.set(type, []).get(type)!).push(tenant);
  return out;
}

/** Changes `share` of the properties; returns the listings their sales closed (the listing moves leave those alone). */
export function changeProperties(ctx: NextContext, share: number): Set<string> {
  const rng = ctx.stream("properties");
  const ids = ctx.db.prepare("SELECT id FROM prev.properties ORDER BY rowid").pluck().all() as string[];
  const want = Math.round(share * ids.length);
  const selector = new Selector(want, ids.length);
  const pools = new SalePools(ctx);
  const tenants = tenantsByType(ctx);
  const read = ctx.db.prepare("SELECT * FROM prev.properties WHERE id = ?");
  const leasesOf = ctx.db.prepare("SELECT * FROM prev.tenancies WHERE property_id = ? ORDER BY id");
  // Lease events are drawn here with the others, and applied once the month's leasing is settled per market.
  const leasing: LeaseEvent[] = [];
  const local = new LocalMarkets(ctx);
  for (const id of ids) {
    if (!selector.take(rng)) continue;
    const p = read.get(id) as CommercialProperty;
    const leases = LEASED_TYPES.has(p.asset_type) ? (leasesOf.all(id) as Tenancy[]) : [];
    const kind = pickEvent(rng, p, leases, tenants);
    ctx.tallies.by_event[kind]++;
    ctx.tallies.properties_changed++;
    if (kind === "lease_signed") leasing.push(planSigned(ctx, p, leases, tenants.get(p.asset_type)!, rng, local));
    else if (kind === "lease_ended") leasing.push(planEnded(ctx, p, leases, rng, local));
    else if (kind === "sale") update(ctx, "properties", id, sell(ctx, pools, p, rng));
    else if (kind === "occupancy") update(ctx, "properties", id, { occupancy_rate: moveOccupancy(p, local, rng) });
    else update(ctx, "properties", id, reviseRent(p, local, rng));
  }
  settleLeasing(leasing);
  for (const e of leasing) update(ctx, "properties", e.property.id, e.kind === "lease_signed" ? signLease(ctx, e) : endLease(ctx, e));
  return pools.closedListings;
}

function applies(kind: EventKind, p: CommercialProperty, leases: Tenancy[], tenants: Map<string, string[]>): boolean {
  if (kind === "sale") return true;
  if (kind === "lease_signed") {
    const area = p.building_area_sqft ?? 0;
    return (
      LEASED_TYPES.has(p.asset_type) &&
      ASSET_PROFILES[p.asset_type as AssetType].suiteSqft !== null &&
      p.occupancy_rate !== null &&
      area * (1 - p.occupancy_rate) >= 200 &&
      (tenants.get(p.asset_type)?.length ?? 0) > leases.length
    );
  }
  if (kind === "lease_ended") return leases.length > 0 && p.building_area_sqft !== null;
  if (kind === "occupancy") return UNIT_TYPES.has(p.asset_type) && p.occupancy_rate !== null;
  return p.asking_rent_sqft_year !== null || p.asking_rent_unit_month !== null;
}

function pickEvent(rng: Random, p: CommercialProperty, leases: Tenancy[], tenants: Map<string, string[]>): EventKind {
  const pairs = (Object.keys(WEIGHTS) as EventKind[]).filter((k) => applies(k, p, leases, tenants)).map((k) => [k, WEIGHTS[k]] as const);
  // Never empty: a sale applies to every property.
  return pairs[rng.weightedIndex(pairs.map((x) => x[1]))][0];
}

/** `value` moved by `by` (a fraction of 1 for rates, relative for money), rounded, kept in bounds and never equal to where it started. */
function moved(value: number, by: number, decimals: number, lo = 0, hi = Infinity): number {
  const f = 10 ** decimals;
  let next = Math.round(Math.min(hi, Math.max(lo, value + by)) * f) / f;
  if (next === Math.round(value * f) / f) next = Math.round((value + (value + 1 / f <= hi ? 1 : -1) / f) * f) / f;
  return next;
}

/** `by` kept within ±`most`. */
const within = (by: number, most: number) => Math.max(-most, Math.min(most, by));

/** A unit type's occupancy move (sd 2.5 points), at most what one event moves of its local market. */
function moveOccupancy(p: CommercialProperty, local: LocalMarkets, rng: Random): number {
  return moved(p.occupancy_rate!, within(rng.normal(0, 0.025), local.maxShareOfProperty(p, true)), 3, 0, 1);
}

function reviseRent(p: CommercialProperty, local: LocalMarkets, rng: Random): Partial<CommercialProperty> {
  // A revision moves its market's rent by its weight times the revision: at most what one event moves.
  const most = local.maxShareOfProperty(p, p.asking_rent_sqft_year === null);
  const factor = within(rng.normal(0.004, 0.025), most);
  if (p.asking_rent_sqft_year !== null)
    return { asking_rent_sqft_year: moved(p.asking_rent_sqft_year, p.asking_rent_sqft_year * factor, 2) };
  return { asking_rent_unit_month: moved(p.asking_rent_unit_month!, p.asking_rent_unit_month! * factor, 0) };
}

/** Occupancy and tenant count as the rent roll says (the generator's rule). */
function rentRoll(p: CommercialProperty, leases: { leased_area_sqft: number | null }[]): Partial<CommercialProperty> {
  const sum = leases.reduce((s, l) => s + (l.leased_area_sqft ?? 0), 0);
  return { occupancy_rate: Math.min(1, Math.round((sum / p.building_area_sqft!) * 1000) / 1000), tenant_count: leases.length };
}

/** A new tenancy of a tenant that leases the type, at a suite-sized share of the vacant space (settled later). */
function planSigned(
  ctx: NextContext,
  p: CommercialProperty,
  leases: Tenancy[],
  pool: string[],
  rng: Random,
  local: LocalMarkets,
): LeaseEvent {
  const present = new Set(leases.map((l) => l.tenant_id));
  let tenant = rng.pick(pool);
  while (present.has(tenant)) tenant = rng.pick(pool); // applies() checked that one is free
  const vacant = p.building_area_sqft! * (1 - p.occupancy_rate!);
  const sqft = Math.max(
    LEAST_LEASE_SQFT,
    Math.min(Math.floor(vacant), Math.round(ASSET_PROFILES[p.asset_type as AssetType].suiteSqft! * rng.lognormal(0.6, 0.5))),
  );
  const start = monthStartOf(ctx.day);
  const term = Math.max(12, Math.round(rng.lognormal((TERM_YEARS[p.asset_type as AssetType] ?? 5) * 12, 0.35)));
  const lease: Tenancy = {
    id: ctx.newId("ten"),
    object: "tenancy",
    tenant_id: tenant,
    property_id: p.id,
    suite: null,
    leased_area_sqft: sqft,
    lease_start: isoDate(start),
    lease_expiration: isoDate(monthsAfter(start, term) - 1),
    rent_sqft_year: p.asking_rent_sqft_year === null ? null : Math.round(p.asking_rent_sqft_year * rng.lognormal(1, 0.07) * 100) / 100,
  };
  const e: LeaseEvent = { kind: "lease_signed", property: p, leases, lease, natural: sqft, area: sqft };
  e.natural = e.area = ownSize(e, sqft, local);
  return e;
}

/** A tenancy that ends (one expiring this month if any): its whole area, until settled. */
function planEnded(ctx: NextContext, p: CommercialProperty, leases: Tenancy[], rng: Random, local: LocalMarkets): LeaseEvent {
  const expiring = leases.filter((l) => dayOf(l.lease_expiration) <= ctx.day);
  const lease = rng.pick(expiring.length ? expiring : leases);
  const area = lease.leased_area_sqft ?? 0;
  const e: LeaseEvent = { kind: "lease_ended", property: p, leases, lease, natural: area, area };
  e.natural = e.area = ownSize(e, area, local);
  return e;
}

function signLease(ctx: NextContext, e: LeaseEvent): Partial<CommercialProperty> {
  const lease = { ...e.lease, leased_area_sqft: e.area };
  ctx.w.insert("tenancies", lease);
  countCompany(ctx, lease.tenant_id, 1);
  return rentRoll(e.property, [...e.leases, lease]);
}

/** The tenant leaves, or gives back the settled area and stays when that still moves the property's occupancy. */
function endLease(ctx: NextContext, e: LeaseEvent): Partial<CommercialProperty> {
  const gone = e.lease;
  const kept = (gone.leased_area_sqft ?? 0) - e.area;
  if (kept >= LEAST_LEASE_SQFT) {
    const change = rentRoll(
      e.property,
      e.leases.map((l) => (l === gone ? { leased_area_sqft: kept } : l)),
    );
    if (change.occupancy_rate !== e.property.occupancy_rate) {
      ctx.db.prepare("UPDATE main.tenancies SET leased_area_sqft = ? WHERE id = ?").run(kept, gone.id);
      return change;
    }
  }
  ctx.db.prepare("DELETE FROM main.tenancies WHERE id = ?").run(gone.id);
  countCompany(ctx, gone.tenant_id, -1);
  return rentRoll(
    e.property,
    e.leases.filter((l) => l !== gone),
  );
}

/** Sets some columns of one row of a main table (statements prepared once per set of columns). */
export function update(ctx: NextContext, table: string, id: string, change: Record<string, unknown>): void {
  const cols = Object.keys(change);
  if (!cols.length) return;
  const sql = `UPDATE main.${table} SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`;
  let statement = ctx.statements.get(sql);
  if (!statement) ctx.statements.set(sql, (statement = ctx.db.prepare(sql)));
  statement.run(...Object.values(change), id);
}
