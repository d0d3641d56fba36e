// The full-text index of a store over every version's properties: the latest rows
// (`properties`) and the replaced ones (`properties_old`, store-layout.ts), each entry keyed so
// that one query gives any older version's page of matches in order.
//
// Each entry's rowid is its key: the row's `rid` (its rowid in `properties`), `vfrom` and `vto`
// packed into one integer (`rid << 32 | vfrom << 16 | vto`), a latest row's `vto` being
// LATEST_VTO. So the index gives its matches in `rid` order, the order of every text search's
// page, and tells from the key alone which versions hold each match: version `k`'s page is the
// first matches with `vfrom <= k < vto`, read in index order without reading a row or sorting,
// and its count is the number of such matches; only the page's rows are then read. A version
// holds one content of a `rid` at most, so its matches name distinct rows. The index is
// contentless (the rows are its content, found through the key) and deletes by key.
//
// The newest version searches the snapshot's own index (`properties_fts`), as a file does. A
// store built before this index has `properties_old_fts` instead, over the replaced rows keyed by
// `properties_old`'s own rowid (which orders them by the version that replaced them, then by
// `rid`): an older version read a page from each later version's range of it, or sorted every
// match. `keyVersionTextIndex` builds this index and drops that one (seconds at 1M properties),
// and builds again an index whose leaves are of another size than VERSION_FTS_PGSZ.
import type Database from "better-sqlite3";
import { FTS_TOKENIZE, PROPERTIES_FTS_COLUMNS } from "../tables";

/** The text index over every version's properties, keyed by `rid`, `vfrom` and `vto`. */
export const VERSION_FTS_TABLE = "properties_fts_versions";
/** The text index over the replaced properties that a store built before VERSION_FTS_TABLE has. */
export const UNKEYED_OLD_FTS_TABLE = "properties_old_fts";

/** The `vto` of a latest row in a key; versions go up to the one before it (16 bits each). */
export const LATEST_VTO = 0xffff;
/** The greatest `rid` a key holds (31 bits, so a key is a positive 64-bit integer). */
export const MAX_KEY_RID = 0x7fffffff;

/** The key of row `a`, of `properties_old` (its `rid`, `vfrom`, `vto`) or, with `latest`, of `properties` (its rowid, `vfrom`). */
function keyOf(a: string, latest: boolean): string {
  return latest ? `((${a}.rowid << 32) | (${a}.vfrom << 16) | ${LATEST_VTO})` : `((${a}.rid << 32) | (${a}.vfrom << 16) | ${a}.vto)`;
}

/** The `rid` a key names, as SQL over the key expression `key`. */
export function keyRid(key: string): string {
  return `(${key} >> 32)`;
}

/** Whether version `seq` holds the row a key names (`vfrom <= seq < vto`), as SQL over `key`. */
export function keyHeldBy(key: string, seq: number): string {
  return `((${key} >> 16) & ${LATEST_VTO}) <= ${seq} AND (${key} & ${LATEST_VTO}) > ${seq}`;
}

/** Whether a key names a replaced row (one of `properties_old`), as SQL over `key`. */
export function keyReplaced(key: string): string {
  return `(${key} & ${LATEST_VTO}) < ${LATEST_VTO}`;
}

/** The join of a replaced row's key `key` to its row `p` of `properties_old` (by `rid`, then `vto`). */
export function keyJoin(key: string, p: string): string {
  return `${p}.rid = ${keyRid(key)} AND ${p}.vto = (${key} & ${LATEST_VTO})`;
}

/**
 * The value of `expr` (SQL over alias `p`, of columns the latest and the replaced rows share) for
 * the row that the key `key` (SQL) names: a latest row read from `properties` by its rowid, a
 * replaced one from `properties_old` by its `rid` and `vto`. So each row is looked up once, in the
 * table that holds it, where an older version's view of `properties` (store-open.ts) looks each
 * rowid up in both of its parts.
 */
export function valueOfKey(key: string, expr: string): string {
  return (
    `CASE WHEN ${keyReplaced(key)} THEN (SELECT ${expr} FROM main.properties_old p WHERE ${keyJoin(key, "p")}) ` +
    `ELSE (SELECT ${expr} FROM main.properties p WHERE p.rowid = ${keyRid(key)}) END`
  );
}

const COLUMNS = PROPERTIES_FTS_COLUMNS.join(", ");

/** `CREATE VIRTUAL TABLE` of the keyed index (createVersionTextIndex also sets its leaf size). */
const VERSION_FTS_DDL = `CREATE VIRTUAL TABLE ${VERSION_FTS_TABLE} USING fts5(${COLUMNS}, content='', contentless_delete=1, ${FTS_TOKENIZE})`;

/**
 * The size in bytes of the keyed index's leaf pages (FTS5's `pgsz`, 4,050 unless set). A search
 * of a rare word and a common one ("<city> industrial") seeks in the common word's doclist once
 * for each match of the rare one, and FTS5 finds a key inside a leaf by stepping over the leaf's
 * entries from its first. A key is a wide integer, so each entry takes about twice the bytes of a
 * snapshot index's and a default leaf holds a few hundred to step over; smaller leaves hold
 * fewer, for the same size on disk (docs/benchmarks.md compares the sizes). Every merge
 * (`optimize`) writes leaves of this size.
 */
export const VERSION_FTS_PGSZ = 1000;

/** Creates the keyed index, empty, with leaves of VERSION_FTS_PGSZ bytes. */
export function createVersionTextIndex(db: Database.Database): void {
  db.exec(VERSION_FTS_DDL);
  db.exec(`INSERT INTO main.${VERSION_FTS_TABLE} (${VERSION_FTS_TABLE}, rank) VALUES ('pgsz', ${VERSION_FTS_PGSZ})`);
}

/** The table a key is made from: the latest rows or the replaced ones. */
type Rows = "properties" | "properties_old";

/** Throws when a row `where` selects from `rows` has a rowid or version its key cannot hold. */
function checkKeys(db: Database.Database, rows: Rows, where: string): void {
  const [rid, version] = rows === "properties" ? ["p.rowid", "p.vfrom"] : ["p.rid", "p.vto"];
  const over = db
    .prepare(`SELECT count(*) FROM main.${rows} p WHERE (${where}) AND (${rid} > ? OR ${version} >= ?)`)
    .pluck()
    .get(MAX_KEY_RID, LATEST_VTO) as number;
  if (over) throw new Error(`${over} rows of ${rows} have a rowid or version too large for the text index's key`);
}

/** Adds to the keyed index the rows of `rows` that `where` selects (SQL over alias `p`), in key order. */
export function indexVersionText(db: Database.Database, rows: Rows, where: string): number {
  checkKeys(db, rows, where);
  const key = keyOf("p", rows === "properties");
  return db
    .prepare(
      `INSERT INTO main.${VERSION_FTS_TABLE} (rowid, ${COLUMNS}) SELECT ${key}, ${COLUMNS} FROM main.${rows} p WHERE ${where} ORDER BY 1`,
    )
    .run().changes;
}

/** Takes out of the keyed index the rows of `rows` that `where` selects, as they are now (before they change or go). */
export function unindexVersionText(db: Database.Database, rows: Rows, where: string): void {
  const key = keyOf("p", rows === "properties");
  db.exec(`DELETE FROM main.${VERSION_FTS_TABLE} WHERE rowid IN (SELECT ${key} FROM main.${rows} p WHERE ${where})`);
}

/**
 * Merges the keyed index into one segment, as a snapshot file's own index is: each publish
 * adds its month's entries and deletions as segments of their own, which every search reads.
 */
export function optimizeVersionText(db: Database.Database): void {
  db.exec(`INSERT INTO main.${VERSION_FTS_TABLE} (${VERSION_FTS_TABLE}) VALUES ('optimize')`);
}

/**
 * Whether the store lacks the keyed index (it was built before it), or has it with leaves of
 * another size: merging an index of one segment writes nothing, so only building it again gives
 * it leaves of VERSION_FTS_PGSZ bytes.
 */
export function needsVersionTextIndex(db: Database.Database): boolean {
  if (db.prepare("SELECT 1 FROM main.sqlite_schema WHERE name = ?").get(VERSION_FTS_TABLE) === undefined) return true;
  const pgsz = db.prepare(`SELECT v FROM main.${VERSION_FTS_TABLE}_config WHERE k = 'pgsz'`).pluck().get();
  return pgsz !== VERSION_FTS_PGSZ;
}

/**
 * Gives a store built before the keyed index, or with it at another leaf size, that index from
 * its latest and replaced properties, and drops the unkeyed one. Returns the rows indexed, or
 * undefined when the store has it already. Runs in the caller's transaction, on a store open
 * for writing.
 */
export function keyVersionTextIndex(db: Database.Database): number | undefined {
  if (!needsVersionTextIndex(db)) return undefined;
  db.exec(`DROP TABLE IF EXISTS main.${VERSION_FTS_TABLE}`);
  createVersionTextIndex(db);
  const indexed = indexVersionText(db, "properties", "1") + indexVersionText(db, "properties_old", "1");
  db.exec(`DROP TABLE IF EXISTS main.${UNKEYED_OLD_FTS_TABLE}`);
  return indexed;
}
