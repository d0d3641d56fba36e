import Database from "better-sqlite3";
import { readAll, readOne, rowReader } from "../../src/server/data/row-reader";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { snapshotPath } from "../helpers/service";

describe("rows built by a compiled reader", () => {
  test("equal better-sqlite3's own row objects: keys, order and values, for every table", () => {
    const db = openSnapshot(snapshotPath());
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' AND name NOT LIKE 'sqlite%'")
      .pluck()
      .all() as string[];
    expect(tables).toEqual(expect.arrayContaining(["properties", "parcels", "sales", "property_docs"]));
    for (const t of tables) {
      // By the first column: some tables (market_history) have no rowid.
      const sql = `SELECT * FROM ${t} ORDER BY 1 LIMIT 40`;
      const expected = db.prepare(sql).all() as Record<string, unknown>[];
      const got = readAll(rowReader(db, sql), []);
      expect(got).toEqual(expected);
      expect(got.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r)));
    }
    db.close();
  });

  test("odd column names, a name used twice, NULLs, no rows and a missing row", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (a INTEGER, b TEXT)");
    db.prepare("INSERT INTO t VALUES (?, ?)").run(1, null);
    db.prepare("INSERT INTO t VALUES (?, ?)").run(2, 'say "hi"\\');
    const sql = `SELECT a, b, a + 1 AS "x y", b AS "a", '}' AS "\`\${v}\`" FROM t WHERE a >= ? ORDER BY a`;
    const reader = rowReader(db, sql);
    expect(readAll(reader, [0])).toEqual(db.prepare(sql).all(0));
    expect(Object.keys(readAll(reader, [0])[0])).toEqual(Object.keys(db.prepare(sql).get(0) as object));
    expect(readAll(reader, [9])).toEqual([]);
    expect(readOne(reader, [2])).toEqual(db.prepare(sql).get(2));
    expect(readOne(reader, [9])).toBeUndefined();
    db.close();
  });

  test("a reader told to omit the last columns builds rows of the others only, a name they share with an omitted one keeping its own value", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (a INTEGER, b TEXT)");
    db.prepare("INSERT INTO t VALUES (?, ?)").run(1, "one");
    const rows = readAll(rowReader(db, `SELECT a, b, a * 10 AS "order 0", 'x' AS b FROM t`, 2), []);
    expect(rows).toEqual([{ a: 1, b: "one" }]);
    expect(Object.keys(rows[0])).toEqual(["a", "b"]);
    db.close();
  });
});
