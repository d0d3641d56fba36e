// The result cache and its copy in OfficeRuntime.storage: least recently used out first,
// bounded by entries and size, stale only when a refresh finds another snapshot, and stored
// within a budget so reopening a workbook starts warm.
import { ResultCache } from "../../src/shared/result-cache";
import { CACHE_STORAGE_KEY, CachePersistence } from "../../src/shared/cache-persistence";
import { memoryStorage } from "./office-stand-ins";

const entry = (n: number) => ({ value: { n, pad: "x".repeat(10) }, etag: `"e${n}"`, snapshotId: "snap_1" });

test("evicts the least recently used entry first when over its entry limit", () => {
  const cache = new ResultCache({ maxEntries: 3, maxChars: 1e9 });
  cache.set("a", entry(1));
  cache.set("b", entry(2));
  cache.set("c", entry(3));
  cache.get("a"); // a is now the most recently used
  cache.set("d", entry(4));
  expect(cache.list().map((e) => e.key)).toEqual(["c", "a", "d"]);
});

test("is bounded by size too", () => {
  const cache = new ResultCache({ maxEntries: 100, maxChars: 100 });
  for (let n = 0; n < 10; n++) cache.set(`k${n}`, entry(n));
  const kept = cache.list();
  expect(kept.reduce((s, e) => s + e.size, 0)).toBeLessThanOrEqual(100);
  expect(kept.at(-1)?.key).toBe("k9");
});

test("marks stale only entries not from the given snapshot; a 304 makes one current again", () => {
  let now = 1000;
  const cache = new ResultCache(undefined, () => now);
  cache.set("old", { value: 1, etag: '"1"', snapshotId: "snap_1" });
  cache.set("new", { value: 2, etag: '"2"', snapshotId: "snap_2" });
  cache.set("unknown", { value: 3, etag: '"3"', snapshotId: null });
  expect(cache.markStaleUnless("snap_2")).toBe(2);
  expect(
    cache
      .list()
      .filter((e) => e.stale)
      .map((e) => e.key),
  ).toEqual(["old", "unknown"]);
  now = 5000;
  cache.revalidated("old", "snap_2");
  expect(cache.peek("old")).toMatchObject({ stale: false, fetchedAt: 5000, snapshotId: "snap_2", value: 1 });
});

test("stored entries come back in a new session, most recent within the storage budget", async () => {
  const storage = memoryStorage();
  const cache = new ResultCache();
  const persistence = new CachePersistence(cache, () => storage, 120);
  for (let n = 0; n < 5; n++) cache.set(`k${n}`, entry(n));
  cache.set("gone", { error: { status: 404, code: "not_found", message: "No such property.", requestId: "req_1" }, snapshotId: "snap_1" });
  await persistence.flush();
  expect(storage.items.get(CACHE_STORAGE_KEY)!.length).toBeLessThan(600);

  const reopened = new ResultCache();
  await new CachePersistence(reopened, () => storage).load();
  const keys = reopened.list().map((e) => e.key);
  // The newest entries fit; the oldest did not.
  expect(keys).toContain("gone");
  expect(keys).toContain("k4");
  expect(keys).not.toContain("k0");
  expect(reopened.peek("k4")).toMatchObject({ value: { n: 4 }, etag: '"e4"', snapshotId: "snap_1", stale: false });
  expect(reopened.peek("gone")?.error).toEqual({ status: 404, code: "not_found", message: "No such property.", requestId: "req_1" });
});

test("clearing (sign out) removes the stored copy for good: no save pending or under way writes it back", async () => {
  jest.useFakeTimers();
  try {
    const storage = memoryStorage();
    const cache = new ResultCache();
    const persistence = new CachePersistence(cache, () => storage);
    cache.set("k1", entry(1));
    await persistence.flush();
    // A change schedules a save; the sign out clears the cache (another change) and the store.
    cache.set("k2", entry(2));
    cache.clear();
    await persistence.clear();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(storage.items.has(CACHE_STORAGE_KEY)).toBe(false);
    // A save already under way finishes before the removal.
    cache.set("k3", entry(3));
    const saving = persistence.flush();
    await persistence.clear();
    await saving;
    expect(storage.items.has(CACHE_STORAGE_KEY)).toBe(false);
  } finally {
    jest.useRealTimers();
  }
});

test("unreadable or failing storage never breaks the cache", async () => {
  const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
  const broken = memoryStorage({ [CACHE_STORAGE_KEY]: "{not json" });
  const cache = new ResultCache();
  await new CachePersistence(cache, () => broken).load();
  expect(cache.size).toBe(0);
  const full = { ...memoryStorage(), setItem: async () => Promise.reject(new Error("quota")) };
  const persistence = new CachePersistence(cache, () => full);
  cache.set("a", entry(1));
  await expect(persistence.flush()).resolves.toBeUndefined();
  expect(warn).toHaveBeenCalledTimes(2);
  // The cache itself still answers.
  expect(cache.get("a")).toMatchObject({ value: { n: 1 }, etag: '"e1"' });
  warn.mockRestore();
});

test("without OfficeRuntime.storage (a plain browser) there is nothing to load or save", async () => {
  const cache = new ResultCache();
  const persistence = new CachePersistence(cache, () => null);
  cache.set("a", entry(1));
  await expect(persistence.load()).resolves.toBeUndefined();
  await expect(persistence.flush()).resolves.toBeUndefined();
  expect(cache.size).toBe(1);
});
