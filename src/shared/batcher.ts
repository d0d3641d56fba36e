// Batches point calls into few requests. A model with a thousand =PROP.PROPERTY cells over a
// hundred properties asks for each property many times in the same calculation, and a grid of
// =PROP.MARKET cells asks for hundreds of markets at once; the batcher collects the distinct
// keys (property ids, markets) asked for within a short window and fetches them `maxBatch` at a
// time, so the first calculation costs one request per batch instead of one per cell.
// (DataLoader does the same collecting, but not a batch that fails entry by entry, which a
// batch endpoint answering some keys and refusing others needs.)
import { ApiError } from "./api-error";

/** What one fetch of a batch gives for each key: the record, or why there is none. */
export type BatchOutcome = { record: Record<string, unknown> } | { error: ApiError };

export interface BatcherOptions {
  /** Fetches up to `maxBatch` distinct keys; must settle every key it was given. */
  fetchBatch: (keys: string[]) => Promise<Map<string, BatchOutcome>>;
  /** How long to collect keys after the first one arrives. */
  windowMs?: number;
  maxBatch: number;
}

interface Waiter {
  resolve: (record: Record<string, unknown>) => void;
  reject: (err: unknown) => void;
}

const DEFAULT_WINDOW_MS = 10;

export class Batcher {
  private pending = new Map<string, Waiter[]>();
  /** Keys in a batch on its way: a call for one of them waits for that batch. */
  private readonly inFlight = new Map<string, Waiter[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly windowMs: number;
  private readonly maxBatch: number;
  /** Requests sent so far (for tests and the benchmark). */
  batchesSent = 0;

  constructor(private readonly options: BatcherOptions) {
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.maxBatch = options.maxBatch;
  }

  load(key: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new ApiError(0, "aborted", "The request was cancelled."));
      const waiter: Waiter = { resolve, reject };
      const sent = this.inFlight.get(key);
      if (sent) return void sent.push(waiter);
      const waiters = this.pending.get(key) ?? [];
      waiters.push(waiter);
      this.pending.set(key, waiters);
      // A cancelled cell stops waiting; a key nobody waits for any more is not fetched.
      signal?.addEventListener(
        "abort",
        () => {
          const list = this.pending.get(key);
          if (!list?.includes(waiter)) return;
          list.splice(list.indexOf(waiter), 1);
          if (list.length === 0) this.pending.delete(key);
          reject(new ApiError(0, "aborted", "The request was cancelled."));
        },
        { once: true },
      );
      if (this.pending.size >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  /** Sends what is pending now, in batches of at most `maxBatch` keys. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    const keys = [...batch.keys()];
    for (const [key, waiters] of batch) this.inFlight.set(key, waiters);
    for (let i = 0; i < keys.length; i += this.maxBatch) {
      void this.send(keys.slice(i, i + this.maxBatch));
    }
  }

  private async send(keys: string[]): Promise<void> {
    this.batchesSent++;
    let outcomes: Map<string, BatchOutcome>;
    try {
      outcomes = await this.options.fetchBatch(keys);
    } catch (err) {
      // A batch that fails rejects every entry in it: no cell is left pending.
      for (const key of keys) for (const w of this.settle(key)) w.reject(err);
      return;
    }
    for (const key of keys) {
      const outcome = outcomes.get(key) ?? { error: new ApiError(0, "invalid_response", `The service's answer left out ${key}.`) };
      for (const w of this.settle(key)) {
        if ("record" in outcome) w.resolve(outcome.record);
        else w.reject(outcome.error);
      }
    }
  }

  /** The waiters of a key whose batch has come back (the key is no longer in flight). */
  private settle(key: string): Waiter[] {
    const waiters = this.inFlight.get(key) ?? [];
    this.inFlight.delete(key);
    return waiters;
  }
}

/**
 * A batch endpoint's fetch where the service holds the credits of every key while it runs
 * (markets, addresses): when the credits left cannot cover them all (a 402), the keys they cover
 * are asked for again and the rest settle with the 402. How many they cover is the 402's
 * `rows_covered` when it says (a match request, whose free rows cost nothing, so more rows than
 * credits may be covered), else the credits left over `perKey`, what each key costs.
 */
export async function withinCreditsLeft(
  keys: string[],
  fetch: (asked: string[]) => Promise<Map<string, BatchOutcome>>,
  perKey = 1,
): Promise<Map<string, BatchOutcome>> {
  const refused = new Map<string, BatchOutcome>();
  let asked = keys;
  for (;;) {
    try {
      const outcomes = await fetch(asked);
      for (const [key, outcome] of refused) outcomes.set(key, outcome);
      return outcomes;
    } catch (err) {
      const covered = err instanceof ApiError ? coveredKeys(err, perKey) : 0;
      if (!(covered > 0 && covered < asked.length)) throw err;
      for (const key of asked.slice(covered)) refused.set(key, { error: err as ApiError });
      asked = asked.slice(0, covered);
    }
  }
}

/** How many keys, from the first, a 402's credits cover: its rows_covered, else its credits left over the price of one key. */
function coveredKeys(err: ApiError, perKey: number): number {
  const shortfall = err.shortfall;
  if (!shortfall) return 0;
  return shortfall.rowsCovered ?? Math.floor(shortfall.remaining / perKey);
}
