// The market history (table `market_history`): for every market the markets table holds, its
// figures for every calendar quarter from the start of the span (src/contract/periods.ts, heldSpan in
// src/contract/history.ts) to the quarter holding the capture date, which is "to date". Every
// figure is anchored on the market snapshot: the last quarter's stocks and medians are the
// snapshot's, and the series runs back from there (history-series.ts says how).
//
// Rents and vacancy before today come from a model (generated snapshots: the market cycles) or
// from captured history (imported). Captured figures take the place of derived ones in every
// quarter but the last, whose figures are the market snapshot's. A next month (a generated
// snapshot built from the previous one) keeps the previous snapshot's rents, vacancy and
// absorption in every quarter before its last, so only the quarter to date moves from month to
// month: anchoring the model on each month's figures again would shift a small market's whole
// past with one lease.
//
// Three jobs, three modules: history-inputs.ts reads the inputs, history-series.ts computes each
// market's series, history-rows.ts stores them. The markets and the properties' facts
// (HistoryBase) give the completions; the sales rows come from the sales. A parallel build hands
// the base to the part worker (the markets read on the main thread, the facts collected as the
// properties were generated), which holds the sales and writes the rows into its part file
// (generate/part-worker.ts).
import type Database from "better-sqlite3";
import { heldSpan } from "../../contract/history";
import type { HistoryCoverage } from "../../contract/coverage";
import { quarterEnd, quarterLabel } from "../../contract/periods";
import {
  carriedReader,
  completionsOf,
  historySalesRows,
  marketOrdinals,
  readCaptured,
  readMarkets,
  readPropertyFacts,
  type PropertyFacts,
} from "./history-inputs";
import {
  marketSeries,
  movesOf,
  newSeries,
  rollUpSales,
  Span,
  type Captured,
  type CarriedRow,
  type HistoryModel,
  type HistorySalesRow,
  type MarketRow,
} from "./history-series";
import { HistoryRows } from "./history-rows";

/** The span of quarters held at a capture date. */
export function historySpan(capture: string): Span {
  const { first, last } = heldSpan(capture);
  return new Span(first, last);
}

/** What the series are computed from besides the sales: the markets (rowid order) and the properties' completions. */
export interface HistoryBase {
  markets: MarketRow[];
  properties: PropertyFacts;
}

/** Reads the markets and the properties' facts from the snapshot. */
export function readHistoryBase(db: Database.Database, capture: string): HistoryBase {
  return { markets: readMarkets(db), properties: readPropertyFacts(db, historySpan(capture)) };
}

export interface SeriesOptions {
  /** The capture date, YYYY-MM-DD. */
  capture: string;
  model?: HistoryModel;
  /** The sales rows (historySalesRows). */
  sales: readonly HistorySalesRow[];
  /** Captured figures by market ordinal (imported snapshots), and how many rows they came from. */
  captured?: Captured[];
  capturedRows?: number;
  /** The previous snapshot's figures of a market (a next month). */
  carriedOf?: ((mk: MarketRow) => CarriedRow[]) | null;
  /** Step timings, for the build's log. */
  log?: (msg: string) => void;
}

/** Computes every market's series and writes them to `market_history` (call inside a transaction). */
export function writeMarketHistory(db: Database.Database, base: HistoryBase, opts: SeriesOptions): HistoryCoverage {
  const span = historySpan(opts.capture);
  const { n, first, last } = span;
  const { markets } = base;
  let t = performance.now();
  const lap = (what: string) => {
    opts.log?.(`market history: ${what} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
  };
  const ord = marketOrdinals(markets);
  // A model needs each market's cycle key.
  const built = completionsOf(base.properties, ord, span, opts.model !== undefined);
  lap("completions");
  const sales = rollUpSales(ord, span, opts.sales);
  lap("sales and their medians' windows");
  const ends = [...Array.from({ length: n }, (_, j) => (j === n - 1 ? opts.capture : quarterEnd(first + j))), quarterEnd(first - 1)];
  const moves = opts.model ? movesOf(opts.model, opts.capture, ends) : null;
  const rows = new HistoryRows(db, first, n);
  const series = newSeries(n);
  for (let i = 0; i < markets.length; i++) {
    const mk = markets[i];
    const moved = moves ? moves(built.keys[i], mk.asset_type) : null;
    marketSeries(series, { span, i, mk, built, sales, moved, given: opts.captured?.[i], carried: opts.carriedOf?.(mk) });
    rows.write(mk.rid, mk.asset_type, series);
  }
  lap("series written");
  return {
    first_period: quarterLabel(first),
    last_period: quarterLabel(last),
    quarters: n,
    markets: markets.length,
    captured_rows: opts.capturedRows ?? 0,
    ...rows.gapSummary(),
  };
}

export interface HistoryOptions {
  /** The capture date, YYYY-MM-DD. */
  capture: string;
  model?: HistoryModel;
  /** The schema an earlier snapshot of the same data is attached as (a next month's previous one): its completed quarters are kept. */
  previous?: string;
  /** Step timings, for the build's log. */
  log?: (msg: string) => void;
}

/** Fills `market_history` from the markets table and the rows; returns the coverage report's `history`. */
export function deriveMarketHistory(db: Database.Database, opts: HistoryOptions): HistoryCoverage {
  const span = historySpan(opts.capture);
  let t = performance.now();
  const base = readHistoryBase(db, opts.capture);
  opts.log?.(`market history: markets and properties read in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const sales = historySalesRows(db, opts.capture);
  opts.log?.(`market history: sales rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const { captured, rows: capturedRows } = readCaptured(db, marketOrdinals(base.markets), span);
  const carriedOf = opts.previous ? carriedReader(db, opts.previous, span) : null;
  return writeMarketHistory(db, base, {
    capture: opts.capture,
    model: opts.model,
    sales,
    captured,
    capturedRows,
    carriedOf,
    log: opts.log,
  });
}
