// `npm start`'s snapshot step for files written by an older version: a generated snapshot is
// built again (same data, current layout), a next month from its lineage; an imported one is
// refused with how to re-import it.
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { ensureSnapshot } from "../../src/snapshot/ensure-snapshot";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";
import { SNAPSHOT_FORMAT, openSnapshot, outdatedSnapshot, readMeta } from "../../src/snapshot/snapshot-file";
import { SnapshotContext } from "../../src/server/data/snapshot-context";
import { tempDir } from "./files";

let root: string;
beforeEach(() => {
  root = tempDir("snapshot-ensure-");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** Turns a current snapshot into one as the previous version wrote it (format 1). */
function downgrade(file: string, source?: string): void {
  const db = new Database(file);
  db.exec("DROP TABLE property_docs; DELETE FROM snapshot_meta WHERE key = 'format'");
  if (source) db.prepare("UPDATE snapshot_meta SET value = ? WHERE key = 'source'").run(source);
  db.close();
}

test("a current snapshot is left alone", () => {
  const file = path.join(root, "snapshot.db");
  buildSnapshot({ out: file, seed: 3, properties: 200 });
  const before = fs.statSync(file).mtimeMs;
  const log: string[] = [];
  ensureSnapshot(file, (m) => log.push(m));
  expect(log).toEqual([]);
  expect(fs.statSync(file).mtimeMs).toBe(before);
  expect(outdatedSnapshot(file)).toBeNull();
});

test("a format-5 file whose coverage predates history.not_held is read with the metrics it lacks split out of its gaps", () => {
  const file = path.join(root, "snapshot.db");
  buildSnapshot({ out: file, seed: 3, properties: 200 });
  const db = new Database(file);
  const coverage = JSON.parse(readMeta(db).coverage);
  const current = coverage.history;
  // As such a build wrote it: every gap in one list, the ones missing everywhere included.
  const all = [
    ...current.gaps,
    ...current.not_held.flatMap((n: { asset_type: string; metrics: string[] }) =>
      n.metrics.map((metric) => ({ metric, asset_type: n.asset_type, markets: 1, markets_with_gaps: 1, missing_periods: 40, periods: 40 })),
    ),
  ];
  const old = { ...coverage, history: { ...current, gaps: all, not_held: undefined } };
  db.prepare("UPDATE snapshot_meta SET value = ? WHERE key = 'coverage'").run(JSON.stringify(old));
  const read = new SnapshotContext(db).coverage.history;
  expect(read.gaps).toEqual(current.gaps);
  expect(read.not_held).toEqual(current.not_held);
  expect(current.not_held.length).toBeGreaterThan(0);
  db.close();
});

test("an older generated snapshot is built again from its seed, size and capture date", () => {
  const file = path.join(root, "snapshot.db");
  const first = buildSnapshot({ out: file, seed: 3, properties: 200, capturedAt: "2026-06-30" });
  downgrade(file);
  expect(outdatedSnapshot(file)).toMatchObject({ id: first.id, source: "generated" });
  // The service refuses the old layout rather than failing on its first detail request.
  const old = new Database(file, { readonly: true });
  expect(() => new SnapshotContext(old)).toThrow(`has format 1, older than this service reads (${SNAPSHOT_FORMAT})`);
  old.close();

  const log: string[] = [];
  ensureSnapshot(file, (m) => log.push(m));
  expect(log[0]).toBe(
    `Snapshot ${first.id} at ${file} has format 1; this version reads format ${SNAPSHOT_FORMAT}. Building it again from seed 3 (200 properties)...`,
  );
  expect(outdatedSnapshot(file)).toBeNull();
  const db = openSnapshot(file);
  const meta = readMeta(db);
  expect(meta).toMatchObject({ id: first.id, format: String(SNAPSHOT_FORMAT), seed: "3", captured_at: "2026-06-30T00:00:00Z" });
  expect(db.prepare("SELECT count(*) FROM property_docs").pluck().get()).toBe(200);
  db.close();
});

test("an older next month is built again from its lineage: the base build, then each month, the same id", () => {
  const base = path.join(root, "base.db");
  buildSnapshot({ out: base, seed: 3, properties: 200, capturedAt: "2026-06-30" });
  const file = path.join(root, "snapshot.db");
  const next = nextMonthSnapshot({ from: base, out: file, changed: 0.1 });
  downgrade(file);
  const log: string[] = [];
  ensureSnapshot(file, (m) => log.push(m));
  expect(log[0]).toBe(
    `Snapshot ${next.id} at ${file} has format 1; this version reads format ${SNAPSHOT_FORMAT}. Building it again: seed 3 (200 properties), then 1 month(s)...`,
  );
  const db = openSnapshot(file);
  expect(readMeta(db)).toMatchObject({ id: next.id, format: String(SNAPSHOT_FORMAT), captured_at: "2026-07-30T00:00:00Z" });
  db.close();
  expect(fs.readdirSync(root).sort()).toEqual(["base.db", "snapshot.db"]);
});

test("an older imported snapshot is refused, saying how to import it again, and left as it was", () => {
  const file = path.join(root, "snapshot.db");
  buildSnapshot({ out: file, seed: 3, properties: 200 });
  downgrade(file, "imported");
  const bytes = fs.readFileSync(file);
  expect(() => ensureSnapshot(file)).toThrow(
    `has format 1; this version reads format ${SNAPSHOT_FORMAT}. Import its files again: npm run snapshot -- import --dir <files> --out ${file}`,
  );
  expect(fs.readFileSync(file).equals(bytes)).toBe(true);
});

test("a file that is not a snapshot is an error naming it, and is left as it was", () => {
  const file = path.join(root, "snapshot.db");
  fs.writeFileSync(file, "not a database, just text\n".repeat(200));
  const bytes = fs.readFileSync(file);
  expect(() => ensureSnapshot(file)).toThrow(`${file} is not a snapshot this service can read (`);
  expect(fs.readFileSync(file).equals(bytes)).toBe(true);
});
