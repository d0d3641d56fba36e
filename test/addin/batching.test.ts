// Sharing and batching: identical concurrent calls make one request, a cancelled caller stops
// waiting without cancelling the others, and point calls for many properties are fetched 25
// at a time; a failed batch rejects every entry in it.
import { SharedRequests } from "../../src/shared/shared-requests";
import { Batcher, type BatchOutcome } from "../../src/shared/batcher";
import { ApiError } from "../../src/shared/api-error";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

test("identical concurrent calls share one request", async () => {
  const shared = new SharedRequests();
  const answer = deferred<string>();
  const start = jest.fn(() => answer.promise);
  const calls = [shared.run("k", start), shared.run("k", start), shared.run("k", start)];
  expect(start).toHaveBeenCalledTimes(1);
  answer.resolve("v");
  await expect(Promise.all(calls)).resolves.toEqual(["v", "v", "v"]);
  expect(shared.size).toBe(0);
  // Once settled, the next call starts afresh (the cache, not this, answers repeats).
  shared.run("k", async () => "w");
  expect(shared.size).toBe(1);
});

test("a cancelled caller stops waiting; the request is aborted only when every caller has gone", async () => {
  const shared = new SharedRequests();
  let signal!: AbortSignal;
  const answer = deferred<string>();
  const start = (s: AbortSignal) => ((signal = s), answer.promise);
  const one = new AbortController();
  const two = new AbortController();
  const first = shared.run("k", start, one.signal);
  const second = shared.run("k", start, two.signal);
  one.abort();
  await expect(first).rejects.toMatchObject({ code: "aborted" });
  expect(signal.aborted).toBe(false);
  two.abort();
  await expect(second).rejects.toMatchObject({ code: "aborted" });
  expect(signal.aborted).toBe(true);
  answer.resolve("late");
});

function records(ids: string[]): Map<string, BatchOutcome> {
  return new Map(ids.map((id) => [id, { record: { id } }]));
}

test("point calls for 100 distinct properties, 1,000 calls in all, become 4 batches of 25", async () => {
  const batches: string[][] = [];
  const batcher = new Batcher({ maxBatch: 25, fetchBatch: async (ids: string[]) => (batches.push(ids), records(ids)), windowMs: 5 });
  const calls = Array.from({ length: 1000 }, (_, i) => batcher.load(`cp_${i % 100}`));
  const results = await Promise.all(calls);
  expect(results[137]).toEqual({ id: "cp_37" });
  expect(batches.map((b) => b.length)).toEqual([25, 25, 25, 25]);
  expect(new Set(batches.flat()).size).toBe(100);
});

test("ids arriving within the window share a batch; a later one starts the next", async () => {
  const batches: string[][] = [];
  const batcher = new Batcher({ maxBatch: 25, fetchBatch: async (ids: string[]) => (batches.push(ids), records(ids)), windowMs: 20 });
  const early = [batcher.load("cp_1"), batcher.load("cp_2")];
  await Promise.all(early);
  await batcher.load("cp_3");
  expect(batches).toEqual([["cp_1", "cp_2"], ["cp_3"]]);
});

test("a failed batch rejects every entry in it; a missing id is an error of its own", async () => {
  const failing = new Batcher({
    maxBatch: 25,
    fetchBatch: async () => Promise.reject(new ApiError(0, "network_error", "down")),
    windowMs: 1,
  });
  const results = await Promise.allSettled([failing.load("cp_1"), failing.load("cp_2"), failing.load("cp_1")]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
  expect(results.map((r) => (r as PromiseRejectedResult).reason)).toEqual(
    [0, 1, 2].map(() => expect.objectContaining({ code: "network_error" })),
  );

  const partial = new Batcher({ maxBatch: 25, fetchBatch: async () => records(["cp_1"]), windowMs: 1 });
  await expect(partial.load("cp_2")).rejects.toMatchObject({ code: "invalid_response" });
});

test("an id every caller cancelled before the batch left is not fetched", async () => {
  const batches: string[][] = [];
  const batcher = new Batcher({ maxBatch: 25, fetchBatch: async (ids: string[]) => (batches.push(ids), records(ids)), windowMs: 10 });
  const cancel = new AbortController();
  const dropped = batcher.load("cp_1", cancel.signal);
  const kept = batcher.load("cp_2");
  cancel.abort();
  await expect(dropped).rejects.toMatchObject({ code: "aborted" });
  await kept;
  expect(batches).toEqual([["cp_2"]]);
});
