import { Type } from "@sinclair/typebox";
import Database from "better-sqlite3";
import { CommercialProperty } from "../../src/shared/contract/records";
import { jsonObjectSql } from "../../src/snapshot/property-docs";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { snapshotPath } from "../helpers/service";

describe("property documents rendered when the snapshot is built", () => {
  test("every property has one stored document, byte-for-byte what JavaScript writes for its row, in schema order", () => {
    const db = openSnapshot(snapshotPath());
    const rows = db.prepare("SELECT * FROM properties ORDER BY id").all() as Record<string, unknown>[];
    const docs = db.prepare("SELECT id, json FROM property_docs ORDER BY id").all() as { id: string; json: string }[];
    expect(rows.length).toBeGreaterThan(1000);
    expect(docs.map((d) => d.id)).toEqual(rows.map((r) => r.id));
    const order = Object.keys(CommercialProperty.properties);
    const mismatches = rows.filter((row, i) => {
      const expected = JSON.stringify(Object.fromEntries(order.map((k) => [k, row[k]])));
      return docs[i].json !== expected;
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
