// The service's mutable state as one set of ports (auth/ports.ts, credits/ports.ts): the
// embedded default over the SQLite accounts database, one process (sqlite/), or PostgreSQL shared
// by several processes (postgres/, selected with DATABASE_URL). open-stores.ts opens the one the
// configuration names; the app takes either and never opens one itself.
import type { AccountPorts } from "../auth/ports";
import type { Credits, RateLimits } from "../credits/ports";
import type { MaybePromise } from "../db/maybe-promise";
import type { StoreHealth } from "../db/store-outage";

export interface ServiceStores extends AccountPorts {
  credits: Credits;
  rateLimits: RateLimits;
  /** Whether the store answers now, for /healthz (bounded by the store's timeouts); the embedded store has no such check. */
  health?(): Promise<StoreHealth>;
  /** Writes what is waiting and lets go of the database. Its opener calls it, after the app has closed. */
  close(): MaybePromise<void>;
}
