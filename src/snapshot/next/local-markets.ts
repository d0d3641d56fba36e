// A property's local market (its metro, or its state's area outside metros, for its asset type)
// and how much one event may move it. A generated snapshot holds a sample of the buildings of
// the market it stands for, a few dozen where a real metro has thousands, so an event at full
// size (a whole tenancy leaving, a hotel's occupancy swinging five points) moves a generated
// market many times as far as the same event moves the real one. Events are therefore sized
// against the sample as they would be against the market: one event moves at most
// EVENT_SHARE_OF_MARKET of its local market's space or units, about what a large lease is in a
// real metro (a few tenths of a percent of its stock).
import type { CommercialProperty } from "../../shared/contract/records";
import type { NextContext } from "./next-context";

/** The most of its local market's space (or units) one event moves. */
export const EVENT_SHARE_OF_MARKET = 0.0025;

/** The local market key of a property: `asset|metro` or `asset|nonmetro-<state>`. */
export const localMarketOf = (p: { asset_type: string; metro_id: string | null; state_code: string }): string =>
  `${p.asset_type}|${p.metro_id ?? `nonmetro-${p.state_code}`}`;

export class LocalMarkets {
  private readonly sqft = new Map<string, number>();
  private readonly units = new Map<string, number>();

  constructor(ctx: NextContext) {
    const rows = ctx.db
      .prepare(
        `SELECT asset_type, metro_id, state_code, SUM(building_area_sqft) AS sqft, SUM(units) AS units
         FROM prev.properties GROUP BY asset_type, metro_id, state_code`,
      )
      .all() as { asset_type: string; metro_id: string | null; state_code: string; sqft: number | null; units: number | null }[];
    for (const r of rows) {
      const key = localMarketOf(r);
      this.sqft.set(key, (this.sqft.get(key) ?? 0) + (r.sqft ?? 0));
      this.units.set(key, (this.units.get(key) ?? 0) + (r.units ?? 0));
    }
  }

  /** The most space, sq ft, one event at `p` moves. */
  maxSqft(p: CommercialProperty): number {
    return EVENT_SHARE_OF_MARKET * (this.sqft.get(localMarketOf(p)) ?? 0);
  }

  /**
   * The most one event at `p` moves a share of the property itself (occupancy in points, or a
   * rent revision): the event's weight in its market, by units for unit types, else by area.
   */
  maxShareOfProperty(p: CommercialProperty, byUnits: boolean): number {
    const own = byUnits ? p.units : p.building_area_sqft;
    const market = (byUnits ? this.units : this.sqft).get(localMarketOf(p)) ?? 0;
    return own ? (EVENT_SHARE_OF_MARKET * market) / own : Infinity;
  }
}
