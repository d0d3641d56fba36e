// The store's newest version written out as a snapshot file holds what the file published as
// that version held, and the next month built from it is the next month of that file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";
import { exportNewest } from "../../src/snapshot/store/store-export";
import { publishedMonths } from "../helpers/month-files";

let dir: string;
let months: ReturnType<typeof publishedMonths>;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-export-"));
  months = publishedMonths(dir, { seed: 3, properties: 1500, months: 3 });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every table's rows (text index aside), each table's sorted, and the meta without the build's own time. */
function contents(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'properties_fts%'")
      .pluck()
      .all() as string[];
    const out: Record<string, string[]> = {};
    for (const t of tables) {
      const rows = db.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[][];
      out[t] = rows
        .filter((r) => t !== "snapshot_meta" || !["built_at", "coverage"].includes(r[0] as string))
        .map((r) => JSON.stringify(r))
        .sort();
    }
    return out;
  } finally {
    db.close();
  }
}

test("the newest version written out holds the rows of the file it was published from, and the records keep their rowids", () => {
  const out = path.join(dir, "newest.db");
  expect(exportNewest(months.store, months.files[0], out)).toBe(months.ids[2]);
  expect(contents(out)).toEqual(contents(months.files[2]));
  const records = (file: string) => {
    const db = new Database(file, { readonly: true });
    const rows = db.prepare("SELECT rowid, id FROM properties ORDER BY rowid").raw().all();
    const text = db.prepare("SELECT rowid FROM properties_fts WHERE properties_fts MATCH 'office' ORDER BY rowid").pluck().all();
    db.close();
    return { rows, text };
  };
  expect(records(out)).toEqual(records(months.files[2]));
});

test("the next month built from the written-out version is the next month of the file", () => {
  const out = path.join(dir, "newest-2.db");
  exportNewest(months.store, months.files[0], out);
  const fromExport = nextMonthSnapshot({ from: out, out: path.join(dir, "next-from-export.db") });
  const fromFile = nextMonthSnapshot({ from: months.files[2], out: path.join(dir, "next-from-file.db") });
  expect(fromExport.id).toBe(fromFile.id);
  expect(contents(fromExport.path)).toEqual(contents(fromFile.path));
});

test("a store that holds no version is refused, and no file is left behind", () => {
  const out = path.join(dir, "refused.db");
  const empty = path.join(dir, "empty.db");
  new Database(empty).close();
  expect(() => exportNewest(empty, months.files[0], out)).toThrow();
  expect(fs.existsSync(out) || fs.existsSync(`${out}.tmp`)).toBe(false);
});
