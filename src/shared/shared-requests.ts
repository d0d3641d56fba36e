// Identical concurrent calls share one request. A spreadsheet asks for the same thing from
// many cells at once (the same market in twenty formulas); the first caller starts the
// request and the others wait on it. A caller that is cancelled stops waiting at once; the
// request itself is aborted only when every caller waiting on it has been cancelled.
import { ApiError } from "./api-error";

interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

export class SharedRequests {
  private readonly inFlight = new Map<string, InFlight>();

  /** How many distinct requests are running now. */
  get size(): number {
    return this.inFlight.size;
  }

  has(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** Runs `start` for `key`, or joins the run already going. */
  run<T>(key: string, start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    let flight = this.inFlight.get(key);
    if (!flight) {
      const controller = new AbortController();
      const promise = start(controller.signal).finally(() => {
        if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
      });
      flight = { promise, controller, waiters: 0 };
      this.inFlight.set(key, flight);
    }
    return this.wait(flight, signal) as Promise<T>;
  }

  /** Joins the run for `key` if there is one; undefined otherwise. */
  join<T>(key: string, signal?: AbortSignal): Promise<T> | undefined {
    const flight = this.inFlight.get(key);
    return flight ? (this.wait(flight, signal) as Promise<T>) : undefined;
  }

  private wait(flight: InFlight, signal?: AbortSignal): Promise<unknown> {
    flight.waiters++;
    if (!signal) return flight.promise;
    return new Promise((resolve, reject) => {
      let done = false;
      const leave = () => {
        if (done) return;
        done = true;
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        if (done) return;
        leave();
        if (--flight.waiters === 0) flight.controller.abort();
        reject(new ApiError(0, "aborted", "The request was cancelled."));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      flight.promise.then(
        (value) => {
          leave();
          resolve(value);
        },
        (err: unknown) => {
          leave();
          reject(err);
        },
      );
    });
  }
}
