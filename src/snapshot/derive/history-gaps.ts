// Where the market history has no figure: per metric and asset type, how many markets miss it
// in some quarter and how many market-quarters in all (the coverage report's `history.gaps`),
// and the metrics a type has no figure for at all (`history.not_held`).
import { MARKET_HISTORY_METRIC_NAMES } from "../../contract/history";
import { type HistoryGap, type HistoryNotHeld, splitHistoryGaps } from "../../contract/coverage";

interface Cell {
  markets: number;
  withGaps: number;
  missing: number;
}

export class GapTally {
  private readonly cells = new Map<string, Cell[]>();
  constructor(private readonly quarters: number) {}

  /** One market's count of quarters without a figure, by metric in MARKET_HISTORY_METRIC_NAMES' order. */
  add(asset: string, nulls: Int32Array): void {
    let cells = this.cells.get(asset);
    if (!cells) this.cells.set(asset, (cells = MARKET_HISTORY_METRIC_NAMES.map(() => ({ markets: 0, withGaps: 0, missing: 0 }))));
    for (let c = 0; c < cells.length; c++) {
      const cell = cells[c];
      cell.markets++;
      cell.missing += nulls[c];
      if (nulls[c]) cell.withGaps++;
    }
  }

  /** Every metric and asset type with a gap, the largest share missing first; those missing everywhere apart. */
  summary(): { gaps: HistoryGap[]; not_held: HistoryNotHeld[] } {
    const out: HistoryGap[] = [];
    for (const [asset, cells] of this.cells) {
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i];
        const metric = MARKET_HISTORY_METRIC_NAMES[i];
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
    return splitHistoryGaps(
      out.sort((a, b) => share(b) - share(a) || a.metric.localeCompare(b.metric) || a.asset_type.localeCompare(b.asset_type)),
    );
  }
}
