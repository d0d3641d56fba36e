// Checks of captured market history that need the other files: each row must name a market
// the snapshot holds (a geography and asset type with properties), once per quarter, and no
// quarter outside the span the history holds (before its first quarter, which a series would
// silently leave out, or after the one holding the capture date). Run once the markets are derived.
import type Database from "better-sqlite3";
import { heldSpan } from "../../contract/history";
import { parseQuarter, quarterLabel } from "../../contract/periods";
import { marketKey } from "../derive/markets";

export interface HistoryProblem {
  rowid: number;
  reason: string;
}

interface CapturedKey {
  rowid: number;
  geography_type: string;
  geography_id: string;
  asset_type: string;
  period: string;
}

/** `lineOf` gives the source line of a row (by rowid), for naming the first of a repeated quarter. */
export function capturedHistoryProblems(
  db: Database.Database,
  capture: string,
  max: number,
  lineOf: (rowid: number) => number,
): HistoryProblem[] {
  const markets = new Set(
    (db.prepare("SELECT geography_type, geography_id, asset_type FROM markets").all() as CapturedKey[]).map((m) =>
      marketKey(m.geography_type, m.geography_id, m.asset_type),
    ),
  );
  const { first: held, last } = heldSpan(capture);
  const seen = new Map<string, number>();
  const out: HistoryProblem[] = [];
  const rows = db.prepare("SELECT rowid, geography_type, geography_id, asset_type, period FROM captured_market_history ORDER BY rowid");
  for (const r of rows.iterate() as IterableIterator<CapturedKey>) {
    if (out.length >= max) break;
    const market = marketKey(r.geography_type, r.geography_id, r.asset_type);
    if (!markets.has(market)) {
      out.push({
        rowid: r.rowid,
        reason: `geography_id: the snapshot has no ${r.asset_type} market in ${r.geography_type} ${r.geography_id} (no ${r.asset_type} properties there)`,
      });
      continue;
    }
    const q = parseQuarter(r.period)!;
    if (q > last) {
      out.push({
        rowid: r.rowid,
        reason: `period: ${r.period} is after ${quarterLabel(last)}, the quarter holding the capture date (${capture})`,
      });
      continue;
    }
    if (q < held) {
      out.push({ rowid: r.rowid, reason: `period: ${r.period} is before ${quarterLabel(held)}, where the market history begins` });
      continue;
    }
    const key = `${market}|${q}`;
    const first = seen.get(key);
    if (first !== undefined)
      out.push({ rowid: r.rowid, reason: `period: ${r.period} of this market is given more than once (first on line ${lineOf(first)})` });
    else seen.set(key, r.rowid);
  }
  return out;
}
