// A market's history as the API answers it: the stored quarters (snapshot/derive/market-history.ts)
// of one market, read from its rows of `market_history` (one per calendar year) in order and
// joined, by quarter or rolled up by year.
// A year's stocks and 24-month medians are its last quarter's; its flows are the sum of its
// quarters (null when any quarter has none). Every period carries the properties standing at its
// end (a year's, its last quarter's) and whether they are too few to read as a market.
import { type MarketHistoryMetric, type MarketHistoryPoint } from "../../contract/history";
import { marketQuarters, STORED_HISTORY_COLUMNS, type StoredHistory } from "../../snapshot/history-codec";
import { isThin } from "../../contract/market-sample";
import { quarterEnd, quarterLabel, quarterOf, quarterStart, quarterYear } from "../../contract/periods";
import type { SnapshotContext } from "./snapshot-context";

const FLOWS = new Set<MarketHistoryMetric>([
  "sales_volume",
  "sales_count",
  "net_absorption_sqft",
  "net_absorption_units",
  "deliveries_sqft",
  "deliveries_units",
]);

type QuarterRow = { quarter: number } & Record<MarketHistoryMetric, number | null>;

export interface SeriesRequest {
  /** The market's rowid in `markets` (the history's key). */
  market: number;
  metrics: readonly MarketHistoryMetric[];
  /** Periods ending on or after `from` and starting on or before `to` (YYYY-MM-DD). */
  from: string;
  to: string;
  interval: "quarter" | "year";
  /** The stored span, first and last quarter; the last holds the capture date. */
  first: number;
  last: number;
  capture: string;
}

function readQuarters(snapshot: SnapshotContext, market: number, lo: number, hi: number): QuarterRow[] {
  // The market's rows cover its series without overlap; only those holding quarters asked for are
  // read and decoded, which gives the figures in the API's units.
  const rows = snapshot.all<StoredHistory>(
    `SELECT ${STORED_HISTORY_COLUMNS} FROM market_history
     WHERE market = ? AND first_quarter <= ? AND first_quarter + quarters > ? ORDER BY first_quarter`,
    [market, hi, lo],
  );
  return marketQuarters(rows, lo, hi);
}

function pick(row: QuarterRow, metrics: readonly MarketHistoryMetric[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const m of metrics) out[m] = row[m];
  return out;
}

function sample(row: QuarterRow): { property_count: number; thin: boolean } {
  const count = row.property_count ?? 0;
  return { property_count: count, thin: isThin(count) };
}

function yearValues(rows: QuarterRow[], metrics: readonly MarketHistoryMetric[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const lastRow = rows[rows.length - 1];
  for (const m of metrics) {
    if (!FLOWS.has(m)) {
      out[m] = lastRow[m];
      continue;
    }
    let sum: number | null = 0;
    for (const r of rows) sum = sum === null || r[m] === null ? null : sum + r[m]!;
    out[m] = sum;
  }
  return out;
}

export function marketSeries(snapshot: SnapshotContext, req: SeriesRequest): MarketHistoryPoint[] {
  const { first, last, capture, metrics } = req;
  const fromQ = Math.max(first, quarterOf(req.from));
  const toQ = Math.min(last, quarterOf(req.to));
  if (req.interval === "quarter") {
    if (fromQ > toQ) return [];
    return readQuarters(snapshot, req.market, fromQ, toQ).map((r) => ({
      period: quarterLabel(r.quarter),
      period_start: quarterStart(r.quarter),
      period_end: r.quarter === last ? capture : quarterEnd(r.quarter),
      complete: r.quarter !== last,
      ...sample(r),
      values: pick(r, metrics),
    }));
  }
  // Whole years: every quarter of each year asked is read, whatever part of it from/to cover.
  const lo = Math.max(first, quarterYear(fromQ) * 4);
  const hi = Math.min(last, quarterYear(toQ) * 4 + 3);
  if (lo > hi) return [];
  const byYear = new Map<number, QuarterRow[]>();
  for (const r of readQuarters(snapshot, req.market, lo, hi)) {
    const y = quarterYear(r.quarter);
    const rows = byYear.get(y);
    if (rows) rows.push(r);
    else byYear.set(y, [r]);
  }
  const lastYear = quarterYear(last);
  return [...byYear].map(([y, rows]) => ({
    period: String(y),
    period_start: `${y}-01-01`,
    period_end: y === lastYear ? capture : `${y}-12-31`,
    complete: y !== lastYear,
    ...sample(rows[rows.length - 1]),
    values: yearValues(rows, metrics),
  }));
}
