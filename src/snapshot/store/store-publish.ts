// Publishing a snapshot file into a store (store-layout.ts): the first file becomes the store;
// each later one becomes the next version, adding only what changed. For every table, the rows
// of the file are matched to the store's latest rows by key: a row whose content differs is moved
// to `T_old` (ending at the new version) and updated in place, keeping its rowid; a row the file
// no longer has is moved there and deleted; a new key is inserted. All of it is one transaction:
// a reader sees the store before the version or after it, and a file that fails part way adds
// nothing. The file itself is left as it is (it is checked before, by the caller).
import fs from "node:fs";
import Database from "better-sqlite3";
import { formatOf, readMeta } from "../snapshot-file";
import { addMatchKeys, hasMatchKeys } from "../match-keys";
import { PROPERTIES_FTS_COLUMNS } from "../tables";
import {
  FTS_TABLE,
  analyzeOldTables,
  ROWID_REFERENCES,
  STORE_VERSIONS_DDL,
  type VersionedTable,
  COMPUTED_COLUMNS,
  captureDay,
  computedColumn,
  computedKept,
  keyExpr,
  oldTableDdl,
  oldTablesWithoutFullStatistics,
  q,
  type StoreVersion,
  versionedTables,
  storeVersions,
} from "./store-layout";
import {
  createVersionTextIndex,
  indexVersionText,
  keyVersionTextIndex,
  needsVersionTextIndex,
  optimizeVersionText,
  unindexVersionText,
} from "./version-text-index";

export interface PublishResult {
  version: StoreVersion;
  /** Per table: rows changed, removed and added by this version (all added for the first). */
  changes: Record<string, { changed: number; removed: number; added: number }>;
}

export interface PublishOptions {
  /** The time recorded as the version's publication (now unless given). */
  now?: () => Date;
  log?: (message: string) => void;
  /** The file becomes the store when there is none, renamed rather than copied (a file built for it, not kept). */
  consume?: boolean;
}

/** Opens a store for writing (WAL, so services keep reading while a version is added). */
function openForWriting(storePath: string): Database.Database {
  const db = new Database(storePath, { fileMustExist: true });
  db.pragma("journal_mode = WAL");
  db.pragma("cache_size = -262144");
  db.pragma("temp_store = FILE");
  return db;
}

/**
 * Adds the snapshot file at `file` to the store at `storePath` (creating the store from it when
 * there is none) as its newest version. Throws, adding nothing, when the file's id is already a
 * version of the store, when it was captured before the newest version, or when its tables are
 * not the store's (a snapshot of another format).
 */
export function publishToStore(storePath: string, file: string, options: PublishOptions = {}): PublishResult {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  if (!fs.existsSync(storePath)) return createStore(storePath, file, now(), options.consume === true);
  const db = openForWriting(storePath);
  try {
    db.exec(`ATTACH DATABASE ${sqlText(file)} AS incoming`);
    const meta = readMeta(db, "incoming");
    const versions = storeVersions(db);
    const newest = versions[versions.length - 1];
    if (versions.some((v) => v.id === meta.id)) throw new Error(`snapshot ${meta.id} is already in the store`);
    const storeFormat = formatOf(readMeta(db));
    if (formatOf(meta) !== storeFormat) {
      throw new Error(
        `snapshot ${meta.id} has format ${formatOf(meta)} and the store's snapshots format ${storeFormat}: ` +
          "a store holds snapshots of one format (build a new store, or the snapshot again in the store's format)",
      );
    }
    if (meta.captured_at < newest.captured_at) {
      throw new Error(
        `snapshot ${meta.id} was captured ${meta.captured_at}, before the store's newest (${newest.id}, ${newest.captured_at})`,
      );
    }
    const tables = sameTables(versionedTables(db), versionedTables(db, "incoming"));
    const seq = newest.seq + 1;
    const changes: PublishResult["changes"] = {};
    const day = captureDay(meta.captured_at);
    db.transaction(() => {
      const keyed = keyVersionTextIndex(db);
      if (keyed !== undefined) log(`made the text index over every version (${keyed} rows)`);
      for (const table of referencedFirst(tables)) {
        const started = performance.now();
        changes[table.name] = mergeTable(db, table, seq, day);
        const c = changes[table.name];
        log(`${table.name}: ${c.changed} changed, ${c.removed} removed, ${c.added} added (${Math.round(performance.now() - started)} ms)`);
      }
      const keysStarted = performance.now();
      const keys = indexMatchKeys(db, seq);
      log(`match index: ${keys} keys added (${Math.round(performance.now() - keysStarted)} ms)`);
      const version = { seq, id: meta.id, captured_at: meta.captured_at, built_at: meta.built_at, published_at: now().toISOString() };
      db.prepare("INSERT INTO store_versions VALUES (:seq, :id, :captured_at, :built_at, :published_at, NULL)").run(version);
      analyzeOldTables(db, tables);
      const started = performance.now();
      optimizeTextIndexes(db);
      log(`text indexes merged (${Math.round(performance.now() - started)} ms)`);
    })();
    db.exec("DETACH DATABASE incoming");
    db.pragma("wal_checkpoint(PASSIVE)");
    return { version: storeVersions(db).find((v) => v.seq === seq)!, changes };
  } finally {
    db.close();
  }
}

/** The store made from its first snapshot file: a copy of it, with the version columns and old-content tables added. */
function createStore(storePath: string, file: string, now: Date, consume: boolean): PublishResult {
  const partial = `${storePath}.partial`;
  if (consume) fs.renameSync(file, partial);
  else fs.copyFileSync(file, partial);
  const db = new Database(partial);
  try {
    db.pragma("journal_mode = WAL");
    const meta = readMeta(db);
    const tables = versionedTables(db);
    const changes: PublishResult["changes"] = {};
    const day = captureDay(meta.captured_at);
    db.transaction(() => {
      for (const table of tables) {
        keepComputed(db, table, day);
        db.exec(`ALTER TABLE ${q(table.name)} ADD COLUMN vfrom INTEGER NOT NULL DEFAULT 1`);
        for (const sql of oldTableDdl(db, table)) db.exec(sql);
        const added = db
          .prepare(`SELECT count(*) FROM ${q(table.name)}`)
          .pluck()
          .get() as number;
        changes[table.name] = { changed: 0, removed: 0, added };
      }
      // A file built before the match index has none: made from its properties.
      if (!hasMatchKeys(db)) addMatchKeys(db);
      createVersionTextIndex(db);
      indexVersionText(db, "properties", "1");
      optimizeVersionText(db);
      db.exec(STORE_VERSIONS_DDL);
      db.prepare("INSERT INTO store_versions VALUES (1, ?, ?, ?, ?, NULL)").run(
        meta.id,
        meta.captured_at,
        meta.built_at,
        now.toISOString(),
      );
    })();
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    fs.renameSync(partial, storePath);
    const done = new Database(storePath, { readonly: true });
    try {
      return { version: storeVersions(done)[0], changes };
    } finally {
      done.close();
    }
  } catch (err) {
    if (db.open) db.close();
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

/**
 * Keeps a new store's computed columns as the store does (store-layout.ts): `''` where the file's
 * value is the rule's. Every rule reads columns that are not computed, so the order does not matter.
 */
function keepComputed(db: Database.Database, table: VersionedTable, day: string): void {
  for (const c of COMPUTED_COLUMNS.filter((c) => c.table === table.name)) {
    db.exec(`UPDATE main.${q(table.name)} AS t SET ${q(c.column)} = '' WHERE t.${q(c.column)} IS ${c.sql(day, "main.", "t")}`);
  }
}

/** The store's tables, refused unless the incoming file has the same tables with the same columns. */
function sameTables(store: VersionedTable[], incoming: VersionedTable[]): VersionedTable[] {
  const shape = (ts: VersionedTable[]) => ts.map((t) => `${t.name}(${t.columns.join(",")})`).join(" ");
  if (shape(store) !== shape(incoming)) {
    throw new Error("the snapshot's tables are not the store's (it is of another snapshot format): build a new store from it");
  }
  return store;
}

/** Tables another table refers to by rowid go first, so the rowids they are given are known. */
function referencedFirst(tables: VersionedTable[]): VersionedTable[] {
  const targets = new Set(ROWID_REFERENCES.map((r) => r.target));
  return [...tables.filter((t) => targets.has(t.name)), ...tables.filter((t) => !targets.has(t.name))];
}

/** The incoming rows of `table` as the store would hold them: rowid references translated to the store's rowids. */
function incomingRows(db: Database.Database, table: VersionedTable): string {
  const refs = ROWID_REFERENCES.filter((r) => r.table === table.name);
  if (!refs.length) return `incoming.${q(table.name)}`;
  const cols = table.columns.map((c) => {
    const ref = refs.find((r) => r.column === c);
    if (!ref) return `s.${q(c)} AS ${q(c)}`;
    // The target's key (its id) is what names the row in both files.
    const [key] = versionedTables(db).find((t) => t.name === ref.target)!.key;
    return `(SELECT m.rowid FROM main.${q(ref.target)} m JOIN incoming.${q(ref.target)} x ON x.${q(key)} = m.${q(key)} WHERE x.rowid = s.${q(c)}) AS ${q(c)}`;
  });
  db.exec(`DROP TABLE IF EXISTS temp.incoming_rows`);
  db.exec(`CREATE TEMP TABLE incoming_rows AS SELECT s.rowid AS src_rowid, ${cols.join(", ")} FROM incoming.${q(table.name)} s`);
  const unmatched = db
    .prepare(`SELECT count(*) FROM temp.incoming_rows WHERE ${refs.map((r) => `${q(r.column)} IS NULL`).join(" OR ")}`)
    .pluck()
    .get();
  if (unmatched) throw new Error(`${table.name}: ${unmatched} rows name a row of ${refs[0].target} the snapshot does not have`);
  db.exec(`CREATE INDEX temp.incoming_rows_key ON incoming_rows (${table.key.map(q).join(", ")})`);
  return "temp.incoming_rows";
}

/** Merges one table's incoming rows, captured on `day`, into the store as version `seq`. */
function mergeTable(
  db: Database.Database,
  table: VersionedTable,
  seq: number,
  day: string,
): { changed: number; removed: number; added: number } {
  // An incoming column as the store keeps it: a computed one '' where the rule gives its value.
  const sourceColumn = (c: string) => {
    const computed = computedColumn(table.name, c);
    return computed ? computedKept(computed, day, "incoming.", "s") : `s.${q(c)}`;
  };
  const T = `main.${q(table.name)}`;
  const src = incomingRows(db, table);
  const order = src === "temp.incoming_rows" ? "s.src_rowid" : "s.rowid";
  const cols = table.columns.map(q);
  db.exec("DROP TABLE IF EXISTS temp.changed; DROP TABLE IF EXISTS temp.gone");
  db.exec("CREATE TEMP TABLE changed (rid INTEGER PRIMARY KEY); CREATE TEMP TABLE gone (rid INTEGER PRIMARY KEY)");
  // A primary key is matched column by column (its index serves the join); a row without one as a whole.
  const match = table.keyed
    ? table.key.map((c) => `s.${q(c)} = t.${q(c)}`).join(" AND ")
    : `${keyExpr(table, "s")} = ${keyExpr(table, "t")}`;
  if (table.keyed) {
    const differs = table.columns.map((c) => `t.${q(c)} IS NOT ${sourceColumn(c)}`).join(" OR ");
    db.exec(`INSERT INTO temp.changed SELECT t.rowid FROM ${T} t JOIN ${src} s ON ${match} WHERE ${differs}`);
    db.exec(`INSERT INTO temp.gone SELECT t.rowid FROM ${T} t WHERE NOT EXISTS (SELECT 1 FROM ${src} s WHERE ${match})`);
  } else {
    // No key but the whole row: a row either is in the incoming file as it is, or it is gone.
    db.exec(
      `INSERT INTO temp.gone SELECT t.rowid FROM ${T} t WHERE ${keyExpr(table, "t")} NOT IN (SELECT ${keyExpr(table, "s")} FROM ${src} s)`,
    );
  }
  const isProperties = table.name === "properties";
  const replaced = "(SELECT rid FROM temp.changed UNION ALL SELECT rid FROM temp.gone)";
  const ftsCols = PROPERTIES_FTS_COLUMNS.join(", ");
  if (isProperties) {
    // The text indexes hold the latest contents as latest: take out what is replaced before it changes.
    db.exec(
      `INSERT INTO ${FTS_TABLE} (${FTS_TABLE}, rowid, ${ftsCols}) SELECT 'delete', rowid, ${ftsCols} FROM ${T} WHERE rowid IN ${replaced}`,
    );
    unindexVersionText(db, "properties", `p.rowid IN ${replaced}`);
  }
  db.exec(
    `INSERT INTO main.${q(`${table.name}_old`)} (rid, vto, ${cols.join(", ")}, vfrom) ` +
      `SELECT rowid, ${seq}, ${cols.join(", ")}, vfrom FROM ${T} WHERE rowid IN ${replaced} ORDER BY rowid`,
  );
  if (table.keyed) {
    const sets = table.columns.map((c) => `${q(c)} = ${sourceColumn(c)}`).join(", ");
    db.exec(`UPDATE ${T} AS t SET ${sets}, vfrom = ${seq} FROM ${src} AS s WHERE ${match} AND t.rowid IN (SELECT rid FROM temp.changed)`);
  }
  db.exec(`DELETE FROM ${T} WHERE rowid IN (SELECT rid FROM temp.gone)`);
  const present = table.keyed
    ? `NOT EXISTS (SELECT 1 FROM ${T} t WHERE ${match})`
    : `${keyExpr(table, "s")} NOT IN (SELECT ${keyExpr(table, "t")} FROM ${T} t)`;
  const added = db
    .prepare(
      `INSERT INTO ${T} (${cols.join(", ")}, vfrom) SELECT ${table.columns.map((c) => sourceColumn(c)).join(", ")}, ${seq} FROM ${src} s WHERE ${present} ORDER BY ${order}`,
    )
    .run().changes;
  if (isProperties) {
    db.exec(`INSERT INTO ${FTS_TABLE} (rowid, ${ftsCols}) SELECT rowid, ${ftsCols} FROM ${T} WHERE vfrom = ${seq}`);
    // The replaced contents as held up to this version, and the latest as held from it.
    indexVersionText(db, "properties_old", `p.vto = ${seq}`);
    indexVersionText(db, "properties", `p.vfrom = ${seq}`);
  }
  const count = (t: string) => db.prepare(`SELECT count(*) FROM temp.${t}`).pluck().get() as number;
  return { changed: count("changed"), removed: count("gone"), added };
}

/** A string as an SQL literal. */
function sqlText(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * Analyzes the `T_old` tables that hold rows but no statistics read from every row
 * (store-layout.ts analyzeOldTables), as the store's next publish would: a store published
 * before publishing analyzed them in full. Returns the tables analyzed (none for a store that
 * has its statistics).
 */
export function analyzeOldTablesIfNeeded(storePath: string): string[] {
  // Looked at read-only first: a store that has them is not opened for writing.
  const reader = new Database(storePath, { readonly: true, fileMustExist: true });
  let missing: VersionedTable[];
  try {
    missing = oldTablesWithoutFullStatistics(reader, versionedTables(reader));
  } finally {
    reader.close();
  }
  if (!missing.length) return [];
  const db = openForWriting(storePath);
  try {
    db.transaction(() => analyzeOldTables(db, oldTablesWithoutFullStatistics(db, versionedTables(db))))();
    return missing.map((t) => `${t.name}_old`);
  } finally {
    db.close();
  }
}

/**
 * Merges each text index into one segment (a month's entries and deletions are segments of
 * their own until then, which every search reads): seconds at 1M properties, and the latest
 * version's text search costs what a snapshot file's does (docs/benchmarks.md).
 */
function optimizeTextIndexes(db: Database.Database): void {
  db.exec(`INSERT INTO main.${FTS_TABLE} (${FTS_TABLE}) VALUES ('optimize')`);
  optimizeVersionText(db);
}

/**
 * Gives a store built before the text index over every version that index
 * (version-text-index.ts), as its next publish would. Returns the rows indexed, or undefined for
 * a store that has it (looked at read-only, so such a store is not opened for writing).
 */
export function keyVersionTextIndexIfNone(storePath: string): number | undefined {
  const reader = new Database(storePath, { readonly: true, fileMustExist: true });
  try {
    if (!needsVersionTextIndex(reader)) return undefined;
  } finally {
    reader.close();
  }
  const db = openForWriting(storePath);
  try {
    const indexed = db.transaction(() => {
      const n = keyVersionTextIndex(db);
      optimizeTextIndexes(db);
      return n;
    })();
    db.pragma("wal_checkpoint(PASSIVE)");
    return indexed;
  } finally {
    db.close();
  }
}

/**
 * Adds to the store's match index (match-keys.ts) the keys of the properties version `seq` added
 * or changed, and of those whose parcel it changed. A store without the index is given one over
 * every version's properties, the latest and the replaced. Answers the number of keys added.
 */
function indexMatchKeys(db: Database.Database, seq: number | null): number {
  if (seq !== null && hasMatchKeys(db)) {
    return addMatchKeys(db, "main.properties", `p.vfrom = ${seq} OR p.parcel_id IN (SELECT id FROM main.parcels WHERE vfrom = ${seq})`);
  }
  return addMatchKeys(db, "main.properties") + addMatchKeys(db, "main.properties_old");
}

/**
 * Gives a store built before the match index that index over every version's properties, as its
 * next publish would. Returns the keys added, or undefined for a store that has it (looked at
 * read-only, so such a store is not opened for writing).
 */
export function indexMatchKeysIfNone(storePath: string): number | undefined {
  const reader = new Database(storePath, { readonly: true, fileMustExist: true });
  try {
    if (hasMatchKeys(reader)) return undefined;
  } finally {
    reader.close();
  }
  const db = openForWriting(storePath);
  try {
    const added = db.transaction(() => indexMatchKeys(db, null))();
    db.pragma("wal_checkpoint(PASSIVE)");
    return added;
  } finally {
    db.close();
  }
}

/**
 * Retires every version up to and including `seq`: they are no longer served (store-open.ts
 * refuses them), and the replaced rows only they held are deleted, so their space is used again
 * by the next months. The newest version cannot be retired. Returns the versions retired now.
 */
export function retireThrough(storePath: string, seq: number, options: PublishOptions = {}): StoreVersion[] {
  const now = (options.now ?? (() => new Date()))();
  const db = openForWriting(storePath);
  try {
    const versions = storeVersions(db);
    if (seq >= versions[versions.length - 1].seq) throw new Error("the newest version of a store cannot be retired");
    const retiring = versions.filter((v) => v.seq <= seq && v.retired_at === null);
    if (!retiring.length) return [];
    db.transaction(() => {
      keyVersionTextIndex(db);
      // A replaced row ending at or before the first version still served is held by retired versions only.
      const gone = `vto <= ${seq + 1}`;
      unindexVersionText(db, "properties_old", gone);
      optimizeVersionText(db);
      for (const table of versionedTables(db)) db.exec(`DELETE FROM main.${q(`${table.name}_old`)} WHERE ${gone}`);
      db.prepare("UPDATE store_versions SET retired_at = ? WHERE seq <= ? AND retired_at IS NULL").run(now.toISOString(), seq);
    })();
    db.pragma("wal_checkpoint(PASSIVE)");
    return retiring.map((v) => ({ ...v, retired_at: now.toISOString() }));
  } finally {
    db.close();
  }
}

/**
 * Withdraws the newest version still served, so the one before it is the latest again (a month
 * published by mistake): it is marked retired and no longer served, and nothing is deleted,
 * since the version before it reads the rows it replaced. The next version published is merged
 * as usual. Refused when it is the only version served. Returns the version withdrawn.
 */
export function withdrawLatest(storePath: string, options: PublishOptions = {}): { withdrawn: StoreVersion; latest: StoreVersion } {
  const now = (options.now ?? (() => new Date()))();
  const db = openForWriting(storePath);
  try {
    const served = storeVersions(db).filter((v) => v.retired_at === null);
    if (served.length < 2) {
      throw new Error(
        served.length
          ? `snapshot ${served[0].id} is the only one the store serves: there is none before it to go back to`
          : "the store serves no snapshot",
      );
    }
    const withdrawn = served[served.length - 1];
    db.prepare("UPDATE store_versions SET retired_at = ? WHERE seq = ?").run(now.toISOString(), withdrawn.seq);
    return { withdrawn: { ...withdrawn, retired_at: now.toISOString() }, latest: served[served.length - 2] };
  } finally {
    db.close();
  }
}

/**
 * Empties the store's write-ahead log into the store, trying for up to `waitMs`: a publish writes
 * its month there, and it can be emptied only once every reader has moved past it (the service
 * renews its reads while idle, and reopens the versions a publish changed: server/data/
 * store-snapshots.ts). Returns whether it was emptied; if not, the next publish tries again.
 */
export async function emptyLog(storePath: string, waitMs: number): Promise<boolean> {
  const db = new Database(storePath, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 200");
    const deadline = Date.now() + waitMs;
    for (;;) {
      const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
      if (result.busy === 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    db.close();
  }
}
