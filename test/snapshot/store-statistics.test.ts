// The statistics of a store's replaced contents (`T_old`): each publish gives their indexes
// statistics, so the query planner reads an older version's page of replaced rows from the index
// that gives them in `rid` order, as it reads the latest rows'; a store published without them
// gets them when the service starts.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { ensureStore } from "../../src/snapshot/store/ensure-store";
import { openStoreVersion } from "../../src/snapshot/store/store-open";
import { publishedMonths } from "../helpers/month-files";
import { tempDir } from "./files";

let dir: string;
const files: string[] = [];
let store: string;
let oldest: string;

beforeAll(() => {
  dir = tempDir("store-statistics-");
  const made = publishedMonths(dir, { seed: 31, properties: 300, months: 3 });
  files.push(...made.files);
  oldest = made.ids[0];
  store = made.store;
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The `T_old` tables with statistics, and those holding rows, each sorted. */
function oldTables(): { analyzed: string[]; holding: string[] } {
  const db = new Database(store, { readonly: true });
  try {
    const names = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%\\_old' ESCAPE '\\' ORDER BY name")
      .pluck()
      .all() as string[];
    return {
      analyzed: db
        .prepare("SELECT DISTINCT tbl FROM sqlite_stat1 WHERE tbl LIKE '%\\_old' ESCAPE '\\' ORDER BY tbl")
        .pluck()
        .all() as string[],
      holding: names.filter((n) => db.prepare(`SELECT 1 FROM "${n}" LIMIT 1`).get() !== undefined),
    };
  } finally {
    db.close();
  }
}

/** The oldest version's plan for the first page of its replaced offices in Texas of at least 20,000 sq ft, by rowid. */
function replacedPagePlan(): string[] {
  const db = openStoreVersion(store, oldest);
  try {
    const sql =
      'SELECT p.rowid FROM "properties replaced" p WHERE p.asset_type = ? AND p.state_code = ? AND p.building_area_sqft >= ? ORDER BY p.rowid LIMIT ?';
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all("office", "TX", 20000, 25) as { detail: string }[]).map((r) => r.detail);
  } finally {
    db.close();
  }
}

test("publishing a month gives the replaced contents' indexes statistics, so an older version reads a page of its replaced properties in rid order without sorting every match", () => {
  const { analyzed, holding } = oldTables();
  expect(holding).toEqual(expect.arrayContaining(["listings_old", "properties_old"]));
  expect(analyzed).toEqual(holding);
  expect(replacedPagePlan()).toEqual(["SEARCH t USING INDEX ix_properties_state_code_asset_type_old (state_code=? AND asset_type=?)"]);
});

test("a store published without the replaced contents' statistics gets them at start; the answer's plan then sorts no match", () => {
  const db = new Database(store);
  db.exec("DELETE FROM sqlite_stat1 WHERE tbl LIKE '%\\_old' ESCAPE '\\'");
  db.close();
  expect(oldTables().analyzed).toEqual([]);
  expect(replacedPagePlan()).toContain("USE TEMP B-TREE FOR ORDER BY");
  const log: string[] = [];
  ensureStore(store, path.join(dir, "absent.db"), (m) => log.push(m));
  expect(oldTables().analyzed).toEqual(oldTables().holding);
  expect(replacedPagePlan()).not.toContain("USE TEMP B-TREE FOR ORDER BY");
  expect(log.join("\n")).toMatch(/statistics \(.*properties_old/);
  // A second start finds them and writes nothing.
  const before = fs.statSync(store).mtimeMs;
  log.length = 0;
  ensureStore(store, path.join(dir, "absent.db"), (m) => log.push(m));
  expect([log, fs.statSync(store).mtimeMs]).toEqual([[], before]);
});
