// The pacer keeps the add-in's requests within the key's rate limit, read from the service's
// RateLimit-Policy, RateLimit and Retry-After headers, with a bounded queue.
import { MAX_IN_FLIGHT, RequestPacer, parseRatePolicy, parseRateRemaining } from "../../src/shared/request-pacer";

const headers = (h: Record<string, string>) => new Headers(h);
const advertised = (remaining: number, policy = '"burst";q=3;w=3') =>
  headers({ "ratelimit-policy": policy, ratelimit: `"burst";r=${remaining};t=1` });

beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-23T12:00:00Z") }));
afterEach(() => jest.useRealTimers());

/** Starts `n` acquisitions and reports which have been granted so far. */
function contenders(pacer: RequestPacer, n: number, signal?: AbortSignal) {
  const granted: number[] = [];
  const failed: unknown[] = [];
  const all = Array.from({ length: n }, (_, i) =>
    pacer.acquire(signal).then(
      () => void granted.push(i),
      (e) => void failed.push(e),
    ),
  );
  return { granted, failed, all };
}

test("the IETF fields are read: policy (bucket size, seconds to refill) and calls left", () => {
  expect(parseRatePolicy('"burst";q=60;w=6')).toEqual({ burst: 60, windowSeconds: 6 });
  expect(parseRatePolicy(null)).toBeNull();
  expect(parseRatePolicy('"burst";q=0;w=6')).toBeNull();
  expect(parseRateRemaining('"burst";r=41;t=2')).toBe(41);
  expect(parseRateRemaining("garbage")).toBeNull();
});

test("until an answer tells the policy, one request at a time; then as many as the bucket and the slots allow", async () => {
  const pacer = new RequestPacer();
  const c = contenders(pacer, 10);
  await Promise.resolve();
  expect(c.granted).toEqual([0]);
  pacer.observe(advertised(59, '"burst";q=60;w=6'), 200, null);
  pacer.release();
  await jest.advanceTimersByTimeAsync(0);
  expect(c.granted).toHaveLength(1 + MAX_IN_FLIGHT);
});

test("past the burst, a request waits for the bucket to refill at the advertised rate", async () => {
  const pacer = new RequestPacer();
  await pacer.acquire();
  pacer.observe(advertised(2), 200, null); // 3 a bucket, refilled in 3 s: one a second
  pacer.release();
  const c = contenders(pacer, 4);
  for (let i = 0; i < 4; i++) {
    await jest.advanceTimersByTimeAsync(0);
    pacer.release();
  }
  expect(c.granted).toEqual([0, 1]);
  expect(pacer.waiting).toBe(2);
  await jest.advanceTimersByTimeAsync(999);
  expect(c.granted).toHaveLength(2);
  await jest.advanceTimersByTimeAsync(2);
  expect(c.granted).toHaveLength(3);
  await jest.advanceTimersByTimeAsync(1000);
  expect(c.granted).toHaveLength(4);
  expect(pacer.waited).toBe(2);
});

test("an answer reporting fewer calls left (another workbook on the key) lowers the local count", async () => {
  const pacer = new RequestPacer();
  await pacer.acquire();
  pacer.observe(advertised(0, '"burst";q=10;w=10'), 200, null);
  pacer.release();
  const c = contenders(pacer, 1);
  await jest.advanceTimersByTimeAsync(500);
  expect(c.granted).toEqual([]);
  await jest.advanceTimersByTimeAsync(600);
  expect(c.granted).toEqual([0]);
});

test("a 429's Retry-After holds every request back until it has passed", async () => {
  const pacer = new RequestPacer();
  await pacer.acquire();
  pacer.observe(headers({ "ratelimit-policy": '"burst";q=60;w=6', ratelimit: '"burst";r=0;t=6' }), 429, 2000);
  pacer.release();
  const c = contenders(pacer, 3);
  await jest.advanceTimersByTimeAsync(1999);
  expect(c.granted).toEqual([]);
  await jest.advanceTimersByTimeAsync(2);
  expect(c.granted.length).toBeGreaterThan(0);
});

test("the queue is bounded: past it, a request is refused at once with a reason", async () => {
  const pacer = new RequestPacer({ maxQueue: 2 });
  await pacer.acquire(); // in flight, policy unknown: the rest queue
  const c = contenders(pacer, 3);
  await Promise.resolve();
  expect(c.failed).toEqual([expect.objectContaining({ code: "queue_full", message: expect.stringMatching(/2 requests waiting/) })]);
  expect(pacer.waiting).toBe(2);
});

test("a cancelled request leaves the queue at once", async () => {
  const pacer = new RequestPacer();
  await pacer.acquire();
  const controller = new AbortController();
  const c = contenders(pacer, 2, controller.signal);
  controller.abort();
  await Promise.all(c.all);
  expect(c.failed).toEqual([expect.objectContaining({ code: "aborted" }), expect.objectContaining({ code: "aborted" })]);
  expect(pacer.waiting).toBe(0);
  await expect(pacer.acquire(controller.signal)).rejects.toMatchObject({ code: "aborted" });
});

test("a service that advertises no policy is paced by the in-flight limit alone", async () => {
  const pacer = new RequestPacer({ maxInFlight: 3 });
  await pacer.acquire();
  pacer.observe(headers({}), 200, null);
  pacer.release();
  const c = contenders(pacer, 5);
  await jest.advanceTimersByTimeAsync(0);
  expect(c.granted).toHaveLength(3);
  pacer.release();
  await jest.advanceTimersByTimeAsync(0);
  expect(c.granted).toHaveLength(4);
});
