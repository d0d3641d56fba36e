// Stores the market history's series: a market's calendar years as rows of `market_history`
// (history-tables.ts, one per year as historyYears says), each packed by
// history-codec.ts, written in the markets' rowid order (so each row is appended to the table's
// b-tree). Counts the quarters without a figure on the way, for the coverage report.
import type Database from "better-sqlite3";
import { MARKET_HISTORY_METRIC_NAMES } from "../../contract/history";
import type { HistoryCoverage } from "../../contract/coverage";
import { HistoryEncoder } from "../history-codec";
import { historyYears, type HistoryRun } from "../history-tables";
import { GapTally } from "./history-gaps";
import type { Series } from "./history-series";

export class HistoryRows {
  private readonly insert: Database.Statement;
  private readonly encoder: HistoryEncoder;
  private readonly nulls: Int32Array;
  private readonly gaps: GapTally;

  /** Each market's rows, as quarters from the span's first. */
  private readonly runs: readonly HistoryRun[];

  /** For `n` quarters from `first`. */
  constructor(
    db: Database.Database,
    private readonly first: number,
    private readonly n: number,
  ) {
    this.runs = historyYears(first, n);
    this.insert = db.prepare("INSERT INTO market_history (market, first_quarter, quarters, figures) VALUES (?, ?, ?, ?)");
    this.encoder = new HistoryEncoder(n);
    this.nulls = new Int32Array(MARKET_HISTORY_METRIC_NAMES.length);
    this.gaps = new GapTally(n);
  }

  /** Writes one market's rows (its markets-table rowid, its series). */
  write(rid: number, asset: string, series: Series): void {
    const { nulls, n } = this;
    nulls.fill(0);
    MARKET_HISTORY_METRIC_NAMES.forEach((m, c) => {
      const list = series[m];
      for (let j = 0; j < n; j++) if (list[j] === null) nulls[c]++;
    });
    for (const run of this.runs)
      this.insert.run(rid, run.first, run.quarters, this.encoder.encode(series, run.first - this.first, run.quarters));
    this.gaps.add(asset, nulls);
  }

  /** The coverage report's gaps and metrics not held. */
  gapSummary(): Pick<HistoryCoverage, "gaps" | "not_held"> {
    return this.gaps.summary();
  }
}
