// Paces the add-in's requests to the key's rate limit, as the service advertises it on every
// answer (`RateLimit-Policy: "burst";q=60;w=6`, `RateLimit: "burst";r=41;t=2`, and
// `Retry-After` on a 429 or 503). A workbook's calculation can start hundreds of requests at
// once; sent as they come, all but the first burst would be refused. Instead each request
// waits for a token of a local copy of the service's bucket, so the cells wait (Excel shows
// #BUSY!) and then settle, and no cell shows a refusal caused by the add-in's own burst.
//
// - Until the first answer says what the policy is, one request is sent at a time; a service
//   that advertises none is paced by the in-flight limit and its Retry-After answers only.
// - The local bucket refills as the service's does; an answer reporting fewer calls left than
//   the local count (another workbook on the same key) lowers the local count to it.
// - At most MAX_IN_FLIGHT requests are on the wire at once (a browser's per-host limit).
// - The queue is bounded: past MAX_QUEUE waiting requests, a new one is refused at once.
import { ApiError } from "./api-error";

export const MAX_IN_FLIGHT = 6;
export const MAX_QUEUE = 2_000;

export interface RatePolicy {
  /** Calls the bucket holds. */
  burst: number;
  /** Seconds to refill it completely. */
  windowSeconds: number;
}

/** `"burst";q=60;w=6` as a policy; null when the header is absent or unreadable. */
export function parseRatePolicy(value: string | null): RatePolicy | null {
  const q = /(?:^|;)\s*q=(\d+)/.exec(value ?? "");
  const w = /(?:^|;)\s*w=(\d+)/.exec(value ?? "");
  if (!q || !w || Number(q[1]) < 1 || Number(w[1]) < 1) return null;
  return { burst: Number(q[1]), windowSeconds: Number(w[1]) };
}

/** The calls left that `"burst";r=41;t=2` reports; null when absent or unreadable. */
export function parseRateRemaining(value: string | null): number | null {
  const r = /(?:^|;)\s*r=(\d+)/.exec(value ?? "");
  return r ? Number(r[1]) : null;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface PacerOptions {
  now?: () => number;
  maxInFlight?: number;
  maxQueue?: number;
}

export class RequestPacer {
  private policy: RatePolicy | null = null;
  /** An answer came without a policy: pace by slots and Retry-After alone. */
  private unadvertised = false;
  /** Calls the local bucket holds, as of `tokensAt`. */
  private tokens = 1;
  private tokensAt: number;
  private inFlight = 0;
  /** No request is sent before this time (a Retry-After). */
  private pausedUntil = 0;
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private readonly maxInFlight: number;
  private readonly maxQueue: number;
  /** Requests that had to wait for a token or a slot (for tests and the benchmark). */
  waited = 0;

  constructor(options: PacerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.maxQueue = options.maxQueue ?? MAX_QUEUE;
    this.tokensAt = this.now();
  }

  /** Requests waiting for their turn. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Waits for a turn to send one request; call `release` once its answer (or failure) is in. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new ApiError(0, "aborted", "The request was cancelled."));
    if (this.queue.length === 0 && this.take()) return Promise.resolve();
    if (this.queue.length >= this.maxQueue) {
      return Promise.reject(
        new ApiError(
          0,
          "queue_full",
          `The add-in already has ${this.maxQueue.toLocaleString("en-US")} requests waiting for the plan's rate limit; calculate again once they have settled.`,
        ),
      );
    }
    this.waited++;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new ApiError(0, "aborted", "The request was cancelled."));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.schedule();
    });
  }

  /** A request's answer (or failure) is in: its slot is free. */
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.drain();
  }

  /** Reads what an answer says about the key's bucket. */
  observe(headers: Headers, status: number, retryAfterMs: number | null): void {
    const policy = parseRatePolicy(headers.get("ratelimit-policy"));
    if (!policy && this.policy === null) this.unadvertised = true;
    if (policy) {
      const first = this.policy === null;
      this.policy = policy;
      this.refill();
      if (first) this.tokens = Math.min(policy.burst, Math.max(this.tokens, policy.burst - this.inFlight));
    }
    const remaining = parseRateRemaining(headers.get("ratelimit"));
    if (remaining !== null) {
      this.refill();
      this.tokens = Math.min(this.tokens, remaining);
    }
    if ((status === 429 || status === 503) && retryAfterMs !== null) {
      this.refill();
      this.tokens = Math.min(this.tokens, 0);
      this.pausedUntil = Math.max(this.pausedUntil, this.now() + retryAfterMs);
    }
    this.drain();
  }

  /** Brings the local bucket up to now at the policy's rate. */
  private refill(): void {
    const now = this.now();
    if (this.policy) {
      const perMs = this.policy.burst / (this.policy.windowSeconds * 1000);
      this.tokens = Math.min(this.policy.burst, this.tokens + (now - this.tokensAt) * perMs);
    }
    this.tokensAt = now;
  }

  /** Takes a token and a slot if both are free now. */
  private take(): boolean {
    if (this.inFlight >= this.maxInFlight || this.now() < this.pausedUntil) return false;
    // Before the policy is known, one request at a time: its answer tells the rest.
    if (this.policy === null) {
      if (this.inFlight > 0 && !this.unadvertised) return false;
      this.inFlight++;
      return true;
    }
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    this.inFlight++;
    return true;
  }

  private drain(): void {
    while (this.queue.length > 0 && this.take()) {
      const waiter = this.queue.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener("abort", waiter.onAbort);
      waiter.resolve();
    }
    this.schedule();
  }

  /** Wakes up when the next token (or the end of a pause) is due, if anyone is waiting for it. */
  private schedule(): void {
    if (this.timer || this.queue.length === 0 || this.inFlight >= this.maxInFlight) return;
    const now = this.now();
    let tokenIn = 0;
    if (this.policy !== null) {
      this.refill();
      const perMs = this.policy.burst / (this.policy.windowSeconds * 1000);
      tokenIn = this.tokens >= 1 ? 0 : (1 - this.tokens) / perMs;
    } else if (!this.unadvertised || this.pausedUntil <= now) {
      return; // an answer in flight will drain the queue
    }
    const delay = Math.max(this.pausedUntil - now, tokenIn, 1);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.drain();
    }, Math.ceil(delay));
  }
}
