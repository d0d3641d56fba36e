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
import { VERSION_FTS_TABLE, keyHeldBy, keyJoin, keyReplaced, keyRid } from "./version-text-index";
import {
  FTS_TABLE,
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
    if (!newest) views.push(...textIndexViews(properties, version.seq));
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

/** The name (quoted) of the view of the text index of a whole older version, without its rows' columns (textIndexViews). */
export function textHeldView(): string {
  return q(`${FTS_TABLE} held`);
}

/** Whether `db` reads an older version of a store, whose tables are views over two parts. */
export function readsByParts(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_temp_schema WHERE type = 'view' AND name = ?").get(`${FTS_TABLE} kept`) !== undefined;
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
 * The text index as an older version holds it: hits on latest contents that version already had,
 * and hits on the replaced contents it held, each under the row's rowid. The view's column with
 * the index's name carries `properties_fts MATCH ?` to both indexes. Beside it, the views a text
 * search reads its page from, each with a column `"in order"` that orders its rows as their
 * rowids do and that its index gives without sorting:
 * - each part's index joined to that part's properties (textPartView), for a search that filters
 *   by the properties' columns too: the kept part from the snapshot's own index, the replaced part
 *   from the index over every version (version-text-index.ts);
 * - the version's whole index (textHeldView), for a search by its words alone: the index over every
 *   version, whose key orders its entries by `rid` and tells which versions hold each, so the
 *   page and the count are read from the index alone; its `"in order"` is that key, which also
 *   says which table holds each row of the page (version-text-index.ts valueOfKey).
 */
function textIndexViews(table: VersionedTable, seq: number): string[] {
  // The indexed columns, read from the rows: the index over every version is contentless, and
  // both parts' columns must have the same affinity for SQLite to carry MATCH into the union.
  const cols = PROPERTIES_FTS_COLUMNS.map((c) => `p.${q(c)}`).join(", ");
  const latest =
    `SELECT f.rowid AS rowid, f.${FTS_TABLE} AS ${FTS_TABLE}, ${cols} FROM main.${FTS_TABLE} f ` +
    `JOIN main.properties p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq}`;
  const replacedFrom =
    `FROM main.${VERSION_FTS_TABLE} f JOIN main.properties_old p ON ${keyJoin("f.rowid", "p")} ` +
    `WHERE ${keyReplaced("f.rowid")} AND ${keyHeldBy("f.rowid", seq)}`;
  const old = `SELECT p.rid AS rowid, f.${VERSION_FTS_TABLE} AS ${FTS_TABLE}, ${cols} ${replacedFrom}`;
  // The properties' own columns: no computed column is one of theirs.
  if (table.columns.some((c) => computedColumn(table.name, c))) throw new Error("properties has a computed column");
  const pcols = table.columns.map((c) => `p.${q(c)}`).join(", ");
  return [
    `CREATE TEMP VIEW ${FTS_TABLE} AS ${latest} UNION ALL ${old}`,
    `CREATE TEMP VIEW ${textPartView("kept")} AS SELECT f.rowid AS rowid, f.rowid AS "in order", f.${FTS_TABLE} AS ${FTS_TABLE}, ${pcols} ` +
      `FROM main.${FTS_TABLE} f JOIN main.properties p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq}`,
    `CREATE TEMP VIEW ${textPartView("replaced")} AS SELECT ${keyRid("f.rowid")} AS rowid, f.rowid AS "in order", ` +
      `f.${VERSION_FTS_TABLE} AS ${FTS_TABLE}, ${pcols} ${replacedFrom}`,
    `CREATE TEMP VIEW ${textHeldView()} AS SELECT ${keyRid("f.rowid")} AS rowid, f.rowid AS "in order", ` +
      `f.${VERSION_FTS_TABLE} AS ${FTS_TABLE} FROM main.${VERSION_FTS_TABLE} f WHERE ${keyHeldBy("f.rowid", seq)}`,
  ];
}
