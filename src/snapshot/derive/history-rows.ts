// Stores the market history's series: one row per market and quarter in `market_history`,
// every figure as an integer in its fixed unit (history-tables.ts), one market's quarters per
// INSERT (the key's order, so each market's rows are appended to the table's b-tree). Counts
// the quarters without a figure on the way, for the coverage report.
import type Database from "better-sqlite3";
import { MARKET_HISTORY_METRIC_NAMES } from "../../contract/history";
import type { HistoryCoverage } from "../../contract/coverage";
import { HISTORY_SCALES } from "../history-tables";
import { GapTally } from "./history-gaps";
import type { Series } from "./history-series";

export class HistoryRows {
  private readonly insert: Database.Statement;
  private readonly values: (number | null)[];
  private readonly nulls: Int32Array;
  private readonly scale: number[];
  private readonly gaps: GapTally;
  private readonly width = MARKET_HISTORY_METRIC_NAMES.length + 2;

  /** For `n` quarters from `first`. */
  constructor(
    db: Database.Database,
    private readonly first: number,
    private readonly n: number,
  ) {
    const cols = MARKET_HISTORY_METRIC_NAMES;
    const row = `(${Array(this.width).fill("?").join(",")})`;
    this.insert = db.prepare(`INSERT INTO market_history (market, quarter, ${cols.join(", ")}) VALUES ${Array(n).fill(row).join(",")}`);
    this.values = new Array<number | null>(n * this.width);
    this.nulls = new Int32Array(cols.length);
    // Whole figures are rounded already; the others are scaled to their unit here.
    this.scale = cols.map((m) => HISTORY_SCALES[m] ?? 1);
    this.gaps = new GapTally(n);
  }

  /** Writes one market's rows (its markets-table rowid, its series). */
  write(rid: number, asset: string, series: Series): void {
    const { values, nulls, scale, width, n } = this;
    const cols = MARKET_HISTORY_METRIC_NAMES;
    nulls.fill(0);
    for (let c = 0; c < cols.length; c++) {
      const list = series[cols[c]];
      for (let j = 0, k = 2 + c; j < n; j++, k += width) {
        const v = list[j];
        values[k] = scale[c] === 1 || v === null ? v : Math.round(v * scale[c]);
        if (v === null) nulls[c]++;
      }
    }
    for (let j = 0, k = 0; j < n; j++, k += width) {
      values[k] = rid;
      values[k + 1] = this.first + j;
    }
    this.insert.run(values);
    this.gaps.add(asset, nulls);
  }

  /** The coverage report's gaps and metrics not held. */
  gapSummary(): Pick<HistoryCoverage, "gaps" | "not_held"> {
    return this.gaps.summary();
  }
}
