// Brings the PostgreSQL schema up to date from migrations/postgres/*.sql. Each runs once, in one
// transaction with the others, recorded in schema_migrations; processes that start together take
// an advisory lock, so one of them migrates and the others find the work done.
import type pg from "pg";
import { migrationsOf } from "../migration-files";
import { inTransaction } from "./transaction";

/** Any fixed number: the advisory lock every process of this service takes to migrate. */
const MIGRATION_LOCK = 4_815_162_342;

/** Brings the database's schema up to date; safe to run from several processes at once. */
export function migrate(pool: pg.Pool): Promise<void> {
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ version: number }>("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((r) => r.version));
    for (const m of migrationsOf("postgres")) {
      if (applied.has(m.version)) continue;
      await client.query(m.sql);
      await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [m.version]);
    }
  });
}
