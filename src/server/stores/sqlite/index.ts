// The embedded default store: accounts, keys, sessions and credits in one SQLite accounts
// database, credits and rate limits held in this process's memory (credits.ts says why that is
// exact for one process). For one service process; several share PostgreSQL (stores/postgres/).
import type Database from "better-sqlite3";
import type { ServiceStores } from "../service-stores";
import { AccountStore } from "./accounts";
import { openAccountsDb } from "./accounts-db";
import { authLimiters } from "./attempt-limiter";
import { CreditLedger } from "./credits";
import { KeyStore } from "./keys";
import { RateLimiter } from "./rate-limiter";
import { SessionStore } from "./sessions";

export interface SqliteStoreOptions {
  now?: () => Date;
  /** What the ledger cannot write now and retries later (logged by the caller). */
  onError?: (err: unknown) => void;
}

export interface SqliteStores extends ServiceStores {
  accounts: AccountStore;
  keys: KeyStore;
  sessions: SessionStore;
  credits: CreditLedger;
  /** The accounts database the stores are over. */
  db: Database.Database;
}

/**
 * The stores over an open accounts database. `close` writes the last charges and leaves the
 * database open: it is the caller's (see openSqliteStores for both).
 */
export function sqliteStores(db: Database.Database, pepper: Buffer, opts: SqliteStoreOptions = {}): SqliteStores {
  const now = opts.now;
  const nowMs = now ? () => now().getTime() : Date.now;
  const credits = new CreditLedger(db, now, opts.onError);
  return {
    accounts: new AccountStore(db, now),
    keys: new KeyStore(db, pepper, now),
    sessions: new SessionStore(db, now),
    authLimits: authLimiters(nowMs),
    credits,
    rateLimits: new RateLimiter(nowMs),
    db,
    close: () => credits.flush(),
  };
}

/** Opens (and migrates) the accounts database at `path` and its stores; `close` writes the last charges and closes it. */
export function openSqliteStores(path: string, pepper: Buffer, opts: SqliteStoreOptions = {}): SqliteStores {
  const stores = sqliteStores(openAccountsDb(path), pepper, opts);
  return {
    ...stores,
    close: () => {
      stores.credits.flush();
      stores.db.close();
    },
  };
}
