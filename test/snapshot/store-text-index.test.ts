// The store's text index over every version (src/snapshot/store/version-text-index.ts): it holds
// one entry per latest and per replaced property, keyed by rid and versions, through publishes
// and retirement; every version's text search answers as when it was the latest; and a store built
// with the unkeyed index over its replaced contents, or with the keyed one in leaves of another
// size, is given the keyed one at start or at its next publish.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { SnapshotContext } from "../../src/server/data/snapshot-context";
import { type PropertySearch, searchProperties } from "../../src/server/data/property-search";
import { ensureStore } from "../../src/snapshot/store/ensure-store";
import { openStoreVersion } from "../../src/snapshot/store/store-open";
import { publishToStore, retireThrough } from "../../src/snapshot/store/store-publish";
import { LATEST_VTO, UNKEYED_OLD_FTS_TABLE, VERSION_FTS_TABLE } from "../../src/snapshot/store/version-text-index";
import { FTS_TOKENIZE, PROPERTIES_FTS_COLUMNS } from "../../src/snapshot/tables";
import { monthFiles } from "../helpers/month-files";
import { tempDir } from "./files";

const MONTHS = 5;
let dir: string;
let files: string[];
let ids: string[];
/** Searches by words alone (first pages and later ones) and with a filter, from words of the first month's properties. */
let searches: PropertySearch[];

beforeAll(() => {
  dir = tempDir("store-text-index-");
  ({ files, ids } = monthFiles(dir, { seed: 41, properties: 400, months: MONTHS }));
  const db = new Database(files[0], { readonly: true });
  const rows = db.prepare("SELECT name, city, state_code FROM properties ORDER BY rowid LIMIT 4").all() as {
    name: string;
    city: string;
    state_code: string;
  }[];
  db.close();
  const words = [...rows.map((r) => r.name.split(" ")[0]), rows[0].city, "industrial", "office"];
  searches = words.flatMap((q): PropertySearch[] => [
    { q, places: [], limit: 10, offset: 0 },
    { q, places: [], limit: 7, offset: 7 },
    { q, places: [], asset_type: "office", limit: 5, offset: 0 },
  ]);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Per version: every search's answer when it was the newest (the same in every store of these files). */
const latestAnswers = new Map<number, string[]>();

/** Publishes `file` into `store`, keeping the searches' answers of the new newest version. */
function publish(store: string, file: string): void {
  const { version } = publishToStore(store, file);
  const newest = new SnapshotContext(openStoreVersion(store));
  try {
    const got = answers(newest);
    if (!latestAnswers.has(version.seq)) latestAnswers.set(version.seq, got);
    else expect(got).toEqual(latestAnswers.get(version.seq));
  } finally {
    newest.close();
  }
}

/** A new store of the first `months` files, published in turn. */
function storeOf(name: string, months: number): string {
  const store = path.join(dir, name);
  for (const file of files.slice(0, months)) publish(store, file);
  return store;
}

/** Every search's page and total. */
function answers(context: SnapshotContext): string[] {
  return searches.map((s) => JSON.stringify(searchProperties(context, s)));
}

/** The searches asked of each older version the store serves whose answers differ from those it gave as the newest. */
function differencesFromLatest(store: string): string[] {
  const differences: string[] = [];
  const db = new Database(store, { readonly: true });
  const served = db.prepare("SELECT seq, id FROM store_versions WHERE retired_at IS NULL ORDER BY seq").all() as {
    seq: number;
    id: string;
  }[];
  db.close();
  expect(served.length).toBeGreaterThan(1);
  for (const { seq, id } of served.slice(0, -1)) {
    const version = new SnapshotContext(openStoreVersion(store, id, { cacheKiB: 8192, mmapBytes: 0 }));
    try {
      answers(version).forEach((answer, i) => {
        if (answer !== latestAnswers.get(seq)![i]) differences.push(`version ${seq} search #${i}`);
      });
    } finally {
      version.close();
    }
  }
  return differences;
}

/** The index's keys, and the keys of every latest and replaced property (rid, vfrom, vto), each sorted. */
function keys(store: string): { indexed: string[]; rows: string[] } {
  const db = new Database(store, { readonly: true });
  try {
    const key = (k: bigint) => `${k >> 32n}/${(k >> 16n) & 0xffffn}/${k & 0xffffn}`;
    const indexed = (db.prepare(`SELECT rowid FROM ${VERSION_FTS_TABLE}`).pluck().safeIntegers().all() as bigint[]).map(key);
    const rows = [
      ...(db.prepare("SELECT rowid, vfrom FROM properties").raw().all() as [number, number][]).map(([r, f]) => `${r}/${f}/${LATEST_VTO}`),
      ...(db.prepare("SELECT rid, vfrom, vto FROM properties_old").raw().all() as [number, number, number][]).map(
        ([r, f, t]) => `${r}/${f}/${t}`,
      ),
    ];
    return { indexed: indexed.sort(), rows: rows.sort() };
  } finally {
    db.close();
  }
}

/** Gives `store` the layout a store was built with before the index over every version: an unkeyed index over its replaced properties. */
function unkeyed(store: string): void {
  const db = new Database(store);
  try {
    db.exec(`DROP TABLE ${VERSION_FTS_TABLE}`);
    db.exec(
      `CREATE VIRTUAL TABLE ${UNKEYED_OLD_FTS_TABLE} USING fts5(${PROPERTIES_FTS_COLUMNS.join(", ")}, content='properties_old', content_rowid='rowid', ${FTS_TOKENIZE})`,
    );
    db.exec(`INSERT INTO ${UNKEYED_OLD_FTS_TABLE} (${UNKEYED_OLD_FTS_TABLE}) VALUES ('rebuild')`);
  } finally {
    db.close();
  }
}

/** Gives `store` the index over every version as it was built before its leaf size was set: the same entries, in leaves of FTS5's default size. */
function defaultLeaves(store: string): void {
  const db = new Database(store);
  try {
    const columns = PROPERTIES_FTS_COLUMNS.join(", ");
    db.exec(`DROP TABLE ${VERSION_FTS_TABLE}`);
    db.exec(`CREATE VIRTUAL TABLE ${VERSION_FTS_TABLE} USING fts5(${columns}, content='', contentless_delete=1, ${FTS_TOKENIZE})`);
    db.exec(
      `INSERT INTO ${VERSION_FTS_TABLE} (rowid, ${columns}) SELECT (rowid << 32) | (vfrom << 16) | ${LATEST_VTO}, ${columns} FROM properties`,
    );
    db.exec(
      `INSERT INTO ${VERSION_FTS_TABLE} (rowid, ${columns}) SELECT (rid << 32) | (vfrom << 16) | vto, ${columns} FROM properties_old`,
    );
  } finally {
    db.close();
  }
}

/** The leaf size (FTS5 `pgsz`) set on the index over every version, or undefined when it has FTS5's default. */
function leafSize(store: string): unknown {
  const db = new Database(store, { readonly: true });
  try {
    return db.prepare(`SELECT v FROM ${VERSION_FTS_TABLE}_config WHERE k = 'pgsz'`).pluck().get();
  } finally {
    db.close();
  }
}

function tables(store: string): string[] {
  const db = new Database(store, { readonly: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_schema WHERE name IN (?, ?) ORDER BY name")
      .pluck()
      .all(VERSION_FTS_TABLE, UNKEYED_OLD_FTS_TABLE) as string[];
  } finally {
    db.close();
  }
}

test("the index over every version holds exactly one entry per latest and per replaced property, through publishes and retirement", () => {
  const store = storeOf("entries.db", 1);
  expect(keys(store).indexed).toEqual(keys(store).rows);
  for (const file of files.slice(1)) {
    publish(store, file);
    const { indexed, rows } = keys(store);
    expect(indexed).toEqual(rows);
    expect(leafSize(store)).toBe(1000);
  }
  expect(keys(store).rows.filter((k) => !k.endsWith(`/${LATEST_VTO}`)).length).toBeGreaterThan(0);
  retireThrough(store, 2);
  expect(keys(store).indexed).toEqual(keys(store).rows);
  expect(differencesFromLatest(store)).toEqual([]);
}, 120_000);

test("every older version's text search, by its words alone or with a filter, first page or later, answers as when it was the latest", () => {
  const store = storeOf("answers.db", MONTHS);
  expect(ids).toHaveLength(MONTHS);
  expect(differencesFromLatest(store)).toEqual([]);
}, 120_000);

/**
 * A start gives `store` the index over every version (logged), with one entry per row and the
 * same answers (and what `also` checks after it); a second start writes nothing.
 */
function expectIndexedAtStart(store: string, also: () => void = () => {}): void {
  const log: string[] = [];
  ensureStore(store, path.join(dir, "absent.db"), (m) => log.push(m));
  expect(log.join("\n")).toMatch(/text index over every version \(\d+ rows/);
  also();
  expect(tables(store)).toEqual([VERSION_FTS_TABLE]);
  expect(keys(store).indexed).toEqual(keys(store).rows);
  expect(differencesFromLatest(store)).toEqual([]);
  const before = fs.statSync(store).mtimeMs;
  log.length = 0;
  ensureStore(store, path.join(dir, "absent.db"), (m) => log.push(m));
  expect([log, fs.statSync(store).mtimeMs]).toEqual([[], before]);
}

test("a store built with an unkeyed index over its replaced properties is given the index over every version at start, answers as before, and a second start writes nothing", () => {
  const store = storeOf("upgraded.db", MONTHS);
  unkeyed(store);
  expect(tables(store)).toEqual([UNKEYED_OLD_FTS_TABLE]);
  expectIndexedAtStart(store);
}, 120_000);

test("a store whose index over every version has leaves of FTS5's default size is given it again with 1,000-byte leaves at start, with the same entries and answers, and a second start writes nothing", () => {
  const store = storeOf("leaves.db", MONTHS);
  defaultLeaves(store);
  expect(leafSize(store)).toBeUndefined();
  expectIndexedAtStart(store, () => expect(leafSize(store)).toBe(1000));
}, 120_000);

test("publishing into a store built with an unkeyed index over its replaced properties gives it the index over every version first", () => {
  const store = storeOf("published.db", MONTHS - 1);
  unkeyed(store);
  publish(store, files[MONTHS - 1]);
  expect(tables(store)).toEqual([VERSION_FTS_TABLE]);
  expect(keys(store).indexed).toEqual(keys(store).rows);
  expect(differencesFromLatest(store)).toEqual([]);
}, 120_000);
