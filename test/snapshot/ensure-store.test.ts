// `npm start`'s store step: with no store, one is made from the snapshot file at SNAPSHOT_PATH
// and the files kept beside it (oldest capture first, those it cannot serve left out), or from
// the default snapshot; a store of generated snapshots in an older layout is made again from its
// newest; one of imported snapshots is refused with how to import them again.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { buildSnapshot } from "../../src/snapshot/build";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";
import { SNAPSHOT_FORMAT } from "../../src/snapshot/snapshot-file";
import { ensureStore } from "../../src/snapshot/store/ensure-store";
import { storeVersions } from "../../src/snapshot/store/store-layout";
import { publishToStore } from "../../src/snapshot/store/store-publish";
import { tempDir } from "./files";

let root: string;
let data: string;
let store: string;
let snapshotPath: string;
beforeEach(() => {
  root = tempDir("ensure-store-");
  data = path.join(root, "data");
  fs.mkdirSync(data);
  store = path.join(data, "store.db");
  snapshotPath = path.join(data, "snapshot.db");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function versionsOf(file: string): { id: string; retired_at: string | null }[] {
  const db = new Database(file, { readonly: true });
  try {
    return storeVersions(db).map((v) => ({ id: v.id, retired_at: v.retired_at }));
  } finally {
    db.close();
  }
}

/** Sets the store's latest meta, as an older version of the service or another source would have written it. */
function setMeta(file: string, values: Record<string, string>): void {
  const db = new Database(file);
  for (const [key, value] of Object.entries(values)) db.prepare("UPDATE snapshot_meta SET value = ? WHERE key = ?").run(value, key);
  db.close();
}

test("with no store and no snapshot file, the default snapshot is built into a new store; a second start changes nothing", () => {
  const log: string[] = [];
  ensureStore(store, snapshotPath, (m) => log.push(m));
  expect(log[0]).toBe(`No store at ${store}: building the default snapshot into it (first run only)...`);
  expect(fs.readdirSync(data).sort()).toEqual(["store.db"]); // nothing left beside it
  expect(versionsOf(store)).toHaveLength(1);
  const before = fs.statSync(store).mtimeMs;
  const again: string[] = [];
  ensureStore(store, snapshotPath, (m) => again.push(m));
  expect([again, fs.statSync(store).mtimeMs]).toEqual([[], before]);
}, 120_000);

test("with no store, it is made from SNAPSHOT_PATH and the kept files beside it, oldest first; files it cannot serve are left out", () => {
  const oct = path.join(root, "oct.db");
  const octId = buildSnapshot({ out: oct, seed: 5, properties: 200, capturedAt: "2026-10-01" }).id;
  const nov = nextMonthSnapshot({ from: oct, out: path.join(root, "nov.db") });
  const dec = nextMonthSnapshot({ from: nov.path, out: path.join(root, "dec.db") });
  fs.copyFileSync(dec.path, snapshotPath);
  const kept = path.join(data, "snapshots");
  fs.mkdirSync(kept);
  fs.copyFileSync(nov.path, path.join(kept, `${nov.id}.db`));
  fs.copyFileSync(oct, path.join(kept, `${octId}.db`));
  fs.writeFileSync(path.join(kept, "junk.db"), "not a snapshot\n".repeat(100));
  const log: string[] = [];
  ensureStore(store, snapshotPath, (m) => log.push(m));
  expect(versionsOf(store).map((v) => v.id)).toEqual([octId, nov.id, dec.id]);
  expect(log.join("\n")).toMatch(/left out .*junk\.db: not a snapshot/);
  expect(log.join("\n")).toContain(`making it from ${snapshotPath} and the 2 kept beside it`);
  // The operator's files stay where they were.
  expect(fs.existsSync(snapshotPath) && fs.existsSync(path.join(kept, `${octId}.db`))).toBe(true);
}, 120_000);

test("a store of generated snapshots in an older layout is made again from its newest snapshot", () => {
  const file = path.join(root, "m.db");
  const id = buildSnapshot({ out: file, seed: 6, properties: 200, capturedAt: "2026-11-01" }).id;
  publishToStore(store, file);
  setMeta(store, { format: String(SNAPSHOT_FORMAT - 1) });
  const log: string[] = [];
  ensureStore(store, snapshotPath, (m) => log.push(m));
  expect(log[0]).toBe(
    `The store ${store} (latest snapshot ${id}) has format ${SNAPSHOT_FORMAT - 1}; this version reads format ${SNAPSHOT_FORMAT}. ` +
      "Building it again from seed 6 (200 properties)...",
  );
  expect(versionsOf(store).map((v) => v.id)).toEqual([id]);
  expect(log[log.length - 1]).toBe(`Made the store ${store} again from snapshot ${id}, in format ${SNAPSHOT_FORMAT}.`);
}, 120_000);

test("a store of imported snapshots in an older layout is refused with how to import them again, and left as it is", () => {
  const file = path.join(root, "m.db");
  buildSnapshot({ out: file, seed: 6, properties: 200 });
  publishToStore(store, file);
  setMeta(store, { format: String(SNAPSHOT_FORMAT - 1), source: "imported" });
  const size = fs.statSync(store).size;
  expect(() => ensureStore(store, snapshotPath)).toThrow(/has format \d+; this version reads format \d+\. Import its files again/);
  expect(fs.statSync(store).size).toBe(size);
});

test("a file at the store's path that is not a store is an error naming it", () => {
  fs.writeFileSync(store, "not a store\n".repeat(100));
  expect(() => ensureStore(store, snapshotPath)).toThrow(`${store} is not a store of snapshots`);
});
