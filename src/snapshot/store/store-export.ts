// The newest version of a snapshot store written out as the snapshot file it was published from:
// every table with the rows (and rowids) that version holds, a template file's indexes and text
// index, and the match index of its properties. A chain of generated months keeps only its store, so a next month is built from
// this file (the service benchmark's publish under load at 1M properties needs one).
// The template is any snapshot file of the store's format (its first one, say): it gives each
// table's CREATE statement, which the store does not keep as the file wrote it.
import fs from "node:fs";
import Database from "better-sqlite3";
import { readMeta } from "../snapshot-file";
import { MATCH_KEYS_TABLE, addMatchKeys } from "../match-keys";
import { captureDay, computedColumn, computedValue, q, storeVersions, versionedTables } from "./store-layout";

interface SchemaItem {
  type: string;
  name: string;
  tbl_name: string;
  sql: string;
}

/** The template's tables, indexes and virtual tables (an FTS5 table's own tables are made by its CREATE). */
function templateSchema(templatePath: string): { tables: SchemaItem[]; indexes: SchemaItem[]; virtual: SchemaItem[] } {
  const template = new Database(templatePath, { readonly: true, fileMustExist: true });
  try {
    const schema = template
      .prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
      .all() as SchemaItem[];
    const virtual = schema.filter((s) => s.type === "table" && /^CREATE VIRTUAL TABLE/i.test(s.sql));
    const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v.name}_`));
    return {
      tables: schema.filter((s) => s.type === "table" && !virtual.includes(s) && !shadow(s.name)),
      indexes: schema.filter((s) => s.type === "index" && !shadow(s.tbl_name)),
      virtual,
    };
  } finally {
    template.close();
  }
}

/** Writes the store's newest version to `out` as a snapshot file; returns its id. */
export function exportNewest(storePath: string, templatePath: string, out: string, log: (msg: string) => void = () => {}): string {
  const { tables, indexes, virtual } = templateSchema(templatePath);
  const store = new Database(storePath, { readonly: true, fileMustExist: true });
  const versions = storeVersions(store);
  const versioned = new Map(versionedTables(store).map((t) => [t.name, t]));
  store.close();
  const newest = versions[versions.length - 1];
  if (!newest) throw new Error(`the store ${storePath} holds no version`);
  const day = captureDay(newest.captured_at);

  const tmp = `${out}.tmp`;
  fs.rmSync(tmp, { force: true });
  const db = new Database(tmp);
  try {
    // Written from scratch and renamed at the end: durability while it is written buys nothing.
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
    db.pragma("cache_size = -262144");
    db.prepare("ATTACH DATABASE ? AS store").run(storePath);
    db.transaction(() => {
      // The store's match index holds every version's keys: the file's is made from its own properties below.
      for (const t of tables.filter((t) => t.name !== MATCH_KEYS_TABLE)) {
        const table = versioned.get(t.name);
        if (!table) throw new Error(`the store does not keep the template's table ${t.name}`);
        db.exec(t.sql);
        // The newest version's rows are the store's latest rows, with computed columns as its views compute them.
        const cols = table.columns.map((c) => {
          const computed = computedColumn(table.name, c);
          return computed ? computedValue(computed, day, "store.", "t") : `t.${q(c)}`;
        });
        db.exec(
          `INSERT INTO main.${q(t.name)} (rowid, ${table.columns.map(q).join(", ")}) ` +
            `SELECT t.rowid, ${cols.join(", ")} FROM store.${q(t.name)} t ORDER BY t.rowid`,
        );
        log(`${t.name} written`);
      }
    })();
    db.exec("DETACH DATABASE store");
    for (const i of indexes) db.exec(i.sql);
    for (const v of virtual) {
      db.exec(v.sql);
      // An index over a table's own rows (external content, as the properties' text index is) is filled from them.
      if (/content\s*=\s*'[^']+'/i.test(v.sql)) db.exec(`INSERT INTO ${q(v.name)} (${q(v.name)}) VALUES ('rebuild')`);
      db.exec(`INSERT INTO ${q(v.name)} (${q(v.name)}) VALUES ('optimize')`);
    }
    addMatchKeys(db);
    db.exec("ANALYZE main");
    const id = readMeta(db).id;
    if (id !== newest.id) throw new Error(`the file written names snapshot ${id}, the store's newest version is ${newest.id}`);
    db.close();
    fs.renameSync(tmp, out);
    return id;
  } catch (err) {
    if (db.open) db.close();
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
