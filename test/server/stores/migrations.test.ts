// The migration files of both dialects make the same tables with the same columns (names,
// nullability, kind of type), applied to fresh databases: a SQLite file and the test run's
// PostgreSQL. PostgreSQL alone holds what the embedded store keeps in one process's memory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openAccountsDb } from "../../../src/server/stores/sqlite/accounts-db";
import { migrate } from "../../../src/server/stores/postgres/migrations";
import { migrationsOf } from "../../../src/server/stores/migration-files";
import { freshDatabase } from "../../helpers/postgres";

type Columns = Record<string, Record<string, string>>;

/** The kind of a column's type, the same word for both dialects' spelling of it. */
function kindOf(type: string): string {
  const t = type.toLowerCase();
  if (/int|serial/.test(t)) return "integer";
  if (/text|char/.test(t)) return "text";
  if (/blob|bytea/.test(t)) return "bytes";
  if (/double|real|float/.test(t)) return "real";
  if (/bool/.test(t)) return "boolean";
  return t;
}

test("the SQLite and PostgreSQL migrations make the same tables and columns (names, nullability, kind of type)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-migrations-"));
  const sqlite = openAccountsDb(path.join(dir, "accounts.db"));
  const database = await freshDatabase();
  const pool = new pg.Pool({ connectionString: database.url });
  try {
    await migrate(pool);
    const lite: Columns = {};
    const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    for (const table of tables) {
      lite[table] = {};
      for (const c of sqlite.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number }[]) {
        // A primary key column holds no NULL in either store's use; SQLite's schema alone would allow one.
        lite[table][c.name] = `${kindOf(c.type)} ${c.notnull || c.pk ? "not null" : "null"}`;
      }
    }
    const { rows } = await pool.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const pgCols: Columns = {};
    for (const r of rows) {
      (pgCols[r.table_name] ??= {})[r.column_name] = `${kindOf(r.data_type)} ${r.is_nullable === "YES" ? "null" : "not null"}`;
    }
    const onlyPostgres = ["attempt_windows", "key_events", "rate_buckets", "schema_migrations"];
    expect(
      Object.keys(pgCols)
        .filter((t) => !onlyPostgres.includes(t))
        .sort(),
    ).toEqual(Object.keys(lite).sort());
    for (const table of Object.keys(lite)) expect({ table, columns: pgCols[table] }).toEqual({ table, columns: lite[table] });
    // The recorded versions are the number of migration files.
    expect(sqlite.pragma("user_version", { simple: true })).toBe(migrationsOf("sqlite").length);
    const versions = (await pool.query<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version")).rows;
    expect(versions.map((v) => v.version)).toEqual(migrationsOf("postgres").map((m) => m.version));
  } finally {
    sqlite.close();
    await pool.end();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
