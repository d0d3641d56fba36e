// Opens the store the configuration names: PostgreSQL when DATABASE_URL is set, else the SQLite
// accounts database in DATA_DIR. Used by the service (main.ts) and the admin command alike, so
// both always act on the same accounts.
import type Database from "better-sqlite3";
import type { Config } from "./config";
import { openAccountsDb } from "./db/accounts-db";
import { openPostgresStores } from "./postgres";
import type { ServiceStores } from "./stores";

/**
 * Either the SQLite accounts database (the app builds its stores over it, and writes their
 * last charges when it closes) or a store of its own (PostgreSQL).
 */
export type OpenedStores = ({ accountsDb: Database.Database; stores?: undefined } | { stores: ServiceStores; accountsDb?: undefined }) & {
  /** Closes the database: call it after the app has closed. */
  close(): Promise<void>;
};

/** `onError`: what a store cannot write now and retries later (logged by the caller). */
export async function openStores(config: Config, pepper: Buffer, onError: (err: unknown) => void = () => {}): Promise<OpenedStores> {
  if (config.databaseUrl) {
    const stores = await openPostgresStores({ connectionString: config.databaseUrl, pepper, onError, ...config.pgTimeouts });
    return { stores, close: () => stores.close() };
  }
  const accountsDb = openAccountsDb(config.accountsPath);
  return {
    accountsDb,
    close: async () => {
      accountsDb.close();
    },
  };
}
