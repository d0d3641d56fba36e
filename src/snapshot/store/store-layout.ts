// The layout of a snapshot store: one SQLite file that answers for every snapshot published into
// it, holding each record once per version of its content rather than once per snapshot.
//
// Every table of a snapshot (records, derived tables, stored documents, meta) has two tables in
// the store:
// - `T`, with the snapshot's own name and columns plus `vfrom`: each row as the latest snapshot
//   holds it, and the version (`store_versions.seq`) since which it has held that content. A row
//   keeps its rowid for as long as its key is in the latest snapshot, so an order by rowid (the
//   order lists and text searches answer in) is the same in every version.
// - `T_old`: the contents a later version replaced or removed, each with `rid` (its rowid in `T`)
//   and `vto`, the first version that no longer holds it.
// A version `k` holds the rows of `T` with `vfrom <= k` and the rows of `T_old` with
// `vfrom <= k < vto` (store-open.ts builds the views that say so). A month that changes 5% of
// the properties adds 5% of `properties` to `properties_old`, and nothing else of them.
//
// Rowids name rows across versions (`rid`, the text indexes, market history's `market`), so a
// store must never be VACUUMed: VACUUM may renumber the rowids of a table without an INTEGER
// PRIMARY KEY. Space freed by retiring versions is reused by the next ones instead. Besides the
// snapshot's own text index over the latest properties, a text index over every version's
// (version-text-index.ts) is keyed by `rid` and the versions that hold each row, so it gives
// any version's matches in `rid` order.
import type Database from "better-sqlite3";
import { UNKEYED_OLD_FTS_TABLE } from "./version-text-index";
import { MATCH_KEYS_TABLE } from "../match-keys";

/** A table of the snapshot as the store versions it. */
export interface VersionedTable {
  name: string;
  /** The snapshot's columns, in their order (without `vfrom`). */
  columns: string[];
  /**
   * The columns that name one row of the table across versions: its primary key, or every column
   * for a table without one (a row of such a table is either kept or replaced as a whole).
   */
  key: string[];
  /** Whether `key` is the table's primary key (else every column, compared as one JSON value). */
  keyed: boolean;
  /** The snapshot's CREATE INDEX statements on this table, to give `T_old` the same indexes. */
  indexes: string[];
}

/**
 * A column holding another table's rowid: the snapshot file's value names that table's row in the
 * file, and the store keeps the rowid the row has in the store (found by the target's key).
 */
export interface RowidReference {
  table: string;
  column: string;
  target: string;
}

/** Tables whose key is a rowid of another table (market history is keyed by its market's row). */
export const ROWID_REFERENCES: readonly RowidReference[] = [{ table: "market_history", column: "market", target: "markets" }];

/**
 * A column the store computes for each version from what it keeps, wherever the file's value is
 * what the rule gives: the version's capture day (a market's `as_of`), the row's own dates and
 * the capture day (a listing's `days_on_market` while it is active), or other tables of the same
 * version (a diligence candidate's years since its property's last sale, its market's occupancy).
 * These change in most rows every month although nothing they come from does; computing them
 * keeps a month's changes to the rows whose own data changed. The store keeps `''` where the
 * file's value is the rule's and the value itself where it is not (an imported listing whose
 * source counts its days on market otherwise), so a version's view (`computedValue`) answers
 * exactly what the file held. `sql` is an SQL expression over the row named `row`, the capture
 * day, and the tables named with `schema` before them ("" in a version's views, which are found
 * first; "incoming." or "main." when publishing a file).
 */
export interface ComputedColumn {
  table: string;
  column: string;
  sql(day: string, schema: string, row: string): string;
}

/** The metro market of a property for its asset type when there is one, else its state's (derive/diligence.ts). */
const marketOf = (s: string, t: string, figure: string) =>
  `(CASE WHEN EXISTS (SELECT 1 FROM ${s}markets m WHERE m.geography_type = 'metro' AND m.geography_id = ${t}.metro_id AND m.asset_type = ${t}.asset_type) ` +
  `THEN (SELECT m.${figure} FROM ${s}markets m WHERE m.geography_type = 'metro' AND m.geography_id = ${t}.metro_id AND m.asset_type = ${t}.asset_type) ` +
  `ELSE (SELECT m.${figure} FROM ${s}markets m WHERE m.geography_type = 'state' AND m.geography_id = ${t}.state_code AND m.asset_type = ${t}.asset_type) END)`;

export const COMPUTED_COLUMNS: readonly ComputedColumn[] = [
  { table: "markets", column: "as_of", sql: (day) => `'${day}'` },
  {
    // Days from listing to the capture while active, to the status change after (generate/listings.ts).
    table: "listings",
    column: "days_on_market",
    sql: (day, _s, t) =>
      `CAST(julianday(CASE WHEN ${t}.status = 'active' THEN '${day}' ELSE ${t}.status_date END) - julianday(${t}.listed_date) AS INTEGER)`,
  },
  {
    table: "diligence",
    column: "years_since_last_sale",
    sql: (day, s, t) =>
      `(SELECT round(max(0, (julianday('${day}') - julianday(p.last_sale_date)) / 365.25), 1) FROM ${s}properties p WHERE p.id = ${t}.property_id)`,
  },
  { table: "diligence", column: "market_occupancy_rate", sql: (_day, s, t) => marketOf(s, t, "occupancy_rate") },
];

/** A computed column as a version reads it: the rule's value where the store kept `''`, else the value kept. */
export function computedValue(c: ComputedColumn, day: string, schema: string, row: string): string {
  const kept = `${row}.${q(c.column)}`;
  return `CASE WHEN ${kept} = '' THEN ${c.sql(day, schema, row)} ELSE ${kept} END`;
}

/** A computed column as the store keeps it, from the file's row `row`: `''` where the rule gives its value. */
export function computedKept(c: ComputedColumn, day: string, schema: string, row: string): string {
  const value = `${row}.${q(c.column)}`;
  return `CASE WHEN ${value} IS ${c.sql(day, schema, row)} THEN '' ELSE ${value} END`;
}

/** The computed column `column` of `table`, if it is one. */
export function computedColumn(table: string, column: string): ComputedColumn | undefined {
  return COMPUTED_COLUMNS.find((c) => c.table === table && c.column === column);
}

/** A capture time's day, checked to be one (it is written into SQL). */
export function captureDay(capturedAt: string): string {
  const day = capturedAt.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`capture time ${capturedAt} does not start with a date`);
  return day;
}

/** The snapshot's full-text index over the latest properties (the store's over every version is in version-text-index.ts). */
export const FTS_TABLE = "properties_fts";

/**
 * Store bookkeeping, not versioned: the versions published, in order, and when each was retired
 * (no longer served: past its retention, its replaced rows then deleted, or withdrawn as the
 * latest by a rollback, store-publish.ts). A retired version stays listed, so a pin to it
 * can be told when it went.
 */
export const STORE_VERSIONS_DDL = `CREATE TABLE store_versions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  captured_at TEXT NOT NULL,
  built_at TEXT NOT NULL,
  published_at TEXT NOT NULL,
  retired_at TEXT
)`;

/**
 * Whether a table of a store is a versioned table (not bookkeeping, `T_old`, a text index and its
 * tables, or the match index, which holds every version's keys: match-keys.ts).
 */
function isVersioned(name: string): boolean {
  // The index over every version (version-text-index.ts) starts with FTS_TABLE's name.
  if (name.startsWith("sqlite_") || name.startsWith(FTS_TABLE) || name.startsWith(UNKEYED_OLD_FTS_TABLE)) return false;
  if (name === MATCH_KEYS_TABLE) return false;
  return name !== "store_versions" && !name.endsWith("_old");
}

/** The versioned tables of a snapshot database (a snapshot file, or a store: `vfrom` is left out). */
export function versionedTables(db: Database.Database, schema = "main"): VersionedTable[] {
  const tables = db.prepare(`SELECT name, sql FROM ${schema}.sqlite_schema WHERE type = 'table' ORDER BY name`).all() as {
    name: string;
    sql: string;
  }[];
  return tables
    .filter((t) => isVersioned(t.name) && !t.sql.startsWith("CREATE VIRTUAL"))
    .map((t) => {
      const info = db.prepare(`SELECT name, pk FROM pragma_table_info(?, ?) ORDER BY cid`).all(t.name, schema) as {
        name: string;
        pk: number;
      }[];
      const columns = info.map((c) => c.name).filter((c) => c !== "vfrom");
      const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      const indexes = (
        db
          .prepare(`SELECT sql FROM ${schema}.sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`)
          .all(t.name) as {
          sql: string;
        }[]
      ).map((r) => r.sql);
      return { name: t.name, columns, key: pk.length ? pk.map((c) => c.name) : columns, keyed: pk.length > 0, indexes };
    });
}

/** A column name quoted for SQL. */
export function q(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The key of a row of `table` as one SQL expression over the alias `a` (a JSON array for a table without a primary key). */
export function keyExpr(table: VersionedTable, a: string): string {
  if (table.keyed && table.key.length === 1) return `${a}.${q(table.key[0])}`;
  return `json_array(${table.key.map((c) => `${a}.${q(c)}`).join(", ")})`;
}

/** `CREATE TABLE T_old`: the columns of `T` (with `vfrom`), the row's rowid in `T`, and `vto`. */
export function oldTableDdl(db: Database.Database, table: VersionedTable): string[] {
  const info = db.prepare(`SELECT name, type FROM pragma_table_info(?)`).all(table.name) as { name: string; type: string }[];
  const cols = info.map((c) => `${q(c.name)} ${c.type}`);
  const old = q(`${table.name}_old`);
  const ddl = [`CREATE TABLE ${old} (rid INTEGER NOT NULL, vto INTEGER NOT NULL, ${cols.join(", ")})`];
  ddl.push(`CREATE INDEX ${q(`sx_${table.name}_old_rid`)} ON ${old} (rid)`);
  if (table.keyed) ddl.push(`CREATE INDEX ${q(`sx_${table.name}_old_key`)} ON ${old} (${table.key.map(q).join(", ")}, vfrom)`);
  // The snapshot's own indexes, on the old contents too: a pinned version's searches go through
  // both tables. Each ends with `rid`, so rows of one key come in the order a list by rowid asks
  // for and an older version's page of them is read without sorting every match.
  for (const sql of table.indexes) {
    const m = /^CREATE (UNIQUE )?INDEX\s+("?)(\w+)\2\s+ON\s+("?)(\w+)\4\s*\((.*)\)\s*$/is.exec(sql);
    if (!m) throw new Error(`cannot mirror index on ${table.name}: ${sql}`);
    ddl.push(`CREATE INDEX ${q(`${m[3]}_old`)} ON ${old} (${m[6]}, rid)`);
  }
  return ddl;
}

/**
 * Gives the `T_old` tables' indexes statistics (a full ANALYZE): the query planner weighs them as
 * it weighs `T`'s. Without any, it guesses, and reads an older version's page of replaced rows
 * from the index that narrows most (50 offices in Texas of at least 20,000 sq ft: asset type,
 * state, area), sorting every match by `rid`, rather than from the one that gives them in `rid`
 * order and stops after a page. Statistics sampled from 1,000 rows of each index (as a snapshot
 * file's own are) make the same mistake once the replaced rows are many: they count about a
 * thousand rows for each asset type where there are hundreds of thousands. Publishing calls it
 * for each month; reading every replaced row costs seconds, not minutes.
 */
export function analyzeOldTables(db: Database.Database, tables: readonly VersionedTable[]): void {
  db.pragma("analysis_limit = 0");
  for (const table of tables) db.exec(`ANALYZE main.${q(`${table.name}_old`)}`);
}

/**
 * The `T_old` tables that hold rows but no statistics read from every row: none at all (a store
 * published before they were kept), or sampled ones (published before they were read in full).
 * A full ANALYZE writes samples of each index to `sqlite_stat4`; a sampled one writes none.
 */
export function oldTablesWithoutFullStatistics(db: Database.Database, tables: readonly VersionedTable[]): VersionedTable[] {
  const listed = (stat: string): Set<string> | undefined =>
    db.prepare("SELECT 1 FROM main.sqlite_schema WHERE name = ?").get(stat)
      ? new Set(db.prepare(`SELECT DISTINCT tbl FROM main.${stat}`).pluck().all() as string[])
      : undefined;
  const analyzed = listed("sqlite_stat1") ?? new Set<string>();
  // Without the table this SQLite keeps no samples, and full statistics cannot be told from sampled.
  const sampled = listed("sqlite_stat4");
  return tables.filter((t) => {
    const old = `${t.name}_old`;
    const full = analyzed.has(old) && (sampled === undefined || sampled.has(old));
    return !full && db.prepare(`SELECT 1 FROM main.${q(old)} LIMIT 1`).get() !== undefined;
  });
}

/** One version of a store: a snapshot published into it. */
export interface StoreVersion {
  seq: number;
  id: string;
  captured_at: string;
  built_at: string;
  published_at: string;
  /** When the version was retired (no longer served), or null while it is served. */
  retired_at: string | null;
}

/** The versions of a store, oldest first. */
export function storeVersions(db: Database.Database): StoreVersion[] {
  return db
    .prepare("SELECT seq, id, captured_at, built_at, published_at, retired_at FROM store_versions ORDER BY seq")
    .all() as StoreVersion[];
}
