// What "Refresh workbook" will cost, said before it runs. Refresh (CachedApi.refresh) asks the
// free coverage endpoint which snapshot the service serves. Results cached from that snapshot
// stay valid and cost nothing; results from another snapshot (or already marked stale) are
// revalidated when their formulas next calculate, each with its ETag. A result the new data
// left as it was is a free 304; only what changed is billed. Which ones changed is not known
// before asking, so the estimate is the upper bound: every one of them fetched anew.
import { endpointFor } from "../shared/endpoints";
import type { CacheEntry } from "../shared/result-cache";
import { isPinnedById } from "../shared/request-keys";

/** What the estimate reads of a cache entry (ResultCache.list() gives them). */
export type EstimateEntry = Pick<CacheEntry, "key" | "snapshotId" | "stale">;

export interface RefreshEstimate {
  /** Cached results. */
  results: number;
  /** Of those, the ones a refresh leaves to be revalidated on their next use. */
  staleResults: number;
  /** Credits those revalidations cost at most (if every one of them fetches anew). */
  maxCredits: number;
  /** False when the served snapshot was not known: every result was counted as possibly stale. */
  snapshotKnown: boolean;
}

/**
 * The cost of a refresh over `entries`, given the snapshot the service serves; null when it is
 * not known yet, which counts every result as one that may have to be fetched again.
 */
export function estimateRefresh(
  entries: readonly EstimateEntry[],
  servedSnapshotId: string | null,
  { keepPinned = true }: { keepPinned?: boolean } = {},
): RefreshEstimate {
  let staleResults = 0;
  let maxCredits = 0;
  for (const entry of entries) {
    // Refresh marks stale every entry not known to come from the served snapshot, including
    // those whose snapshot was never known (ResultCache.markStaleUnless), except results pinned
    // to a snapshot by its id, which never change (unless `keepPinned` is false: a workbook
    // moving to another snapshot asks them again).
    const stale =
      entry.stale || ((servedSnapshotId === null || entry.snapshotId !== servedSnapshotId) && !(keepPinned && isPinnedById(entry.key)));
    if (!stale) continue;
    staleResults++;
    maxCredits += creditsForCacheKey(entry.key);
  }
  return { results: entries.length, staleResults, maxCredits, snapshotKnown: servedSnapshotId !== null };
}

/**
 * The published cost of the request a cache key stands for. Keys are made by cacheKey() in
 * src/shared/cached-api.ts: "<base url>|<METHOD> <path>[?query][ <json body>]". A single
 * property's record (getProperty, 1 credit) may come back through a batched compare call
 * instead, which costs 2 for up to 25 of them, so 1 per record stays an upper bound. A key
 * that names no current endpoint (a result stored by an older version) costs nothing: no
 * formula can ask for it again.
 */
export function creditsForCacheKey(key: string): number {
  const request = key.slice(key.indexOf("|") + 1);
  const match = /^([A-Z]+) ([^?\s]+)/.exec(request);
  if (!match) return 0;
  return endpointFor(match[1], match[2])?.cost ?? 0;
}

/** One line for the pane, e.g. "Up to 12 credits: 6 cached results come from an older snapshot; those … are free." */
export function describeRefreshCost(estimate: RefreshEstimate): string {
  const { results, staleResults, maxCredits, snapshotKnown } = estimate;
  if (results === 0) return "Nothing is cached yet: Refresh checks the snapshot for free, and each formula then fetches its result.";
  if (staleResults === 0) return "Refresh is free: the snapshot is unchanged (1 free check).";
  if (maxCredits === 0)
    return `Refresh is free: ${count(staleResults, "cached result")} to revalidate, all from free endpoints (1 free check).`;
  if (!snapshotKnown) {
    return `Up to ${count(maxCredits, "credit")} if the service has a newer snapshot: ${count(staleResults, "cached result")} would be fetched again.`;
  }
  const verb = staleResults === 1 ? "comes" : "come";
  return `Up to ${count(maxCredits, "credit")}: ${count(staleResults, "cached result")} ${verb} from an older snapshot; those the new data left as they were are free.`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
