// Market-level economics: a price index per place (from metros.ts), the cap-rate spread that
// goes with it (richer markets trade at lower cap rates), and a rent-growth rate per market
// and asset type drawn once from the seed, so leases in one market share a trend.
import { ASSET_TYPES, type AssetType } from "../../contract/vocabulary";
import { ASSET_PROFILES } from "./asset-profiles";
import type { City } from "./geography";
import { priceIndexOf } from "./metros";
import { Random } from "./random";

export interface Market {
  key: string;
  priceIndex: number;
  /** Added to every cap rate in the market. */
  capSpread: number;
  rentGrowth: Record<AssetType, number>;
}

export class MarketModel {
  private readonly growth = new Map<string, Record<AssetType, number>>();
  // Dense (one slot per city, filled up front) so lookups stay fast array loads.
  private readonly byCity: (Market | null)[];
  constructor(
    private readonly seed: number,
    cityCount: number,
  ) {
    this.byCity = new Array<Market | null>(cityCount).fill(null);
  }

  of(city: City): Market {
    let m = this.byCity[city.index];
    if (!m) {
      // Non-metro towns of a state share one rent trend; each town keeps its own price level.
      const key = city.metro ? city.metro.id : `nonmetro-${city.state}`;
      const priceIndex = priceIndexOf(city);
      m = { key, priceIndex, capSpread: -0.02 * (priceIndex - 1), rentGrowth: this.rentGrowthOf(key) };
      this.byCity[city.index] = m;
    }
    return m;
  }

  /** The rent trend of a market key (a metro, or `nonmetro-<state>`) by asset type, a year. */
  rentGrowthOf(key: string): Record<AssetType, number> {
    let g = this.growth.get(key);
    if (!g) {
      const rng = new Random(this.seed, `market:${key}`);
      g = {} as Record<AssetType, number>;
      for (const t of ASSET_TYPES) {
        const base = ASSET_PROFILES[t].rentGrowth;
        g[t] = base === 0 ? 0 : base + rng.normal(0, 0.012);
      }
      this.growth.set(key, g);
    }
    return g;
  }
}

/**
 * Cap-rate environment by year: relative to today's level, cap rates were higher after the
 * 2008 crisis and compressed in 2020-2022 before rates rose again.
 */
export function capRateShift(year: number): number {
  if (year <= 2007) return 0.004;
  if (year <= 2011) return 0.012;
  if (year <= 2015) return 0.006;
  if (year <= 2019) return 0.0;
  if (year <= 2022) return -0.008;
  return 0.0;
}

/** Commercial value appreciation per year, the trend older sales are priced back along (with the market's cycle). */
export const VALUE_GROWTH = 0.032;
/** Home price appreciation per year, for residential parcels' past sales. */
export const HOME_PRICE_GROWTH = 0.045;
