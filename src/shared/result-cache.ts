// The result cache: one entry per (request, normalised arguments), least recently used first
// out. Each entry is tagged with the snapshot it came from and when it was fetched, and keeps
// the response's ETag so a refresh can revalidate it for free.
//
// Entries are never stale by age: the service's data changes only when its snapshot does, so
// only an explicit refresh (which learns the current snapshot) marks entries stale. That is
// what keeps recalculations Excel starts on its own free of requests. (A general LRU package
// would hold the entries, but not the snapshot tags and ETags that decide what refresh revalidates.)
import type { ProblemExtensions } from "../contract/problem";

/** The fields a place refusal carries besides its suggestions. */
export type PlaceProblemFields = Pick<ProblemExtensions, "parameter" | "place" | "accepted_kinds" | "match_count">;

export interface CachedError {
  status: number;
  code: string;
  message: string;
  requestId: string | null;
  /** Places the service suggested instead (a refused place), so a repeat shows them again. */
  suggestions?: string[];
  /** A refused place's fields (the input that named it, the place as given, ...), so a repeat says the same. */
  place?: PlaceProblemFields;
}

export interface CacheEntry {
  key: string;
  /** The parsed response body (absent for a remembered error). */
  value?: unknown;
  /** A remembered "does not exist" answer (404), so recalculating a typo'd id costs nothing. */
  error?: CachedError;
  etag: string | null;
  /** Snapshot the answer came from; null when it was not known at fetch time. */
  snapshotId: string | null;
  /** Epoch milliseconds of the fetch (or of the last successful revalidation). */
  fetchedAt: number;
  /** Set by a refresh that found another snapshot: the next use revalidates. */
  stale: boolean;
  /** Approximate size in characters, for the memory budget. */
  size: number;
}

export interface CacheLimits {
  maxEntries: number;
  /** Approximate characters of JSON held in memory. */
  maxChars: number;
}

export const DEFAULT_CACHE_LIMITS: CacheLimits = { maxEntries: 5000, maxChars: 20_000_000 };

export class ResultCache {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, CacheEntry>();
  private chars = 0;
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly limits: CacheLimits = DEFAULT_CACHE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry, marked as just used. */
  get(key: string): CacheEntry | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** The entry, without touching its place in the LRU order. */
  peek(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  set(
    key: string,
    fields: { value?: unknown; error?: CachedError; etag?: string | null; snapshotId: string | null; fetchedAt?: number; stale?: boolean },
  ): CacheEntry {
    const size = key.length + JSON.stringify(fields.value ?? fields.error ?? null).length;
    const entry: CacheEntry = {
      key,
      ...(fields.error ? { error: fields.error } : { value: fields.value }),
      etag: fields.etag ?? null,
      snapshotId: fields.snapshotId,
      fetchedAt: fields.fetchedAt ?? this.now(),
      stale: fields.stale ?? false,
      size,
    };
    this.remove(key);
    this.entries.set(key, entry);
    this.chars += size;
    this.evict();
    this.changed();
    return entry;
  }

  /** After a 304: the copy is current as of now, for `snapshotId`. */
  revalidated(key: string, snapshotId: string | null): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.stale = false;
    entry.fetchedAt = this.now();
    if (snapshotId) entry.snapshotId = snapshotId;
    this.changed();
  }

  /** Marks every entry not known to come from `snapshotId` (and not kept by `keep`) as stale; returns how many. */
  markStaleUnless(snapshotId: string, keep: (entry: CacheEntry) => boolean = () => false): number {
    let marked = 0;
    for (const entry of this.entries.values()) {
      if (entry.snapshotId !== snapshotId && !entry.stale && !keep(entry)) {
        entry.stale = true;
        marked++;
      }
    }
    if (marked) this.changed();
    return marked;
  }

  remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.chars -= old.size;
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
    this.changed();
  }

  /** Entries from least to most recently used. */
  list(): CacheEntry[] {
    return [...this.entries.values()];
  }

  /** Puts entries loaded from storage back, behind anything fetched since the add-in started. */
  restore(entries: CacheEntry[]): void {
    const newer = [...this.entries.values()];
    this.entries.clear();
    this.chars = 0;
    for (const entry of [...entries, ...newer]) {
      this.entries.delete(entry.key);
      this.entries.set(entry.key, entry);
    }
    for (const entry of this.entries.values()) this.chars += entry.size;
    this.evict();
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.chars <= this.limits.maxChars) break;
      this.entries.delete(key);
      this.chars -= entry.size;
    }
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }
}
