// The service's mutable state, as the interfaces in auth/stores.ts and credits/stores.ts: the
// embedded default over the SQLite accounts database (one process), or PostgreSQL shared by
// several processes (postgres/, selected with DATABASE_URL). The app takes either.
import type Database from "better-sqlite3";
import { authLimiters } from "./auth/attempt-limiter";
import { KeyStore } from "./auth/key-store";
import { SessionStore } from "./auth/sessions";
import type { ApiKeys, AuthLimits, Sessions } from "./auth/stores";
import { CreditLedger } from "./credits/credit-ledger";
import { RateLimiter } from "./credits/rate-limiter";
import type { Credits, RateLimits } from "./credits/stores";
import type { MaybePromise } from "./db/maybe-promise";
import type { StoreHealth } from "./db/store-outage";

export interface ServiceStores {
  /** API keys, and through them the accounts. */
  keys: ApiKeys;
  sessions: Sessions;
  authLimits: AuthLimits;
  credits: Credits;
  rateLimits: RateLimits;
  /** Whether the store answers now, for /healthz (bounded by the store's timeouts); the embedded store has no such check. */
  health?(): Promise<StoreHealth>;
  /** Writes what is waiting and lets go of the database (the app calls it when it closes). */
  close(): MaybePromise<void>;
}

/**
 * The embedded default: everything in one SQLite accounts database, credits and rate limits held
 * in this process's memory (credits/credit-ledger.ts says why that is exact for one process).
 * The caller owns the database and closes it.
 */
export function sqliteStores(
  accountsDb: Database.Database,
  pepper: Buffer,
  opts: { now?: () => Date; onLedgerError?: (err: unknown) => void } = {},
): ServiceStores & { keys: KeyStore; sessions: SessionStore; credits: CreditLedger } {
  const now = opts.now;
  const nowMs = now ? () => now().getTime() : Date.now;
  const credits = new CreditLedger(accountsDb, now, opts.onLedgerError);
  return {
    keys: new KeyStore(accountsDb, pepper, now),
    sessions: new SessionStore(accountsDb, now),
    authLimits: authLimiters(nowMs),
    credits,
    rateLimits: new RateLimiter(nowMs),
    close: () => credits.flush(),
  };
}
