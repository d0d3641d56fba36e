// The schema migrations of the accounts store, as SQL files per dialect in migrations/<dialect>/,
// named NNN_what.sql and applied in order. Each adapter records the last version it applied its
// own way (SQLite: PRAGMA user_version; PostgreSQL: the schema_migrations table). A migration is
// never edited once released: a change is a new file at the end. The files ship beside the
// compiled server (scripts/copy-web-assets.js copies them).
import fs from "node:fs";
import path from "node:path";

export type Dialect = "sqlite" | "postgres";

export interface Migration {
  /** 1 for 001_*.sql, and so on: the version recorded once it is applied. */
  version: number;
  /** The file name. */
  name: string;
  sql: string;
}

/** Where the migration files are: beside this module, in the source tree and in the build alike. */
export const MIGRATIONS_DIR = path.join(__dirname, "migrations");

const FILE_NAME = /^(\d{3})_[a-z0-9_]+\.sql$/;

/** The dialect's migrations in order; throws when a file is misnamed or a version is missing or doubled. */
export function migrationsOf(dialect: Dialect, dir = path.join(MIGRATIONS_DIR, dialect)): Migration[] {
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".sql"))
    .sort();
  return names.map((name, i) => {
    const match = FILE_NAME.exec(name);
    if (!match) throw new Error(`Migration file ${path.join(dir, name)} must be named NNN_what.sql (lower case).`);
    const version = Number(match[1]);
    if (version !== i + 1)
      throw new Error(`Migration ${path.join(dir, name)} is version ${version}; expected ${i + 1} (one file per version, from 001).`);
    return { version, name, sql: fs.readFileSync(path.join(dir, name), "utf8") };
  });
}
