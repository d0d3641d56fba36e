import { Type } from "@sinclair/typebox";
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CommercialProperty } from "../../src/contract/records";
import { docKey, fillPropertyDocs, jsonObjectSql, propertyDocLookup } from "../../src/snapshot/property-docs";
import { openSnapshot, readMeta } from "../../src/snapshot/snapshot-file";
import { SnapshotContext } from "../../src/server/data/snapshot-context";
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
    // The service finds each by its id (hash-keyed, see property-docs.ts), and nothing else.
    const snapshot = new SnapshotContext(db);
    expect(docs.filter((d) => snapshot.propertyDoc(d.id) !== d.json)).toEqual([]);
    expect(snapshot.propertyDoc("cp_nothere")).toBeUndefined();
    expect(snapshot.propertyDoc("")).toBeUndefined();
    db.close();
  });

  test("ids that share a home key are all stored once and all found; the probe distance is recorded", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-docs-"));
    try {
      const file = path.join(dir, "s.db");
      fs.copyFileSync(snapshotPath(), file);
      const db = new Database(file);
      expect(readMeta(db).doc_probe).toBe("0");
      const expected = db.prepare("SELECT id, json FROM property_docs ORDER BY id").raw().all() as [string, string][];
      // A key function that puts about 430 ids on each of 7 keys only 100 apart, so displaced
      // documents also pass over the others' home keys.
      const crowded = (id: string) => 100 * (1 + (id.charCodeAt(id.length - 1) % 7));
      db.exec("DROP TABLE property_docs");
      const probe = fillPropertyDocs(db, crowded);
      expect(probe).toBeGreaterThan(100);
      const stored = db.prepare("SELECT key, id FROM property_docs ORDER BY key").raw().all() as [number, string][];
      expect(stored.map(([, id]) => id).sort()).toEqual(expected.map(([id]) => id));
      for (const [key, id] of stored) expect(key - crowded(id)).toBeGreaterThanOrEqual(0);
      const lookup = propertyDocLookup(db, probe, crowded);
      expect(expected.filter(([id, json]) => lookup(id) !== json)).toEqual([]);
      expect(lookup("cp_nothere")).toBeUndefined();
      // Without the probe distance, a displaced document would not be found: the distance matters.
      const exactOnly = propertyDocLookup(db, 0, crowded);
      expect(expected.filter(([id]) => exactOnly(id) === undefined).length).toBeGreaterThan(0);
      db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a file whose doc_probe is missing or garbled is refused with the reason, not served wrongly", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-docs-"));
    try {
      const file = path.join(dir, "s.db");
      fs.copyFileSync(snapshotPath(), file);
      for (const value of [null, "", " ", "-1", "1.5", "many"]) {
        const db = new Database(file);
        if (value === null) db.exec("DELETE FROM snapshot_meta WHERE key = 'doc_probe'");
        else db.prepare("INSERT OR REPLACE INTO snapshot_meta (key, value) VALUES ('doc_probe', ?)").run(value);
        expect(() => new SnapshotContext(db)).toThrow("snapshot is incomplete: meta 'doc_probe' is missing or not a count");
        db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("docKey spreads ids over 52 bits: 300,000 ids in the generated form get 300,000 keys", () => {
    const keys = new Set<number>();
    const outOfRange: number[] = [];
    for (let i = 0; i < 300_000; i++) {
      const key = docKey(`cp_${i.toString(36).padStart(7, "0")}`);
      if (!(Number.isSafeInteger(key) && key >= 0 && key < 2 ** 52)) outOfRange.push(key);
      keys.add(key);
    }
    expect(outOfRange).toEqual([]);
    expect(keys.size).toBe(300_000);
    expect(docKey("cp_0000001")).toBe(docKey("cp_0000001"));
  });

  test("whole numbers stored as REAL print without '.0'; fractions, nulls and huge values stay exact", () => {
    const db = new Database(":memory:");
    const schema = Type.Object({ a: Type.Number(), b: Type.Union([Type.Number(), Type.Null()]) as any, c: Type.Array(Type.String()) });
    (schema.properties.b as any).type = ["number", "null"];
    db.exec("CREATE TABLE t (a REAL, b REAL, c TEXT)");
    const insert = db.prepare("INSERT INTO t VALUES (?, ?, ?)");
    insert.run(404121, null, '["x","y"]');
    insert.run(0.1 + 0.2, 1e21, "[]");
    const out = db
      .prepare(`SELECT ${jsonObjectSql(schema)} FROM t ORDER BY rowid`)
      .pluck()
      .all() as string[];
    expect(out[0]).toBe('{"a":404121,"b":null,"c":["x","y"]}');
    expect(JSON.parse(out[1])).toEqual({ a: 0.1 + 0.2, b: 1e21, c: [] });
  });

  test("a field type SQLite cannot render is refused when the query is built", () => {
    expect(() => jsonObjectSql(Type.Object({ flag: Type.Boolean() }))).toThrow(/flag/);
  });
});
