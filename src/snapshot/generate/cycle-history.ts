// The market history's model of a generated snapshot: rents along each market key's rent trend
// (market-model.ts) and cycle, vacancy along the cycle (market-cycles.ts), both drawn from the
// seed, so the same seed gives the same history.
import type { HistoryModel } from "../derive/history-series";
import { decimalYear, MarketCycles } from "./market-cycles";
import { MarketModel } from "./market-model";

export function cycleHistory(seed: number): HistoryModel {
  const cycles = new MarketCycles(seed);
  const trends = new MarketModel(seed, 0);
  return {
    logRent: (key, asset, date) => cycles.logRent(key, asset, trends.rentGrowthOf(key)[asset], decimalYear(date)),
    vacancy: (key, asset, date) => cycles.vacancy(key, asset, decimalYear(date)),
  };
}
