// Opening one version of a store (store-layout.ts) as a database that reads like that snapshot's
// own file: on its connection, a temporary view with each table's name (temporary objects come
// before the store's own tables in name lookup) selects the table's columns as the version held
// them, so every query written for a snapshot file runs unchanged.
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
    if (!newest) db.exec("COMMIT");
    for (const table of versionedTables(db)) db.exec(versionView(table, version, newest));
    if (!newest) db.exec(textIndexView(version.seq));
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** The view of one table as version `seq` holds it: the latest rows since then, and the replaced ones it held. */
function versionView(table: VersionedTable, version: StoreVersion, newest: boolean): string {
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
  if (newest) return `CREATE TEMP VIEW ${name} AS ${latest}`;
  const old = `SELECT t.rid AS rowid, ${cols} FROM main.${q(`${table.name}_old`)} t WHERE t.vfrom <= ${seq} AND t.vto > ${seq}`;
  return `CREATE TEMP VIEW ${name} AS ${latest} WHERE t.vfrom <= ${seq} UNION ALL ${old}`;
}

/**
 * The text index as an older version holds it: hits on latest contents that version already had,
 * and hits on the replaced contents it held, each under the row's rowid. The view's column with
 * the index's name carries `properties_fts MATCH ?` to both indexes.
 */
function textIndexView(seq: number): string {
  const cols = PROPERTIES_FTS_COLUMNS.map((c) => `f.${q(c)}`).join(", ");
  const latest =
    `SELECT f.rowid AS rowid, f.${FTS_TABLE} AS ${FTS_TABLE}, ${cols} FROM main.${FTS_TABLE} f ` +
    `JOIN main.properties p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq}`;
  const old =
    `SELECT p.rid AS rowid, f.${OLD_FTS_TABLE} AS ${FTS_TABLE}, ${cols} FROM main.${OLD_FTS_TABLE} f ` +
    `JOIN main.properties_old p ON p.rowid = f.rowid WHERE p.vfrom <= ${seq} AND p.vto > ${seq}`;
  return `CREATE TEMP VIEW ${FTS_TABLE} AS ${latest} UNION ALL ${old}`;
}
