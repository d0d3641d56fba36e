// The steps every snapshot ends with, generated or imported: derive the market, diligence,
// places and market history tables from the rows, build the indexes, and record the meta (id, capture and build times,
// source, supported search inputs per asset type, coverage report).
import { deriveAssetInputs } from "./derive/asset-inputs";
import { deriveCoverage, type Coverage } from "./derive/coverage";
import { deriveDiligence } from "./derive/diligence";
import { countPropertyFields } from "./derive/field-counts";
import { deriveMarkets, type SalesGroup } from "./derive/markets";
import { deriveMarketHistory } from "./derive/market-history";
import type { HistoryModel } from "./derive/history-series";
import { derivePlaces, type PartPlaces } from "./derive/places";
import { windowsFor } from "./derive/windows";
import { SNAPSHOT_FORMAT, type SnapshotWriter } from "./snapshot-file";
import type { HistoryCoverage, SnapshotSource } from "../contract/coverage";

export interface FinishOptions {
  id: string;
  capturedAt: string;
  source: SnapshotSource;
  seed?: number;
  /** performance.now() when the build started, for build_seconds. */
  startedAt: number;
  /** deriveTables has already run (the builder runs it early, the importer before checking captured history). */
  derived?: boolean;
  /** How rents and vacancy moved before the capture date (generated snapshots); imported ones take captured history. */
  history?: HistoryModel;
  /** Market history's coverage, when the history is written already (a parallel build's worker wrote it). */
  historyCoverage?: HistoryCoverage;
  /** The place groups of parcels, listings and sales, when a parallel build's worker counted them as it wrote them. */
  partPlaces?: PartPlaces;
  /** The schema the previous snapshot is attached as (a next month): market history keeps its completed quarters. */
  previous?: string;
  log?: (msg: string) => void;
}

function timer(log: (msg: string) => void) {
  let t = performance.now();
  return (what: string) => {
    const now = performance.now();
    log(`${what} in ${((now - t) / 1000).toFixed(1)} s`);
    t = now;
  };
}

/**
 * Fills the markets and diligence tables from properties, tenancies and sales (the only tables
 * they read, so a parallel build runs this before the worker's tables are copied in, passing
 * the sales groups the worker computed from its own copy of the sales).
 */
export function deriveTables(w: SnapshotWriter, capturedAt: string, log: (msg: string) => void = () => {}, sales?: SalesGroup[]): void {
  const windows = windowsFor(capturedAt);
  const lap = timer(log);
  let marketRows = 0;
  const markets = w.transaction(() =>
    deriveMarkets(
      w.db,
      windows,
      (row) => {
        w.insert("markets", row);
        marketRows++;
      },
      sales,
    ),
  );
  lap(`markets: ${marketRows} rows`);
  const n = w.transaction(() => deriveDiligence(w.db, windows, markets));
  lap(`diligence: ${n} rows`);
}

export function finishSnapshot(w: SnapshotWriter, opts: FinishOptions): Coverage {
  const log = opts.log ?? (() => {});
  if (!opts.derived) deriveTables(w, opts.capturedAt, log);
  const lap = timer(log);
  // Places read every record table, so they wait until all of them are complete.
  const places = w.transaction(() => derivePlaces(w.db, (row) => w.insert("places", row), opts.partPlaces));
  lap(`places: ${places} rows`);
  // History reads the markets and every sale, so it too waits for all the record tables (unless
  // a parallel build's worker, which holds the sales, has written it already).
  const windows = windowsFor(opts.capturedAt);
  const history =
    opts.historyCoverage ??
    w.transaction(() => deriveMarketHistory(w.db, { capture: windows.capture, model: opts.history, previous: opts.previous, log }));
  lap(`market history: ${history.markets} markets x ${history.quarters} quarters`);
  // Sampled statistics: a full ANALYZE of a million-property file takes longer than the rest of
  // the indexing and gives the planner nothing more it needs (SQLite recommends 100-1000).
  w.db.pragma("analysis_limit = 1000");
  w.buildIndexes();
  lap("remaining indexes and statistics");
  const fields = countPropertyFields(w.db);
  const assetInputs = deriveAssetInputs(fields);
  const coverage = deriveCoverage(w.db, windows, fields, history, (performance.now() - opts.startedAt) / 1000);
  lap("coverage");
  w.setMeta("format", String(SNAPSHOT_FORMAT));
  w.setMeta("id", opts.id);
  w.setMeta("captured_at", opts.capturedAt);
  w.setMeta("built_at", new Date().toISOString());
  w.setMeta("source", opts.source);
  if (opts.seed !== undefined) w.setMeta("seed", String(opts.seed));
  w.setMeta("asset_inputs", assetInputs);
  w.setMeta("coverage", coverage);
  return coverage;
}

/** A capture time as the meta stores it: ISO 8601 UTC to the second ("2026-11-01T00:00:00Z"). */
export function normaliseCapturedAt(value: string): string {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new Error(`capturedAt is not an ISO date or date-time: ${value}`);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
