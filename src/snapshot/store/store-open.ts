// Opening one version of a store (store-layout.ts) as a database that reads like that snapshot's
// own file: on its connection, a temporary view with each table's name (temporary objects come
// before the store's own tables in name lookup) selects the table's columns as the version held
// them, so every query written for a snapshot file runs unchanged. An older version's views are
// each the union of two parts, which are views too (VERSION_PARTS), for the queries that read
// the parts apart.
//
// The newest version's views read the latest rows as they are, so its connection reads inside
// one transaction begun at open: a version published meanwhile (which updates the latest rows in
// place) is not seen by it. An older version's views select by version number, which a later
// publish does not change (it moves a row's old content to `T_old` and updates it in one
// transaction), so its connection needs no such transaction and holds back no checkpoint.
import Database from "better-sqlite3";
import { PROPERTIES_FTS_COLUMNS } from "../tables";
import {
  FTS_TABLE,
  OLD_FTS_TABLE,
  type StoreVersion,
  type VersionedTable,
  captureDay,
  computedColumn,
  computedValue,
  q,
  storeVersions,
  versionedTables,
} from "./store-layout";

export interface OpenVersionOptions {
  /** Page cache per connection, in KiB (SQLite's negative cache_size); 64 MiB unless given. */
  cacheKiB?: number;
  /** Bytes of the file mapped into memory; 256 MiB unless given (0: none). */
  mmapBytes?: number;
}

/** The version of a store a snapshot id (or, without one, the newest) names; throws for an id the store does not hold or has retired. */
export function findVersion(versions: readonly StoreVersion[], id?: string): StoreVersion {
  const found = id === undefined ? versions[versions.length - 1] : versions.find((v) => v.id === id);
  if (!found) throw new Error(id === undefined ? "the store holds no version" : `the store holds no snapshot ${id}`);
  if (found.retired_at !== null)
    throw new Error(`snapshot ${found.id} was retired on ${found.retired_at.slice(0, 10)}: it is no longer served`);
  return found;
}

/** A read-only connection to the store that answers for the snapshot `id` (the newest when not given). */
export function openStoreVersion(storePath: string, id?: string, options: OpenVersionOptions = {}): Database.Database {
  const db = new Database(storePath, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`cache_size = ${-(options.cacheKiB ?? 65536)}`);
    db.pragma(`mmap_size = ${options.mmapBytes ?? 268435456}`);
    db.exec("BEGIN");
    const versions = storeVersions(db);
    const version = findVersion(versions, id);
    const newest = version.seq === versions[versions.length - 1].seq;
    const tables = versionedTables(db);
    const views = tables.flatMap((table) => versionViews(table, version, newest));
    const properties = tables.find((t) => t.name === "properties")!;
    // Read in the same transaction as the versions: the text index's runs end where its tail begins.
    if (!newest) views.push(...textIndexViews(db, properties, version.seq));
    for (const sql of views) db.exec(sql);
    if (!newest) db.exec("COMMIT");
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The two parts of a table as an older version holds it: the latest rows it already had
 * ("kept") and the replaced contents it held ("replaced"). Each is a temporary view of its own on
 * the version's connection, beside the table's view (their union), with the same columns and
 * `rowid` (the row's rowid in `T`), so a query over the table runs unchanged over either part.
 * A paged list reads each part apart, in its order, and merges the two pages
 * (server/data/sql-where.ts): over the union, SQLite would compute and sort every match of the
 * replaced part before taking a page, and a text search would read every match of both.
 */
export const VERSION_PARTS = ["kept", "replaced"] as const;
export type VersionPart = (typeof VERSION_PARTS)[number];

/** The name (quoted) of the view of one part of `table` on an older version's connection. */
export function partView(table: string, part: VersionPart): string {
  return q(`${table} ${part}`);
}

/** The name (quoted) of the view of one part of the text index (textIndexViews). */
export function textPartView(part: VersionPart): string {
  return q(`${FTS_TABLE} ${part}`);
}

/** Whether `db` reads an older version of a store, whose tables are views over two parts. */
export function readsByParts(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_temp_schema WHERE type = 'view' AND name = ?").get(`${FTS_TABLE} kept`) !== undefined;
}

/** The prefix of the names of the views of the replaced part's text index, one per run (textIndexViews). */
const TEXT_RUN = `${FTS_TABLE} run `;

/**
 * The names (quoted) of the views an older version's text search reads a page from, each in the
 * order its column `"in order"` gives without sorting, which is the order of `rowid`: the kept
 * part, then each run of the replaced part (textIndexViews). Empty for a file or a newest version.
 */
export function textSearchViews(db: Database.Database): string[] {
  if (!readsByParts(db)) return [];
  const runs = db
    .prepare("SELECT name FROM sqlite_temp_schema WHERE type = 'view' AND name LIKE ? ORDER BY name")
    .pluck()
    .all(`${TEXT_RUN}%`) as string[];
  return [textPartView("kept"), ...runs.map(q)];
}

/** The views of one table as a version holds it: for an older version, its parts and their union. */
function versionViews(table: VersionedTable, version: StoreVersion, newest: boolean): string[] {
  const seq = version.seq;
  const day = captureDay(version.captured_at);
  // A computed column (store-layout.ts) is computed from the row `t` and this version's other views.
  const cols = table.columns
    .map((c) => {
      const computed = computedColumn(table.name, c);
      return computed ? `${computedValue(computed, day, "", "t")} AS ${q(c)}` : `t.${q(c)}`;
    })
    .join(", ");
  const name = q(table.name);
  const latest = `SELECT t.rowid AS rowid, ${cols} FROM main.${name} t`;
  if (newest) return [`CREATE TEMP VIEW ${name} AS ${latest}`];
  const old = `SELECT t.rid AS rowid, ${cols} FROM main.${q(`${table.name}_old`)} t WHERE t.vfrom <= ${seq} AND t.vto > ${seq}`;
  return [
    `CREATE TEMP VIEW ${partView(table.name, "kept")} AS ${latest} WHERE t.vfrom <= ${seq}`,
    `CREATE TEMP VIEW ${partView(table.name, "replaced")} AS ${old}`,
    `CREATE TEMP VIEW ${name} AS SELECT * FROM ${partView(table.name, "kept")} UNION ALL SELECT * FROM ${partView(table.name, "replaced")}`,
  ];
}

/**
 * The runs of the replaced contents of properties that version `seq` may hold: the rows each
 * later version moved to `properties_old`, as a range of its rowids. Publishing moves a version's
 * rows in rowid order of `T` (their `rid`) after every row moved before (store-publish.ts), so
 * `vto` never decreases with the rowid and each run is in `rid` order. Found by bisection on the
 * rowid: a few lookups per run.
 */
function replacedRuns(db: Database.Database, seq: number): { lo: number; hi: number }[] {
  const next = db.prepare("SELECT rowid, vto FROM main.properties_old WHERE rowid >= ? ORDER BY rowid LIMIT 1").raw();
  // The first and the last row by rowid, each found by the rowid's own order (an aggregate of
  // both, or of vto, would read the whole table); the last row's vto is the greatest.
  const end = (order: "ASC" | "DESC") =>
    db.prepare(`SELECT rowid, vto FROM main.properties_old ORDER BY rowid ${order} LIMIT 1`).raw().get() as [number, number] | undefined;
  const first = end("ASC");
  const lastRow = end("DESC");
  if (!first || !lastRow) return [];
  const [min] = first;
  const [max, last] = lastRow;
  /** The first rowid from which every row has `vto >= v` (max + 1 when none has). */
  const from = (v: number): number => {
    let lo = min;
    let hi = max + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const row = next.get(mid) as [number, number] | undefined;
      if (!row || row[1] >= v) hi = mid;
      else lo = row[0] + 1;
    }
    return lo;
  };
  const runs: { lo: number; hi: number }[] = [];
  let start = from(seq + 1);
  for (let v = seq + 1; v <= last; v++) {
    const end = from(v + 1);
    if (end > start) runs.push({ lo: start, hi: end - 1 });
    start = end;
  }
  return runs;
}

/**
 * The text index as an older version holds it: hits on latest contents that version already had,
 * and hits on the replaced contents it held, each under the row's rowid. The view's column with
 * the index's name carries `properties_fts MATCH ?` to both indexes. Beside it, each part's
 * index joined to that part's properties (textPartView), and the replaced part's run by run
 * (textSearchViews), a page of which its index gives in rid order without sorting. Each part's
 * and run's column `"in order"` orders its rows as their rowids do: for the kept part and each
 * run it is the index's own order; for the whole replaced part it is the rid, which a page sorts.
 */
function textIndexViews(db: Database.Database, table: VersionedTable, seq: number): string[] {
  const cols = PROPERTIES_FTS_COLUMNS.map((c) => `f.${q(c)}`).join(", ");
  const latest =
    `SELECT f.rowid AS rowid, f.${FTS_TABLE} AS ${FTS_TABLE}, ${cols} FROM main.${FTS_TABLE} f ` +
    `JOIN main.properties p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq}`;
  const old =
    `SELECT p.rid AS rowid, f.${OLD_FTS_TABLE} AS ${FTS_TABLE}, ${cols} FROM main.${OLD_FTS_TABLE} f ` +
    `JOIN main.properties_old p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq} AND p.vto > ${seq}`;
  // The properties' own columns: no computed column is one of theirs.
  if (table.columns.some((c) => computedColumn(table.name, c))) throw new Error("properties has a computed column");
  const pcols = table.columns.map((c) => `p.${q(c)}`).join(", ");
  const runs = replacedRuns(db, seq);
  const knownMax = db.prepare("SELECT coalesce(max(rowid), 0) FROM main.properties_old").pluck().get() as number;
  return [
    `CREATE TEMP VIEW ${FTS_TABLE} AS ${latest} UNION ALL ${old}`,
    `CREATE TEMP VIEW ${textPartView("kept")} AS SELECT f.rowid AS rowid, f.rowid AS "in order", f.${FTS_TABLE} AS ${FTS_TABLE}, ${pcols} ` +
      `FROM main.${FTS_TABLE} f JOIN main.properties p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq}`,
    `CREATE TEMP VIEW ${textPartView("replaced")} AS SELECT p.rid AS rowid, p.rid AS "in order", f.${OLD_FTS_TABLE} AS ${FTS_TABLE}, ${pcols} ` +
      `FROM main.${OLD_FTS_TABLE} f JOIN main.properties_old p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq} AND p.vto > ${seq}`,
    // One view per run (replacedRuns): its index's rowids, in order, are its rows' rids in order.
    ...runs.map(
      ({ lo, hi }, i) =>
        `CREATE TEMP VIEW ${q(`${TEXT_RUN}${String(i).padStart(4, "0")}`)} AS SELECT p.rid AS rowid, f.rowid AS "in order", ` +
        `f.${OLD_FTS_TABLE} AS ${FTS_TABLE}, ${pcols} FROM main.${OLD_FTS_TABLE} f JOIN main.properties_old p ON p.rowid = f.rowid ` +
        `WHERE f.rowid BETWEEN ${lo} AND ${hi} AND p.vfrom <= ${seq}`,
    ),
    // The rows versions published after this connection opened move to properties_old: they come
    // after every run, several versions' runs one after another, so their order is the rid's,
    // sorted. Few until the connection is opened again (the service does at its next refresh).
    `CREATE TEMP VIEW ${q(`${TEXT_RUN}tail`)} AS SELECT p.rid AS rowid, p.rid AS "in order", ` +
      `f.${OLD_FTS_TABLE} AS ${FTS_TABLE}, ${pcols} FROM main.${OLD_FTS_TABLE} f JOIN main.properties_old p ON p.rowid = f.rowid ` +
      `WHERE f.rowid > ${knownMax} AND p.vfrom <= ${seq} AND p.vto > ${seq}`,
  ];
}
