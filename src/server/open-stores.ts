// Opens the store the configuration names: PostgreSQL when DATABASE_URL is set, else the SQLite
// accounts database in DATA_DIR. Used by the service (main.ts) and the admin command alike, so
// both always act on the same accounts.
import type Database from "better-sqlite3";
import type { Config } from "./config";
import { openPostgresStores } from "./stores/postgres";
import type { ServiceStores } from "./stores/service-stores";
import { openSqliteStores } from "./stores/sqlite";

export interface OpenedStores {
  /** Open and migrated; `stores.close()` writes what waits and closes the database (call it after the app has closed). */
  stores: ServiceStores;
  /** The SQLite accounts database, for its WAL checkpoints; undefined on PostgreSQL. */
  sqliteDb?: Database.Database;
}

/** `onError`: what a store cannot write now and retries later (logged by the caller). */
export async function openStores(config: Config, pepper: Buffer, onError: (err: unknown) => void = () => {}): Promise<OpenedStores> {
  if (config.databaseUrl) {
    return { stores: await openPostgresStores({ connectionString: config.databaseUrl, pepper, onError, ...config.pgTimeouts }) };
  }
  const stores = openSqliteStores(config.accountsPath, pepper, { onError });
  return { stores, sqliteDb: stores.db };
}
