// Batches point calls for many properties into few requests. A model with a thousand
// =PROP.PROPERTY cells over a hundred properties asks for each property many times in the
// same calculation; the batcher collects the distinct ids asked for within a short window and
// fetches them 25 at a time (the compare endpoint's limit), so the first calculation costs
// one request per 25 distinct properties instead of one per cell.
import { ApiError } from "./api-error";

/** What one fetch of a batch gives for each id: the record, or why there is none. */
export type BatchOutcome = { record: Record<string, unknown> } | { error: ApiError };

export interface BatcherOptions {
  /** Fetches up to `maxBatch` distinct ids; must settle every id it was given. */
  fetchBatch: (ids: string[]) => Promise<Map<string, BatchOutcome>>;
  /** How long to collect ids after the first one arrives. */
  windowMs?: number;
  maxBatch?: number;
}

interface Waiter {
  resolve: (record: Record<string, unknown>) => void;
  reject: (err: unknown) => void;
}

export const MAX_BATCH = 25;
const DEFAULT_WINDOW_MS = 10;

export class PropertyBatcher {
  private pending = new Map<string, Waiter[]>();
  /** Ids in a batch on its way: a call for one of them waits for that batch. */
  private readonly inFlight = new Map<string, Waiter[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly windowMs: number;
  private readonly maxBatch: number;
  /** Requests sent so far (for tests and the benchmark). */
  batchesSent = 0;

  constructor(private readonly options: BatcherOptions) {
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.maxBatch = options.maxBatch ?? MAX_BATCH;
  }

  load(id: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new ApiError(0, "aborted", "The request was cancelled."));
      const waiter: Waiter = { resolve, reject };
      const sent = this.inFlight.get(id);
      if (sent) return void sent.push(waiter);
      const waiters = this.pending.get(id) ?? [];
      waiters.push(waiter);
      this.pending.set(id, waiters);
      // A cancelled cell stops waiting; an id nobody waits for any more is not fetched.
      signal?.addEventListener(
        "abort",
        () => {
          const list = this.pending.get(id);
          if (!list?.includes(waiter)) return;
          list.splice(list.indexOf(waiter), 1);
          if (list.length === 0) this.pending.delete(id);
          reject(new ApiError(0, "aborted", "The request was cancelled."));
        },
        { once: true },
      );
      if (this.pending.size >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  /** Sends what is pending now, in batches of at most `maxBatch` ids. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    const ids = [...batch.keys()];
    for (const [id, waiters] of batch) this.inFlight.set(id, waiters);
    for (let i = 0; i < ids.length; i += this.maxBatch) {
      void this.send(ids.slice(i, i + this.maxBatch));
    }
  }

  private async send(ids: string[]): Promise<void> {
    this.batchesSent++;
    let outcomes: Map<string, BatchOutcome>;
    try {
      outcomes = await this.options.fetchBatch(ids);
    } catch (err) {
      // A batch that fails rejects every entry in it: no cell is left pending.
      for (const id of ids) for (const w of this.settle(id)) w.reject(err);
      return;
    }
    for (const id of ids) {
      const outcome = outcomes.get(id) ?? { error: new ApiError(0, "invalid_response", `The service's answer left out ${id}.`) };
      for (const w of this.settle(id)) {
        if ("record" in outcome) w.resolve(outcome.record);
        else w.reject(outcome.error);
      }
    }
  }

  /** The waiters of an id whose batch has come back (the id is no longer in flight). */
  private settle(id: string): Waiter[] {
    const waiters = this.inFlight.get(id) ?? [];
    this.inFlight.delete(id);
    return waiters;
  }
}
