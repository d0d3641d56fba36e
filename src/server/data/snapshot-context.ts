// What every handler needs to know about the snapshot being served: the open database, its
// identity and the facts computed when it was built (coverage, inputs per asset type). Every
// cache of answers drawn from the file (prepared statements, counts, the place index, the ETags
// of stored documents) lives here, so a context replaced by a rollout (live-snapshot.ts) takes
// its caches with it and nothing of it reaches answers from the next one.
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { SNAPSHOT_FORMAT, formatOf, isCurrentFormat, openSnapshot, readMeta, schemaProblem } from "../../snapshot/snapshot-file";
import { snapshotIdProblem } from "../../snapshot/snapshot-id";
import { propertyDocLookup } from "../../snapshot/property-docs";
import { readsByParts } from "../../snapshot/store/store-open";
import { type RowReader, readAll, readOne, rowReader } from "./row-reader";
import { PlaceIndex } from "./place-index";
import { ASSET_TYPES, type AssetType, type SearchInput } from "../../contract/vocabulary";
import { SNAPSHOT_SOURCES, type CoverageFigures, type SnapshotSource, splitHistoryGaps } from "../../contract/coverage";
import type { SnapshotRef } from "../../contract/snapshot-ref";
import type { SnapshotStamp } from "./snapshot-select";

const COUNT_CACHE_SIZE = 20_000;
/**
 * Prepared statements kept per snapshot, each cache (row readers, single values) holding at most
 * this many, least recently used dropped first. Queries are built from a fixed set of parts, but
 * a list parameter (owner_name's matching owners, say) puts one `?` per item in the SQL text, so
 * the texts are not a fixed set: each list length is another statement.
 */
export const STATEMENT_CACHE_SIZE = 500;
export class SnapshotContext {
  readonly ref: SnapshotRef;
  /** `"snapshot":{...}` as answers serialise the ref: left out of their validators (http/etag.ts). */
  readonly refMember: string;
  /** Its id, capture and build times: what ranks kept snapshots and selects one (data/snapshot-select.ts). */
  readonly stamp: SnapshotStamp;
  readonly meta: Record<string, string>;
  /** Generated or imported (the coverage report says which). */
  readonly source: SnapshotSource;
  /** The coverage report's figures, computed when the snapshot was built (snapshot/derive/coverage.ts). */
  readonly coverage: CoverageFigures;
  readonly assetInputs: Record<AssetType, SearchInput[]>;
  private readonly readers = new Map<string, RowReader>();
  private readonly plucked = new Map<string, Database.Statement>();
  private readonly counts = new Map<string, number>();
  /** Names this very file (its id and build time), for the ETags of its stored documents. */
  private readonly fileTag: string;
  /** A property's stored detail answer (snapshot/property-docs.ts), or undefined for an unknown id. */
  readonly propertyDoc: (id: string) => string | undefined;
  private placeIndex: PlaceIndex | undefined;
  /**
   * The database is an older version of a snapshot store (src/snapshot/store), whose tables are
   * each the union of two parts: paged lists and text searches read the parts apart (data/sql-where.ts).
   */
  readonly readsByParts: boolean;
  /** Requests answered from this snapshot that have not finished yet (LiveSnapshot counts them). */
  leases = 0;
  /** No longer kept (replaced, or the oldest beyond the number kept): the database closes when the last lease is released. */
  retired = false;
  /** Since when this process answers from this snapshot, and which one it answered from before (the coverage report shows both). */
  serving: { since: string; previous_id: string | null } = { since: new Date().toISOString(), previous_id: null };

  constructor(readonly db: Database.Database) {
    this.meta = readMeta(db);
    for (const key of ["id", "captured_at", "built_at", "source", "coverage", "asset_inputs"]) {
      if (!(key in this.meta)) throw new Error(`snapshot is incomplete: meta '${key}' is missing`);
    }
    const badId = snapshotIdProblem(this.meta.id);
    if (badId) throw new Error(`snapshot is not served: ${badId}`);
    if (!isCurrentFormat(this.meta)) {
      throw new Error(
        `snapshot ${this.meta.id} has format ${formatOf(this.meta)}, older than this service reads (${SNAPSHOT_FORMAT}): build or import it again`,
      );
    }
    if (!/^\d+$/.test(this.meta.doc_probe ?? "")) throw new Error("snapshot is incomplete: meta 'doc_probe' is missing or not a count");
    const layout = schemaProblem(db);
    if (layout) throw new Error(`snapshot ${this.meta.id} is not served: ${layout}`);
    const source = SNAPSHOT_SOURCES.find((s) => s === this.meta.source);
    if (!source) throw new Error(`snapshot meta 'source' is "${this.meta.source}", not one of: ${SNAPSHOT_SOURCES.join(", ")}`);
    this.source = source;
    this.propertyDoc = propertyDocLookup(db, Number(this.meta.doc_probe));
    this.readsByParts = readsByParts(db);
    this.ref = { id: this.meta.id, captured_at: this.meta.captured_at };
    this.refMember = `"snapshot":${JSON.stringify(this.ref)}`;
    this.stamp = { id: this.meta.id, captured_at: this.meta.captured_at, built_at: this.meta.built_at };
    this.fileTag = crypto.hash("sha256", `${this.meta.id} ${this.meta.built_at}`, "base64url").slice(0, 16);
    this.coverage = withHistoryNotHeld(JSON.parse(this.meta.coverage) as CoverageFigures);
    const inputs = JSON.parse(this.meta.asset_inputs) as Record<string, SearchInput[]>;
    this.assetInputs = Object.fromEntries(ASSET_TYPES.map((t) => [t, inputs[t] ?? []])) as Record<
      AssetType,
      SearchInput[]
    >;
  }

  /** How many prepared statements this snapshot holds (each of its two caches at most STATEMENT_CACHE_SIZE). */
  get cachedStatements(): number {
    return this.readers.size + this.plucked.size;
  }

  /** Whether `other` was opened from the same snapshot file (the same id and build time). */
  isSameFile(other: SnapshotContext): boolean {
    return this.fileTag === other.fileTag;
  }

  /** Closes the database; the context must not be used afterwards. */
  close(): void {
    this.readers.clear();
    this.plucked.clear();
    this.counts.clear();
    this.placeIndex = undefined;
    this.db.close();
  }

  /** The places the snapshot holds, loaded on first use (requests that name no place never need them). */
  get places(): PlaceIndex {
    this.placeIndex ??= new PlaceIndex(this.db);
    return this.placeIndex;
  }

  /** The capture date as YYYY-MM-DD: "now" for every relative date in queries. */
  get asOf(): string {
    return this.ref.captured_at.slice(0, 10);
  }

  /**
   * Every row of a query, as objects. Statements (here and in `get`, `value`) are prepared once
   * per SQL text and kept while they are among the STATEMENT_CACHE_SIZE used last.
   */
  all<T = Record<string, unknown>>(sql: string, params: unknown[] = []): T[] {
    return readAll(this.reader(sql), params) as T[];
  }

  /** Every row of a query whose last `omitLast` columns only order its rows, as objects without them. */
  allBut<T = Record<string, unknown>>(sql: string, params: unknown[], omitLast: number): T[] {
    return readAll(
      prepared(this.readers, `${omitLast}\u0000${sql}`, () => rowReader(this.db, sql, omitLast)),
      params,
    ) as T[];
  }

  get<T = Record<string, unknown>>(sql: string, params: unknown[] = []): T | undefined {
    return readOne(this.reader(sql), params) as T | undefined;
  }

  private reader(sql: string): RowReader {
    return prepared(this.readers, sql, () => rowReader(this.db, sql));
  }

  /** The first column of the first row, or undefined when there is no row. */
  value<T>(sql: string, params: unknown[] = []): T | undefined {
    return prepared(this.plucked, sql, () => this.db.prepare(sql).pluck()).get(...params) as T | undefined;
  }

  /**
   * `SELECT count(*) <from>`, remembered: a snapshot file never changes while it is open,
   * and counting every match of a broad search costs more than fetching its first page.
   * Least-recently-used entries are dropped past COUNT_CACHE_SIZE.
   */
  count(from: string, params: unknown[]): number {
    const key = `${from}\u0000${JSON.stringify(params)}`;
    const hit = this.counts.get(key);
    if (hit !== undefined) {
      this.counts.delete(key);
      this.counts.set(key, hit);
      return hit;
    }
    const n = this.value<number>(`SELECT count(*) ${from}`, params)!;
    this.counts.set(key, n);
    if (this.counts.size > COUNT_CACHE_SIZE) this.counts.delete(this.counts.keys().next().value as string);
    return n;
  }
}

/** Opens a snapshot file as a context, closing the database if the context refuses it. */
export function openContext(file: string): SnapshotContext {
  return contextOf(openSnapshot(file));
}

/** A context over an open database (a file, or a version of a store); the database is closed if the context refuses it. */
export function contextOf(db: Database.Database): SnapshotContext {
  try {
    return new SnapshotContext(db);
  } catch (err) {
    db.close();
    throw err;
  }
}

/** The cached statement for `sql`, made on a miss; the least recently used goes past STATEMENT_CACHE_SIZE. */

function prepared<T>(cache: Map<string, T>, sql: string, make: () => T): T {
  let s = cache.get(sql);
  if (s) {
    // A Map iterates in insertion order: moving a hit to the end keeps the least recently used first.
    cache.delete(sql);
    cache.set(sql, s);
    return s;
  }
  s = make();
  cache.set(sql, s);
  if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return s;
}

/**
 * A format-5 snapshot built before coverage had `history.not_held` listed the metrics a type has
 * no figure for among its gaps: split the same way a build does now.
 */
function withHistoryNotHeld(coverage: CoverageFigures): CoverageFigures {
  const { history } = coverage;
  if (!history || history.not_held) return coverage;
  return { ...coverage, history: { ...history, ...splitHistoryGaps(history.gaps) } };
}
