// The statistics of a store's replaced contents (`T_old`): each publish gives their indexes
// statistics, so the query planner reads an older version's page of replaced rows from the index
// that gives them in `rid` order, as it reads the latest rows'; a store published without them,
// or with sampled ones, gets them read in full when the service starts.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { ensureStore } from "../../src/snapshot/store/ensure-store";
import { openStoreVersion } from "../../src/snapshot/store/store-open";
import { analyzeOldTables, type VersionedTable } from "../../src/snapshot/store/store-layout";
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
  db.exec("DELETE FROM sqlite_stat4 WHERE tbl LIKE '%\\_old' ESCAPE '\\'");
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

test("with more replaced rows than a sample reads, the statistics still lead the planner to read a page in rid order", () => {
  // 20,000 replaced properties, five asset types in 50 states, with the two indexes the store
  // mirrors for them: statistics sampled from 1,000 rows of each index count about a thousand
  // rows for each asset type (there are 4,000) and send the page through the area index, sorting.
  const db = new Database(":memory:");
  try {
    db.exec(
      "CREATE TABLE properties_old (rid INTEGER, asset_type TEXT, state_code TEXT, building_area_sqft REAL, vfrom INTEGER, vto INTEGER)",
    );
    db.exec("CREATE INDEX ix_asset_state_area_old ON properties_old (asset_type, state_code, building_area_sqft, rid)");
    db.exec("CREATE INDEX ix_state_asset_old ON properties_old (state_code, asset_type, rid)");
    const insert = db.prepare("INSERT INTO properties_old VALUES (?, ?, ?, ?, ?, ?)");
    const assets = ["industrial", "office", "retail", "multifamily", "flex"];
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) {
        const state = `S${String(Math.floor(i / 5) % 50).padStart(2, "0")}`;
        insert.run(i, assets[i % 5], state, 1000 + ((i * 7919) % 99_000), 1 + (i % 3), 2 + (i % 3) + (i % 2));
      }
    })();
    analyzeOldTables(db, [{ name: "properties", columns: [], key: ["id"] } as unknown as VersionedTable]);
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT rid FROM properties_old t WHERE t.vfrom <= 2 AND t.vto > 2 AND asset_type = ? AND state_code = ? AND building_area_sqft >= ? ORDER BY rid",
      )
      .all("office", "S07", 20000) as { detail: string }[];
    expect(plan.map((r) => r.detail)).toEqual(["SEARCH t USING INDEX ix_state_asset_old (state_code=? AND asset_type=?)"]);
  } finally {
    db.close();
  }
});

test("a store whose replaced contents' statistics were sampled gets them read in full at start", () => {
  const db = new Database(store);
  db.pragma("analysis_limit = 1000");
  db.exec("ANALYZE main.properties_old");
  const samples = () => db.prepare("SELECT count(*) FROM sqlite_stat4 WHERE tbl = 'properties_old'").pluck().get();
  expect(samples()).toBe(0);
  const log: string[] = [];
  ensureStore(store, path.join(dir, "absent.db"), (m) => log.push(m));
  expect(log.join("\n")).toMatch(/full statistics \(.*properties_old/);
  expect(samples()).toBeGreaterThan(0);
  db.close();
});
