// Requests through the result cache: a fresh copy answers at once, identical concurrent
// requests share one, a held copy (its own, or the same request's under another pin) is
// revalidated with its ETag, refusals that name a missing thing are remembered, and a
// formula-edit preview never starts a metered request.
import type { ApiClient, ApiRequest } from "./api-client";
import { ApiError } from "./api-error";
import type { CacheEntry, CachedError, PlaceProblemFields, ResultCache } from "./result-cache";
import { SharedRequests } from "./shared-requests";
import { isPinned, unpinnedKey, type SnapshotPin } from "./request-keys";
import { snapshotOf, type SnapshotTracker } from "./snapshot-tracker";
import type { RequestTrace } from "./cell-provenance";

/** What a custom function knows about its own invocation. */
export interface CallContext {
  /** Excel is previewing the formula while it is edited: no metered call may be made. */
  preview?: boolean;
  /** Aborted when Excel cancels the call. */
  signal?: AbortSignal;
  /** The snapshot every request of the call names (the as_of option); none: the newest. */
  pin?: SnapshotPin;
  /** Notes where each answer came from, for the cell's provenance (cell-provenance.ts). */
  trace?: RequestTrace;
}

export interface CachedRequestsOptions {
  connect: () => Promise<ApiClient>;
  cache: ResultCache;
  /** Resolves once stored results are loaded (OfficeRuntime.storage). */
  ready?: () => Promise<void>;
}

export class CachedRequests {
  readonly shared = new SharedRequests();

  constructor(
    private readonly options: CachedRequestsOptions,
    readonly snapshots: SnapshotTracker,
  ) {}

  get cache(): ResultCache {
    return this.options.cache;
  }

  async client(): Promise<ApiClient> {
    const [client] = await Promise.all([this.options.connect(), this.options.ready?.()]);
    return client;
  }

  /** The answer for `key`: cached, joined, or fetched (never fetched in a preview when metered). */
  load<T>(key: string, client: ApiClient, request: ApiRequest, metered: boolean, ctx: CallContext): Promise<T> {
    const entry = this.cache.get(key);
    if (entry && !entry.stale) return Promise.resolve(unwrap(entry) as T);
    if (ctx.preview && metered) {
      // A preview may wait for a request already running, or show what we have; never start one.
      const joined = this.shared.join<T>(key, ctx.signal);
      if (joined) return joined;
      if (entry) return Promise.resolve(unwrap(entry) as T);
      return Promise.reject(
        new ApiError(0, "preview_not_fetched", "Not fetched in the formula preview (it would cost credits); press Enter to get the value."),
      );
    }
    return this.shared.run(key, (signal) => this.fetch<T>(key, client, { ...request, signal }, entry ?? this.sibling(key)), ctx.signal);
  }

  /** Sends `request` (with the ETag of `entry`, if any) and caches the answer under `key`. */
  async fetch<T>(key: string, client: ApiClient, request: ApiRequest, entry: CacheEntry | undefined): Promise<T> {
    const { cache, snapshots } = this;
    const pinned = isPinned(request);
    try {
      const response = await client.send<T>({ ...request, etag: entry?.value !== undefined ? entry.etag : null });
      if (response.status === 304 && entry) {
        return this.confirm(key, entry, response.snapshotId ?? (pinned ? null : snapshots.current)) as T;
      }
      snapshots.note(response.body);
      const snapshotId = snapshotOf(response.body) ?? (pinned ? null : snapshots.current);
      // A pinned answer names its own snapshot, not the one the service serves now.
      if (snapshotOf(response.body) && !pinned) snapshots.current = snapshotId;
      cache.set(key, { value: response.body, etag: response.etag, snapshotId });
      return response.body as T;
    } catch (err) {
      // "Does not exist" (404) and "no such place" (400) are answers too: remembering them keeps a
      // typo from making a request on every recalculation. A refresh revalidates them like any
      // other result.
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
        cache.set(key, { error: cachedError(err), snapshotId: snapshots.current });
      }
      throw err;
    }
  }

  /** The copy held for `key` to revalidate with: its own, else the same request's for another snapshot. */
  heldCopy(key: string): CacheEntry | undefined {
    const own = this.cache.peek(key);
    return own?.value !== undefined ? own : (this.sibling(key) ?? own);
  }

  /**
   * The newest copy of the same request pinned otherwise (to another snapshot, or to none):
   * ETags validate content whatever snapshot it came from, so pinning a workbook, or moving it
   * to the latest, revalidates what it holds instead of fetching it again.
   */
  private sibling(key: string): CacheEntry | undefined {
    const base = unpinnedKey(key);
    let best: CacheEntry | undefined;
    for (const entry of this.cache.list()) {
      if (entry.key === key || entry.value === undefined || !entry.etag || unpinnedKey(entry.key) !== base) continue;
      if (!best || entry.fetchedAt > best.fetchedAt) best = entry;
    }
    return best;
  }

  /**
   * A 304 for `held` from snapshot `snapshotId`: the content is the same, so the copy is kept
   * (or copied to `key`, when it was another pin's), restamped with that snapshot where the
   * answer names one. Returns the value now held.
   */
  confirm(key: string, held: CacheEntry, snapshotId: string | null): unknown {
    const value = snapshotId ? this.snapshots.restamp(held.value, snapshotId) : held.value;
    if (held.key === key && value === held.value) this.cache.revalidated(key, snapshotId);
    else this.cache.set(key, { value, etag: held.etag, snapshotId });
    return value;
  }
}

/** A refusal as the cache keeps it: enough to give the same answer again, a place's fields and suggestions included. */
export function cachedError(err: ApiError): CachedError {
  const { suggestions, parameter, place, accepted_kinds, match_count } = err.extensions;
  const kept: CachedError = { status: err.status, code: err.code, message: err.message, requestId: err.requestId };
  if (Array.isArray(suggestions) && suggestions.length > 0) kept.suggestions = suggestions.map(String);
  const fields: PlaceProblemFields = { parameter, place, accepted_kinds, match_count };
  const held = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (held.length > 0) kept.place = Object.fromEntries(held);
  return kept;
}

/** A cached entry's value, or its remembered refusal thrown again. */
export function unwrap<T>(entry: CacheEntry): T {
  const e = entry.error;
  if (e) {
    const extensions = { ...e.place, ...(e.suggestions ? { suggestions: e.suggestions } : {}) };
    throw new ApiError(e.status, e.code, e.message, e.requestId, [], { extensions });
  }
  return entry.value as T;
}
