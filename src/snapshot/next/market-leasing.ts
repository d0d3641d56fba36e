// The month's leasing in leased types (industrial, office, retail...): leases signed and leases
// ended, settled per market so that move-ins and move-outs offset, as in a real market, where
// most of a month's gross leasing is tenants moving between buildings and net absorption is a
// small share of the stock.
//
// Each lease event is first planned at its own size (property-events.ts draws it with the
// property's other facts): a signed lease takes a suite-sized area of the vacant space, an ended
// lease frees its whole area, either at most what one event moves of its local market
// (local-markets.ts). Then the events are settled market by market, narrowest first: within a
// metro (or a state's area outside metros), then a state, then the country, per asset type. In
// a market with both kinds, the larger side is scaled down to the smaller: signed leases take
// less space, and an ended lease becomes a contraction (the tenant gives back part of its space
// and stays) unless what it keeps would be under 200 sq ft. A market with one kind only passes
// its events to the next wider market; what no market offsets keeps its own size.
//
// Drawn building by building and applied as drawn, ended leases (which apply to every building
// with tenants) would free more space than signed leases (which need a building with room) take,
// and vacancy would rise month after month in every leased type.
import type { CommercialProperty, Tenancy } from "../../contract/records";
import { type LocalMarkets, localMarketOf } from "./local-markets";

/** The least area a tenant keeps after giving back space, and the least a new lease takes. */
export const LEAST_LEASE_SQFT = 200;

export interface LeaseEvent {
  kind: "lease_signed" | "lease_ended";
  property: CommercialProperty;
  /** The property's tenancies before the event. */
  leases: Tenancy[];
  /** Signed: the new tenancy; ended: the tenancy that ends or gives back space. */
  lease: Tenancy;
  /** The area the event takes (signed) or frees (ended) on its own (ownSize), sq ft. */
  natural: number;
  /** The area it takes or frees once settled, sq ft (set by settleLeasing). */
  area: number;
}

/** A property's market at each width, narrowest first: metro (or the state outside metros), state, country. */
function marketsOf(p: CommercialProperty): string[] {
  return [localMarketOf(p), `${p.asset_type}|state-${p.state_code}`, p.asset_type];
}

/** The least an event can take or free and still change its property's record. */
function least(e: LeaseEvent): number {
  // A signed lease adds a tenant; a contraction must move occupancy by more than its rounding (0.1 point).
  if (e.kind === "lease_signed") return LEAST_LEASE_SQFT;
  return Math.max(LEAST_LEASE_SQFT, Math.ceil(e.property.building_area_sqft! * 0.0015));
}

/** The area an event settles at: `want`, never under what still changes the record; a contraction leaving under 200 sq ft is an exit. */
function settled(e: LeaseEvent, want: number): number {
  const area = Math.max(least(e), Math.round(want));
  const whole = e.lease.leased_area_sqft ?? 0;
  return e.kind === "lease_ended" && whole - area < LEAST_LEASE_SQFT ? whole : area;
}

/** Scales events down by `f` (0..1). */
function scale(events: LeaseEvent[], f: number): void {
  for (const e of events) e.area = settled(e, e.natural * f);
}

/** An event's own size: what it would take or free, at most what one event moves of its local market. */
export function ownSize(e: LeaseEvent, want: number, local: LocalMarkets): number {
  return settled(e, Math.min(want, local.maxSqft(e.property)));
}

/** Sets every event's settled area: move-ins and move-outs offset market by market, narrowest first. */
export function settleLeasing(events: LeaseEvent[]): void {
  let open = events;
  for (let width = 0; width < 3 && open.length; width++) {
    const markets = new Map<string, LeaseEvent[]>();
    for (const e of open) {
      const key = marketsOf(e.property)[width];
      (markets.get(key) ?? markets.set(key, []).get(key)!).push(e);
    }
    const unsettled: LeaseEvent[] = [];
    for (const market of markets.values()) {
      const signed = market.filter((e) => e.kind === "lease_signed");
      const ended = market.filter((e) => e.kind === "lease_ended");
      if (!signed.length || !ended.length) {
        unsettled.push(...market);
        continue;
      }
      const [taken, freed] = [signed, ended].map((list) => list.reduce((s, e) => s + e.natural, 0));
      scale(signed, Math.min(1, freed / taken));
      scale(ended, Math.min(1, taken / freed));
    }
    open = unsettled;
  }
  for (const e of open) e.area = e.natural;
}
