// Writing and opening the snapshot file. A snapshot is written once (by the builder or the
// importer) into a temporary file that is renamed into place when complete, so a half-built
// snapshot is never served; the service then opens it read-only.
import Database from "better-sqlite3";
import fs from "node:fs";
import {
  META_DDL,
  PROPERTIES_FTS_DDL,
  PROPERTIES_FTS_FILL,
  TABLES,
  arrayFields,
  columnsOf,
  indexDdl,
  tableDdl,
  type TableName,
} from "./tables";
import { PROPERTY_DOCS_DDL, fillPropertyDocs } from "./property-docs";
import { MARKET_HISTORY_DDL } from "./history-tables";
import { snapshotIdProblem } from "./snapshot-id";
import { addMatchKeys } from "./match-keys";

/**
 * The layout version this code writes and the service reads. 2 added `property_docs`; 3 keyed
 * them by a hash of the id (`snapshot_meta.doc_probe` records the collisions' probe distance);
 * 4 added the `places` table, county and ZIP markets, and an index of properties by county;
 * 5 added `market_history` (and `captured_market_history`), the coverage report's `history`, and
 * indexes of sales and tenancies by property and date; 6 added the history's `property_count` and
 * took its span back to 2006 (at least 80 quarters); 7 added national markets (and their history)
 * and renamed the parcel's `fips` to `county_fips`; 8 stores each market's history as one row
 * (history-codec.ts) in place of a row per quarter; 9 as two rows, its closed years and the
 * capture's year; 10 as one row per calendar year (history-tables.ts). A file of an older format is rebuilt
 * (generated) or refused (imported) when the service starts.
 */
export const SNAPSHOT_FORMAT = 10;

export type Row = Record<string, unknown>;

export class SnapshotWriter {
  readonly db: Database.Database;
  private readonly inserts = new Map<TableName, (row: Row) => void>();
  private readonly indexed = new Set<TableName>();
  private textIndexed = false;
  private docsRendered = false;

  /** `onInsert` sees every row as it is inserted (a parallel build's worker counts its rows with it). */
  constructor(
    readonly path: string,
    private readonly onInsert?: (table: TableName, row: Row) => void,
  ) {
    fs.rmSync(path, { force: true });
    this.db = new Database(path);
    // 4 KiB pages (SQLite's default). Larger pages load a little faster, but every point lookup
    // then copies a whole page per b-tree level and the service's page cache holds fewer rows,
    // so detail lookups are slower (docs/benchmarks.md has the figures).
    this.db.pragma("page_size = 4096");
    // Bulk-load settings: the file is rebuilt from scratch on failure, so durability
    // during the load buys nothing.
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.pragma("cache_size = -262144");
    this.db.pragma("temp_store = MEMORY");
    this.db.exec(META_DDL);
    for (const name of Object.keys(TABLES) as TableName[]) this.db.exec(tableDdl(name));
    this.db.exec(MARKET_HISTORY_DDL);
  }

  /** Inserts rows; call inside `transaction` for speed. Array fields are stored as JSON. */
  insert(table: TableName, row: Row): void {
    let fn = this.inserts.get(table);
    if (!fn) {
      const cols = columnsOf(TABLES[table]);
      const arrays = arrayFields(table);
      const stmt = this.db.prepare(`INSERT INTO ${table} (${cols.join(",")}) VALUES (${cols.map(() => "?").join(",")})`);
      const seen = this.onInsert;
      fn = (r: Row) => {
        seen?.(table, r);
        stmt.run(cols.map((c) => (arrays.has(c) ? JSON.stringify(r[c] ?? []) : (r[c] ?? null))));
      };
      this.inserts.set(table, fn);
    }
    fn(row);
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  setMeta(key: string, value: unknown): void {
    this.db
      .prepare("INSERT OR REPLACE INTO snapshot_meta (key, value) VALUES (?, ?)")
      .run(key, typeof value === "string" ? value : JSON.stringify(value));
  }

  /**
   * Builds the indexes of some tables now (the builder indexes the record tables before deriving
   * from them, and indexes empty tables before copying pre-indexed rows in); buildIndexes skips them.
   */
  createIndexes(tables: readonly TableName[]): void {
    for (const name of tables) {
      if (this.indexed.has(name)) continue;
      for (const ddl of indexDdl(name)) this.db.exec(ddl);
      this.indexed.add(name);
    }
  }

  /** Builds the properties text index (once all properties are in); buildIndexes then skips it. */
  createTextIndex(): void {
    if (this.textIndexed) return;
    this.db.exec(PROPERTIES_FTS_DDL);
    this.db.exec(PROPERTIES_FTS_FILL);
    this.db.exec("INSERT INTO properties_fts(properties_fts) VALUES ('optimize')");
    this.textIndexed = true;
  }

  /** Renders every property's detail document (once all properties are in); buildIndexes then skips it. */
  renderPropertyDocs(): void {
    if (this.docsRendered) return;
    this.setMeta("doc_probe", String(fillPropertyDocs(this.db)));
    this.docsRendered = true;
  }

  /** Builds the indexes, the text index, the property documents and the match index. Call after all rows are in. */
  buildIndexes(): void {
    this.createIndexes(Object.keys(TABLES) as TableName[]);
    this.createTextIndex();
    this.renderPropertyDocs();
    // Reads each property's parcel: after the parcels are in.
    addMatchKeys(this.db);
    // The snapshot's own statistics only: a next month has the previous file attached, which must stay as it is.
    this.db.exec("ANALYZE main");
  }

  close(): void {
    this.db.close();
  }
}

/** The meta of the snapshot `db` answers for (or of the attached database `schema`). */
export function readMeta(db: Database.Database, schema?: string): Record<string, string> {
  const rows = db.prepare(`SELECT key, value FROM ${schema ? `${schema}.` : ""}snapshot_meta`).all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** The meta of the snapshot file (or store: its latest rows') at `path`, read and closed. */
export function readMetaOf(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return readMeta(db);
  } finally {
    db.close();
  }
}

/** The layout version a snapshot's meta records (files from before the version was kept are 1). */
export function formatOf(meta: Record<string, string>): number {
  return meta.format === undefined ? 1 : Number(meta.format);
}

/** Whether a snapshot with this meta has the layout this version reads (a garbled format does not). */
export function isCurrentFormat(meta: Record<string, string>): boolean {
  return formatOf(meta) >= SNAPSHOT_FORMAT;
}

/**
 * The meta of the snapshot file at `path` when it is older than SNAPSHOT_FORMAT, else null.
 * A file that is not a snapshot at all is an error naming it.
 */
export function outdatedSnapshot(path: string): Record<string, string> | null {
  let meta: Record<string, string>;
  try {
    meta = readMetaOf(path);
  } catch (err) {
    throw new Error(`${path} is not a snapshot this service can read (${(err as Error).message}). Build or import one there.`);
  }
  return isCurrentFormat(meta) ? null : meta;
}

/** Opens a finished snapshot for serving: read-only, with a page cache sized for lookups. */
export function openSnapshot(path: string): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma("cache_size = -65536");
  db.pragma("mmap_size = 268435456");
  // Keep the shared lock once taken: the file never changes under a reader (builds write a
  // new file and rename it), so re-locking and re-checking for a journal on every query is
  // pure overhead (3 fcntl + 1 stat per query, about 20% of a property lookup).
  db.pragma("locking_mode = EXCLUSIVE");
  return db;
}

/** Every table and view of a finished snapshot, as the writer creates them (indexes aside). */
function schemaDdl(): string[] {
  const tables = (Object.keys(TABLES) as TableName[]).map(tableDdl);
  return [META_DDL, ...tables, MARKET_HISTORY_DDL, PROPERTIES_FTS_DDL, PROPERTY_DOCS_DDL];
}

interface SchemaObject {
  type: string;
  name: string;
  columns: string[];
}

function schemaObjects(db: Database.Database): SchemaObject[] {
  const rows = db
    .prepare("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { type: string; name: string }[];
  return rows.map((r) => ({ ...r, columns: columnNames(db, r.name) }));
}

function columnNames(db: Database.Database, name: string): string[] {
  return (db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(name) as string[]).sort();
}

let expectedSchema: SchemaObject[] | undefined;

/** The tables and views (with their columns) the writer's own definitions create, built once in memory. */
function snapshotSchema(): SchemaObject[] {
  if (!expectedSchema) {
    const db = new Database(":memory:");
    try {
      for (const ddl of schemaDdl()) db.exec(ddl);
      expectedSchema = schemaObjects(db);
    } finally {
      db.close();
    }
  }
  return expectedSchema;
}

/**
 * What a snapshot file lacks of the layout the writer creates and the service reads (every table
 * and view, the text index's own tables included, with at least their columns), or undefined
 * when it has it all. A dropped table passes quick_check; searches would fail on it instead.
 */
export function schemaProblem(db: Database.Database): string | undefined {
  const have = new Map(
    (db.prepare("SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view')").all() as { name: string; type: string }[]).map(
      (r) => [r.name, r.type],
    ),
  );
  const problems: string[] = [];
  for (const want of snapshotSchema()) {
    const type = have.get(want.name);
    if (type !== want.type) {
      problems.push(type === undefined ? `${want.type} ${want.name} is missing` : `${want.name} is a ${type}, not a ${want.type}`);
      continue;
    }
    let columns: string[];
    try {
      columns = columnNames(db, want.name);
    } catch (err) {
      problems.push(`${want.type} ${want.name} cannot be read (${(err as Error).message})`);
      continue;
    }
    const lacking = want.columns.filter((c) => !columns.includes(c));
    if (lacking.length) problems.push(`${want.type} ${want.name} lacks column${lacking.length > 1 ? "s" : ""} ${lacking.join(", ")}`);
  }
  return problems.length ? `it lacks the snapshot layout: ${problems.slice(0, 5).join("; ")}` : undefined;
}

/**
 * Why the file at `path` cannot be published and served as one self-contained file, or
 * undefined. A snapshot is hard-linked and renamed, and unlinked while a process may still read
 * it, which is safe for a file in SQLite's rollback-journal mode with no journal beside it: a
 * process reads through its open handle. A file in WAL mode keeps pages in its `-wal` file, which
 * a link or rename leaves behind, and a `-journal` beside a file is an interrupted write.
 */
export function sideFileProblem(path: string): string | undefined {
  const header = Buffer.alloc(20);
  const fd = fs.openSync(path, "r");
  try {
    fs.readSync(fd, header, 0, 20, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (header.toString("latin1", 0, 16) === "SQLite format 3\0" && (header[18] === 2 || header[19] === 2)) {
    return `it is in WAL mode (its pages may be in ${path}-wal); run sqlite3 ${path} 'PRAGMA journal_mode=DELETE' and publish it again`;
  }
  for (const side of ["-wal", "-journal"]) {
    if (fs.existsSync(`${path}${side}`)) return `${path}${side} lies beside it (a write that did not finish); build the file again`;
  }
  return undefined;
}

/**
 * Checks, without serving it, that the file at `path` is a whole snapshot this version reads: a
 * single SQLite file (no WAL, no journal beside it) whose pages pass `PRAGMA quick_check`, holding
 * meta with a well-formed id in the current format and every table and view the writer creates.
 * Returns the meta; throws an Error saying what is wrong. quick_check reads every page (seconds
 * for a large file), so the service runs this off its thread (snapshot-check.ts).
 */
export function checkSnapshotFile(path: string): Record<string, string> {
  const fail = (why: string): never => {
    throw new Error(`${path} is not a snapshot this service can serve: ${why}`);
  };
  if (!fs.existsSync(path)) fail("there is no such file");
  const side = sideFileProblem(path);
  if (side) fail(side);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    return fail((err as Error).message);
  }
  try {
    let problems: string[] = [];
    try {
      problems = (db.pragma("quick_check(5)") as { quick_check: string }[]).map((r) => r.quick_check);
    } catch (err) {
      fail(`${(err as Error).message} (SQLite)`);
    }
    if (problems.length !== 1 || problems[0] !== "ok")
      fail(`it is damaged (quick_check: ${problems.join("; ").replace(/\s*\n\s*/g, " ")})`);
    let meta: Record<string, string> = {};
    try {
      meta = readMeta(db);
    } catch (err) {
      fail(`it has no snapshot meta (${(err as Error).message})`);
    }
    if (!meta.id) fail("its meta has no id");
    const badId = snapshotIdProblem(meta.id);
    if (badId) fail(badId);
    if (!isCurrentFormat(meta)) fail(`snapshot ${meta.id} has format ${formatOf(meta)}; this service reads format ${SNAPSHOT_FORMAT}`);
    const layout = schemaProblem(db);
    if (layout) fail(layout);
    return meta;
  } finally {
    db.close();
  }
}
