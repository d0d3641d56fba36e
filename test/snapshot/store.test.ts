// The snapshot store: consecutive months published into one file, each answering as its own
// snapshot file does, holding each month's changes once.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { buildSnapshot } from "../../src/snapshot/build";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";
import { readMeta } from "../../src/snapshot/snapshot-file";
import { keyExpr, q, storeVersions, versionedTables } from "../../src/snapshot/store/store-layout";
import { openStoreVersion } from "../../src/snapshot/store/store-open";
import { type PublishResult, publishToStore, retireThrough } from "../../src/snapshot/store/store-publish";
import { SnapshotContext } from "../../src/server/data/snapshot-context";
import { startService } from "../helpers/service";
import { tempDir } from "./files";

const PROPERTIES = 2_000;
let dir: string;
let store: string;
const months: string[] = [];
const published: PublishResult[] = [];
const idOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return readMeta(db).id;
  } finally {
    db.close();
  }
};

beforeAll(() => {
  dir = tempDir("store-");
  store = path.join(dir, "store.db");
  months.push(path.join(dir, "m0.db"));
  buildSnapshot({ out: months[0], seed: 11, properties: PROPERTIES });
  for (let i = 1; i <= 3; i++) months.push(nextMonthSnapshot({ from: months[i - 1], out: path.join(dir, `m${i}.db`) }).path);
  // Month 3 is published later, by the test of a connection opened before it.
  for (const file of months.slice(0, 3)) published.push(publishToStore(store, file));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each table's rows, in key order, as one digest: what a snapshot holds, whatever the rowids. */
function tableDigests(db: Database.Database): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of versionedTables(db)) {
    const hash = crypto.createHash("sha256");
    const sql = `SELECT ${t.columns.map(q).join(", ")} FROM ${q(t.name)} ORDER BY ${keyExpr(t, q(t.name))}`;
    for (const row of db.prepare(sql).raw().iterate()) hash.update(JSON.stringify(row));
    out[t.name] = hash.digest("hex");
  }
  return out;
}

const TERMS = ["industrial", "office", "austin", "washington blvd"];
/** How many properties each term finds in the text index. */
function textCounts(db: Database.Database): number[] {
  const sql = "SELECT count(*) FROM properties p WHERE p.rowid IN (SELECT rowid FROM properties_fts WHERE properties_fts MATCH ?)";
  return TERMS.map((term) => db.prepare(sql).pluck().get(term) as number);
}

function withFile<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

test("every version holds exactly its snapshot file's rows in every table, and its text index finds the same properties", () => {
  for (const file of months.slice(0, 3)) {
    const id = idOf(file);
    const version = openStoreVersion(store, id);
    try {
      expect(readMeta(version).id).toBe(id);
      expect(tableDigests(version)).toEqual(withFile(file, tableDigests));
      expect(textCounts(version)).toEqual(withFile(file, textCounts));
    } finally {
      version.close();
    }
  }
});

test("a month adds only the rows it changed: 5% of the properties, each kept once in the replaced contents", () => {
  const [, second] = published;
  expect(second.version.seq).toBe(2);
  expect(second.changes.properties).toEqual({ changed: PROPERTIES * 0.05, removed: 0, added: 0 });
  const db = new Database(store, { readonly: true });
  try {
    expect(db.prepare("SELECT count(*) FROM properties_old WHERE vto = 2").pluck().get()).toBe(PROPERTIES * 0.05);
    expect(db.prepare("SELECT count(*) FROM properties").pluck().get()).toBe(PROPERTIES);
  } finally {
    db.close();
  }
});

test("a row keeps its rowid across versions, so lists ordered by rowid keep their order", () => {
  const first = openStoreVersion(store, idOf(months[0]));
  const latest = openStoreVersion(store);
  try {
    const rowids = (db: Database.Database) => new Map(db.prepare("SELECT id, rowid FROM properties").raw().all() as [string, number][]);
    expect(rowids(latest)).toEqual(rowids(first));
  } finally {
    first.close();
    latest.close();
  }
});

test("publishing refuses a snapshot already in the store, one captured before the newest and one of another layout, adding nothing", () => {
  const before = withFile(store, storeVersions).length;
  expect(() => publishToStore(store, months[1])).toThrow(/already in the store/);
  const other = path.join(dir, "other-layout.db");
  fs.copyFileSync(months[3], other);
  const db = new Database(other);
  db.exec("ALTER TABLE parcels ADD COLUMN zoning TEXT");
  db.close();
  expect(() => publishToStore(store, other)).toThrow(/another snapshot format/);
  const early = path.join(dir, "early.db");
  fs.copyFileSync(months[3], early);
  const e = new Database(early);
  e.prepare("UPDATE snapshot_meta SET value = '2020-01-01T00:00:00Z' WHERE key = 'captured_at'").run();
  e.close();
  expect(() => publishToStore(store, early)).toThrow(/before the store's newest/);
  expect(withFile(store, storeVersions).length).toBe(before);
});

test("figures the store computes, held otherwise by a file (as an imported one may), answer as the file held them in every version", () => {
  const other = path.join(dir, "odd-store.db");
  /** A copy of a month with some computed figures not what the rule gives, in the first and in a later file. */
  const odd = (from: string, name: string) => {
    const file = path.join(dir, name);
    fs.copyFileSync(from, file);
    const o = new Database(file);
    o.prepare("UPDATE diligence SET years_since_last_sale = 99.9 WHERE rowid IN (1, 7)").run();
    o.prepare("UPDATE diligence SET market_occupancy_rate = NULL WHERE rowid = 3").run();
    o.prepare(
      "UPDATE listings SET days_on_market = days_on_market + 3 WHERE rowid IN (SELECT rowid FROM listings WHERE status = 'active' LIMIT 5)",
    ).run();
    o.prepare("UPDATE listings SET days_on_market = 0 WHERE rowid IN (SELECT rowid FROM listings WHERE status = 'sold' LIMIT 5)").run();
    o.close();
    return file;
  };
  const files = [odd(months[0], "odd-0.db"), odd(months[1], "odd-1.db")];
  for (const f of files) publishToStore(other, f);
  const versions = files.map((f) => openStoreVersion(other, idOf(f)));
  try {
    files.forEach((f, i) => expect(tableDigests(versions[i])).toEqual(withFile(f, tableDigests)));
  } finally {
    for (const v of versions) v.close();
  }
});

test("connections opened before the next month is published keep answering for their versions, the newest one included", () => {
  const pinned = openStoreVersion(store);
  const older = openStoreVersion(store, idOf(months[1]));
  try {
    const before = tableDigests(pinned);
    const olderBefore = tableDigests(older);
    const result = publishToStore(store, months[3]);
    expect(result.version.seq).toBe(4);
    expect(tableDigests(pinned)).toEqual(before);
    expect(readMeta(pinned).id).toBe(idOf(months[2]));
    expect(tableDigests(older)).toEqual(olderBefore);
    expect(textCounts(older)).toEqual(withFile(months[1], textCounts));
    const reopened = openStoreVersion(store, idOf(months[2]));
    try {
      expect(tableDigests(reopened)).toEqual(before);
    } finally {
      reopened.close();
    }
  } finally {
    pinned.close();
    older.close();
  }
});

test("the service answers a property's detail from an older version of the store exactly as from that month's file", async () => {
  const id = idOf(months[0]);
  const changed = withFile(
    store,
    (db) => db.prepare("SELECT id FROM properties_old WHERE vto = 2 ORDER BY id LIMIT 1").pluck().get() as string,
  );
  const fromStore = await startService({ snapshotDb: openStoreVersion(store, id) });
  const fromFile = await startService({ snapshotFile: months[0] });
  try {
    expect(new SnapshotContext(fromStore.snapshot).ref.id).toBe(id);
    const a = await fromStore.get(`/v1/commercial/properties/${changed}`);
    const b = await fromFile.get(`/v1/commercial/properties/${changed}`);
    expect(a.statusCode).toBe(200);
    expect(a.json().data).toEqual(b.json().data);
    const latest = withFile(months[months.length - 1], (db) =>
      db.prepare("SELECT json FROM property_docs WHERE id = ?").pluck().get(changed),
    );
    expect(JSON.stringify(a.json().data)).not.toBe(latest);
  } finally {
    await fromStore.app.close();
    await fromFile.app.close();
  }
});

test("retiring the oldest version stops serving it, frees the rows only it held, and leaves every later version as its file", () => {
  const first = idOf(months[0]);
  const retired = retireThrough(store, 1, { now: () => new Date("2028-12-01T00:00:00Z") });
  expect(retired.map((v) => [v.id, v.retired_at])).toEqual([[first, "2028-12-01T00:00:00.000Z"]]);
  expect(() => openStoreVersion(store, first)).toThrow(`snapshot ${first} was retired on 2028-12-01: it is no longer served`);
  expect(withFile(store, (db) => db.prepare("SELECT count(*) FROM properties_old WHERE vto <= 2").pluck().get())).toBe(0);
  for (const file of months.slice(1)) {
    const version = openStoreVersion(store, idOf(file));
    try {
      expect(tableDigests(version)).toEqual(withFile(file, tableDigests));
      expect(textCounts(version)).toEqual(withFile(file, textCounts));
    } finally {
      version.close();
    }
  }
  expect(() => retireThrough(store, 4)).toThrow("the newest version of a store cannot be retired");
});
