import { Type } from "@sinclair/typebox";
import Database from "better-sqlite3";
import { CommercialProperty } from "../../src/shared/contract/records";
import { jsonObjectSql } from "../../src/server/data/record-json";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { snapshotPath } from "../helpers/service";

describe("records as JSON text written by SQLite", () => {
  test("every property's JSON is byte-for-byte what JavaScript writes for the row, in schema order", () => {
    const db = openSnapshot(snapshotPath());
    const rows = db.prepare("SELECT * FROM properties").all() as Record<string, unknown>[];
    const texts = db.prepare(`SELECT ${jsonObjectSql(CommercialProperty)} FROM properties`).pluck().all() as string[];
    expect(rows.length).toBeGreaterThan(1000);
    const order = Object.keys(CommercialProperty.properties);
    const mismatches = rows.filter((row, i) => {
      const expected = JSON.stringify(Object.fromEntries(order.map((k) => [k, row[k]])));
      return texts[i] !== expected;
    });
    expect(mismatches).toEqual([]);
    db.close();
  });

  test("whole numbers stored as REAL print without '.0'; fractions, nulls and huge values stay exact", () => {
    const db = new Database(":memory:");
    const schema = Type.Object({ a: Type.Number(), b: Type.Union([Type.Number(), Type.Null()]) as any, c: Type.Array(Type.String()) });
    (schema.properties.b as any).type = ["number", "null"];
    db.exec("CREATE TABLE t (a REAL, b REAL, c TEXT)");
    const insert = db.prepare("INSERT INTO t VALUES (?, ?, ?)");
    insert.run(404121, null, '["x","y"]');
    insert.run(0.1 + 0.2, 1e21, "[]");
    const out = db.prepare(`SELECT ${jsonObjectSql(schema)} FROM t ORDER BY rowid`).pluck().all() as string[];
    expect(out[0]).toBe('{"a":404121,"b":null,"c":["x","y"]}');
    expect(JSON.parse(out[1])).toEqual({ a: 0.1 + 0.2, b: 1e21, c: [] });
  });

  test("a field type SQLite cannot render is refused when the query is built", () => {
    expect(() => jsonObjectSql(Type.Object({ flag: Type.Boolean() }))).toThrow(/flag/);
  });
});
