// Where the market history has no figure: per metric and asset type, how many markets miss it
// in some quarter and how many market-quarters in all (the coverage report's `history.gaps`).
import { MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../../shared/contract/history";
import type { HistoryGap } from "../../shared/contract/coverage";

interface Cell {
  markets: number;
  withGaps: number;
  missing: number;
}

export class GapTally {
  private readonly cells = new Map<string, Map<MarketHistoryMetric, Cell>>();
  constructor(private readonly quarters: number) {}

  /** One market's series, by metric. */
  add(asset: string, series: Record<MarketHistoryMetric, readonly (number | null)[]>): void {
    let byMetric = this.cells.get(asset);
    if (!byMetric) this.cells.set(asset, (byMetric = new Map()));
    for (const m of MARKET_HISTORY_METRIC_NAMES) {
      let cell = byMetric.get(m);
      if (!cell) byMetric.set(m, (cell = { markets: 0, withGaps: 0, missing: 0 }));
      let missing = 0;
      for (const v of series[m]) if (v === null) missing++;
      cell.markets++;
      cell.missing += missing;
      if (missing) cell.withGaps++;
    }
  }

  /** Every metric and asset type with a gap, the largest share missing first. */
  summary(): HistoryGap[] {
    const out: HistoryGap[] = [];
    for (const [asset, byMetric] of this.cells) {
      for (const [metric, c] of byMetric) {
        if (!c.missing) continue;
        out.push({
          metric,
          asset_type: asset,
          markets: c.markets,
          markets_with_gaps: c.withGaps,
          missing_periods: c.missing,
          periods: c.markets * this.quarters,
        });
      }
    }
    const share = (g: HistoryGap) => g.missing_periods / g.periods;
    return out.sort((a, b) => share(b) - share(a) || a.metric.localeCompare(b.metric) || a.asset_type.localeCompare(b.asset_type));
  }
}
