// How much one event of the month may move the markets its property counts in. A generated
// snapshot holds a sample of the buildings of the markets it stands for, a few dozen where a
// real metro has thousands, so an event at full size (a whole tenancy leaving, a hotel's
// occupancy swinging five points) would move a generated market many times as far as the same
// event moves the real one. Events are therefore sized against the sample as they would be
// against the market: one event moves at most EVENT_SHARE_OF_MARKET of the space (or units) of
// the smallest market it counts in that is a market at all (MIN_MARKET_PROPERTIES or more
// properties of its type: state, county, metro, city or ZIP code), or of its metro (its state's
// area outside metros) when none is. That share is about what a large lease is in a real metro:
// a few tenths of a percent of its stock.
import type { CommercialProperty } from "../../contract/records";
import { geographiesOf, marketKey } from "../derive/markets";
import type { NextContext } from "./next-context";

/** The most of a market's space (or units) one event moves. */
export const EVENT_SHARE_OF_MARKET = 0.002;
/** Fewer properties of a type than this make a sample too thin to size events against. */
export const MIN_MARKET_PROPERTIES = 20;

type Place = Pick<CommercialProperty, "asset_type" | "metro_id" | "state_code" | "county_fips" | "city" | "zip">;

/** The local market key of a property, where its leases offset first: `asset|metro` or `asset|nonmetro-<state>`. */
export const localMarketOf = (p: { asset_type: string; metro_id: string | null; state_code: string }): string =>
  `${p.asset_type}|${p.metro_id ?? `nonmetro-${p.state_code}`}`;

interface Stock {
  count: number;
  sqft: number;
  units: number;
}

export class LocalMarkets {
  private readonly stock = new Map<string, Stock>();

  constructor(ctx: NextContext) {
    const rows = ctx.db
      .prepare(
        `SELECT asset_type, metro_id, state_code, county_fips, city, zip, count(*) AS n, SUM(building_area_sqft) AS sqft, SUM(units) AS units
         FROM prev.properties GROUP BY asset_type, metro_id, state_code, county_fips, city, zip`,
      )
      .all() as (Place & { n: number; sqft: number | null; units: number | null })[];
    for (const r of rows) for (const key of this.keysOf(r)) this.add(key, r.n, r.sqft ?? 0, r.units ?? 0);
  }

  private add(key: string, count: number, sqft: number, units: number): void {
    const s = this.stock.get(key) ?? { count: 0, sqft: 0, units: 0 };
    this.stock.set(key, { count: s.count + count, sqft: s.sqft + sqft, units: s.units + units });
  }

  /**
   * The markets a property counts in, and its local market. Not the national market: it always
   * has 20+ properties, so an event sized against it would be sized against the whole country
   * where the property's own markets are too small and its local market should size it.
   */
  private keysOf(p: Place): string[] {
    const geos = geographiesOf(p).filter(([type]) => type !== "national");
    return [...geos.map(([type, id]) => marketKey(type, id, p.asset_type)), localMarketOf(p)];
  }

  /** The space or units of the smallest market of 20+ properties the property counts in, else of its local market. */
  private sizeFor(p: Place, byUnits: boolean): number {
    const keys = this.keysOf(p);
    const size = (s: Stock | undefined) => (s ? (byUnits ? s.units : s.sqft) : 0);
    const markets = keys.map((k) => this.stock.get(k)).filter((s): s is Stock => s !== undefined && s.count >= MIN_MARKET_PROPERTIES);
    if (!markets.length) return size(this.stock.get(keys[keys.length - 1]));
    return Math.min(...markets.map(size));
  }

  /** The most space, sq ft, one event at `p` moves. */
  maxSqft(p: CommercialProperty): number {
    return EVENT_SHARE_OF_MARKET * this.sizeFor(p, false);
  }

  /**
   * The most one event at `p` moves a share of the property itself (occupancy in points, or a
   * rent revision): the event's weight in its market, by units for unit types, else by area.
   */
  maxShareOfProperty(p: CommercialProperty, byUnits: boolean): number {
    const own = byUnits ? p.units : p.building_area_sqft;
    return own ? (EVENT_SHARE_OF_MARKET * this.sizeFor(p, byUnits)) / own : Infinity;
  }
}
