// A paged list on an older version of a snapshot store (server/data/sql-where.ts pagedQuery):
// its two parts' rows are merged in the list's order in one statement, which reads from each part
// only the rows the page takes, and every page is the one the version's own file gives.
import fs from "node:fs";
import { SnapshotContext, openContext } from "../../src/server/data/snapshot-context";
import { pagedQuery } from "../../src/server/data/sql-where";
import { openStoreVersion } from "../../src/snapshot/store/store-open";
import { publishedMonths } from "../helpers/month-files";
import { tempDir } from "../snapshot/files";

let dir: string;
const files: string[] = [];
let store: string;
let oldestId: string;
let oldest: SnapshotContext;
let oldestFile: SnapshotContext;

beforeAll(() => {
  dir = tempDir("paged-query-parts-");
  const made = publishedMonths(dir, { seed: 37, properties: 300, months: 3 });
  files.push(...made.files);
  oldestId = made.ids[0];
  store = made.store;
  oldest = new SnapshotContext(openStoreVersion(store, oldestId, { cacheKiB: 8192, mmapBytes: 0 }));
  oldestFile = openContext(files[0]);
}, 120_000);
afterAll(() => {
  oldest?.close();
  oldestFile?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface List {
  select: string;
  from: string;
  order: string;
  params: unknown[];
}

/** Lists as the routes page them: by rowid, by a column descending, through a join, and a record's JSON. */
function lists(): List[] {
  const state = oldestFile.value<string>("SELECT state_code FROM properties GROUP BY state_code ORDER BY count(*) DESC LIMIT 1")!;
  const tenant = oldestFile.value<string>("SELECT tenant_id FROM tenancies GROUP BY tenant_id ORDER BY count(*) DESC LIMIT 1")!;
  return [
    { select: "SELECT *", from: "FROM parcels WHERE state_code = ?", order: "ORDER BY rowid", params: [state] },
    { select: "SELECT *", from: "FROM listings WHERE state_code = ?", order: "ORDER BY listed_date DESC, id", params: [state] },
    { select: "SELECT *", from: "FROM companies", order: "ORDER BY property_count DESC, id", params: [] },
    {
      select: "SELECT t.*, p.name AS property_name, p.city",
      from: "FROM tenancies t JOIN properties p ON p.id = t.property_id WHERE t.tenant_id = ?",
      order: "ORDER BY t.lease_expiration, t.id",
      params: [tenant],
    },
    {
      select: "SELECT json_object('id', p.id, 'name', p.name, 'area', p.building_area_sqft) AS json",
      from: "FROM properties p WHERE p.state_code = ? AND p.building_area_sqft >= ?",
      order: "ORDER BY p.rowid",
      params: [state, 5000],
    },
  ];
}

/** A page's rows without the `rowid` a store version's views carry (a file's `SELECT *` has none; the answers' schemas leave it out). */
const withoutRowid = (rows: Record<string, unknown>[]) => rows.map(({ rowid: _rowid, ...rest }) => rest);

test("every page of an older version's lists, first and later, is the rows and total its own file gives, with no sort key added", () => {
  const differences: string[] = [];
  for (const [i, list] of lists().entries()) {
    for (const page of [
      { limit: 10, offset: 0 },
      { limit: 7, offset: 7 },
      { limit: 25, offset: 40 },
      { limit: 5, offset: 10_000 },
    ]) {
      const read = (ctx: SnapshotContext) => {
        const { rows, total } = pagedQuery<Record<string, unknown>>(ctx, list.select, list.from, list.order, list.params, page);
        return JSON.stringify({ rows: withoutRowid(rows), total });
      };
      if (read(oldest) !== read(oldestFile)) differences.push(`list ${i} at offset ${page.offset}`);
    }
  }
  expect(differences).toEqual([]);
  const [first] = lists();
  const { rows, total } = pagedQuery<Record<string, unknown>>(oldest, first.select, first.from, first.order, first.params, {
    limit: 3,
    offset: 0,
  });
  expect(total).toBeGreaterThan(3);
  expect(Object.keys(rows[0]).filter((k) => k.startsWith("order"))).toEqual([]);
});

test("an older version's page is read in one statement that merges its two parts' rows, not read again by rowid", () => {
  // A context of its own, whose statements are all prepared here.
  const db = openStoreVersion(store, oldestId, { cacheKiB: 8192, mmapBytes: 0 });
  const asked: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    asked.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  const ctx = new SnapshotContext(db);
  try {
    asked.length = 0;
    const list = lists()[4];
    pagedQuery(ctx, list.select, list.from, list.order, list.params, { limit: 9, offset: 3 });
  } finally {
    ctx.close();
  }
  const pages = asked.filter((sql) => !sql.startsWith("SELECT count(*)"));
  expect(pages).toHaveLength(1);
  expect(pages[0]).toMatch(/FROM "properties kept" AS p .* UNION ALL .* FROM "properties replaced" AS p /);
  expect(pages[0]).not.toMatch(/rowid IN/i);
});
