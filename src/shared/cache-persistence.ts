// Keeps the result cache in OfficeRuntime.storage, so reopening a workbook recalculates from
// the cache instead of the service. Storage is small (10 MB per domain, shared with other
// add-ins), so only the most recently used entries that fit a budget are written, as one item,
// a moment after the cache changes. Storage failures are logged and ignored: the cache is an
// optimisation, never a reason for a cell to fail.
import type { CacheEntry, ResultCache } from "./result-cache";
import type { KeyValueStorage } from "./settings";

export const CACHE_STORAGE_KEY = "prop.cache.v1";
/** Characters of JSON written to storage at most (about 4 MB as UTF-16). */
export const DEFAULT_STORAGE_BUDGET_CHARS = 2_000_000;
const SAVE_DELAY_MS = 1000;

interface StoredEntry {
  k: string;
  v?: unknown;
  e?: CacheEntry["error"];
  t: string | null;
  s: string | null;
  f: number;
  x?: 1;
}

export class CachePersistence {
  private loading: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly cache: ResultCache,
    private readonly storage: () => KeyValueStorage | null,
    private readonly budgetChars: number = DEFAULT_STORAGE_BUDGET_CHARS,
  ) {
    cache.onChange(() => this.schedule());
  }

  /** Loads the stored entries once; later calls return the same promise. */
  load(): Promise<void> {
    this.loading ??= this.read();
    return this.loading;
  }

  /** Writes now (the pane calls it before the workbook closes; tests and the benchmark too). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.saving = this.saving.then(() => this.write());
    await this.saving;
  }

  /**
   * Forgets the stored copy (with the in-memory cache, when the connection changes). A save
   * still pending is dropped and one under way is waited for, so neither writes the cache back
   * after it was removed.
   */
  async clear(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const storage = this.storage();
    if (!storage) return;
    this.saving = this.saving.then(() =>
      storage.removeItem(CACHE_STORAGE_KEY).catch((err: unknown) => console.warn("PROP cache: could not clear storage", err)),
    );
    await this.saving;
  }

  private schedule(): void {
    if (this.timer || !this.storage()) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, SAVE_DELAY_MS);
    // Under Node (tests, the benchmark) a pending save must not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async read(): Promise<void> {
    const storage = this.storage();
    if (!storage) return;
    try {
      const text = await storage.getItem(CACHE_STORAGE_KEY);
      if (!text) return;
      const stored = JSON.parse(text) as { v: number; entries: StoredEntry[] };
      if (stored.v !== 1 || !Array.isArray(stored.entries)) return;
      this.cache.restore(stored.entries.map(fromStored));
    } catch (err) {
      console.warn("PROP cache: stored results unreadable, starting empty", err);
    }
  }

  private async write(): Promise<void> {
    const storage = this.storage();
    if (!storage) return;
    // Most recently used first, until the budget is spent; written back in LRU order.
    const kept: StoredEntry[] = [];
    let chars = 0;
    const entries = this.cache.list();
    for (let i = entries.length - 1; i >= 0; i--) {
      if (chars + entries[i].size > this.budgetChars) continue;
      chars += entries[i].size;
      kept.push(toStored(entries[i]));
    }
    try {
      await storage.setItem(CACHE_STORAGE_KEY, JSON.stringify({ v: 1, entries: kept.reverse() }));
    } catch (err) {
      console.warn("PROP cache: could not save results to storage", err);
    }
  }
}

function toStored(entry: CacheEntry): StoredEntry {
  return {
    k: entry.key,
    ...(entry.error ? { e: entry.error } : { v: entry.value }),
    t: entry.etag,
    s: entry.snapshotId,
    f: entry.fetchedAt,
    ...(entry.stale ? { x: 1 as const } : {}),
  };
}

function fromStored(stored: StoredEntry): CacheEntry {
  const size = stored.k.length + JSON.stringify(stored.v ?? stored.e ?? null).length;
  return {
    key: stored.k,
    ...(stored.e ? { error: stored.e } : { value: stored.v }),
    etag: stored.t,
    snapshotId: stored.s,
    fetchedAt: stored.f,
    stale: stored.x === 1,
    size,
  };
}
