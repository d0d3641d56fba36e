// The add-in's long-lived state in its shared runtime: one result cache (kept in
// OfficeRuntime.storage), one credit meter, one gateway to the service, and the latest
// outcome of each PROP cell (so the pane can say why a cell failed). Created on first use,
// not at import, so importing any module stays free of side effects; tests and the benchmark
// build their own with createSession().
import { CachePersistence } from "./cache-persistence";
import { CachedApi, type RefreshResult } from "./cached-api";
import { CellOutcomes } from "./cell-outcomes";
import { memoisedConnect } from "./connection";
import { CreditMeter } from "./credit-meter";
import { MarketHistoryRequests } from "./market-history-requests";
import type { ResponseInfo } from "./api-client";
import { DEFAULT_CACHE_LIMITS, ResultCache, type CacheLimits } from "./result-cache";
import { officeStorageIfAvailable, type KeyValueStorage } from "./settings";

export interface AddinSession {
  api: CachedApi;
  /** PROP.MARKETHISTORY's series, through `api` and `cache`, cells asking one market sent together. */
  marketHistory: MarketHistoryRequests;
  cache: ResultCache;
  meter: CreditMeter;
  persistence: CachePersistence;
  /** What each PROP cell last returned: a value, or the error code and message Excel shows. */
  outcomes: CellOutcomes;
}

export interface SessionOptions {
  /** Where settings and cached results live; OfficeRuntime.storage by default. */
  storage?: () => KeyValueStorage | null;
  fetch?: typeof fetch;
  limits?: CacheLimits;
  storageBudgetChars?: number;
  batchWindowMs?: number;
  onResponse?: (info: ResponseInfo) => void;
}

export function createSession(options: SessionOptions = {}): AddinSession {
  const storage = options.storage ?? officeStorageIfAvailable;
  const cache = new ResultCache(options.limits ?? DEFAULT_CACHE_LIMITS);
  const meter = new CreditMeter();
  const persistence = new CachePersistence(cache, storage, options.storageBudgetChars);
  const connect = memoisedConnect(() => storage() ?? undefined, {
    fetch: options.fetch,
    onResponse: (info) => {
      if (info.credits) meter.observe(info.credits);
      options.onResponse?.(info);
    },
  });
  const ready = () => persistence.load();
  const api = new CachedApi({ connect, cache, ready, batchWindowMs: options.batchWindowMs });
  const marketHistory = new MarketHistoryRequests({ api, cache, connect, ready, batchWindowMs: options.batchWindowMs });
  return { api, marketHistory, cache, meter, persistence, outcomes: new CellOutcomes() };
}

let current: AddinSession | null = null;

/** The runtime's session (the functions and the pane share it). */
export function addinSession(): AddinSession {
  current ??= createSession();
  return current;
}

/**
 * What "Refresh workbook" calls before recalculating: checks which snapshot the service
 * serves (free) and marks results from any other snapshot for revalidation. Recalculation
 * after it costs nothing when the snapshot is unchanged.
 */
export async function refreshCachedResults(session: AddinSession = addinSession()): Promise<RefreshResult> {
  const result = await session.api.refresh();
  await session.persistence.flush();
  return result;
}
