// The SQLite accounts database: accounts, API keys, sessions and credits, the embedded
// default's only mutable state, kept apart from the immutable snapshot files. Its schema is
// migrations/sqlite/*.sql, each applied once in its own transaction, the last applied version
// recorded in PRAGMA user_version.
import Database from "better-sqlite3";
import { migrationsOf } from "../migration-files";

export function openAccountsDb(path: string): Database.Database {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrateSqlite(db);
  return db;
}

/** Applies the migrations the database has not had yet, in order. */
export function migrateSqlite(db: Database.Database): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  for (const m of migrationsOf("sqlite")) {
    if (m.version <= version) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
