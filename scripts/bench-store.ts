// Publishes consecutive snapshot files into a new store (src/snapshot/store) and prints, for each
// version, the publish time and the store's size; then checks that every version holds exactly its
// file's rows in every table and that its text index finds as many properties.
//   npx tsx scripts/bench-store.ts [--no-check] <store.db> <month0.db> <month1.db> ...
// (--no-check: publish and print sizes only; the check reads every table of every version twice).
import crypto from "node:crypto";
import fs from "node:fs";
import Database from "better-sqlite3";
import { publishToStore } from "../src/snapshot/store/store-publish";
import { openStoreVersion } from "../src/snapshot/store/store-open";
import { versionedTables, keyExpr } from "../src/snapshot/store/store-layout";
const args = process.argv.slice(2);
const check = !args.includes("--no-check");
const [store, ...files] = args.filter((a) => a !== "--no-check");
fs.rmSync(store, { force: true });
fs.rmSync(store + "-wal", { force: true });
fs.rmSync(store + "-shm", { force: true });
for (const f of files) {
  const t0 = performance.now();
  const r = publishToStore(store, f, { log: (m) => console.log("  " + m) });
  console.log(
    "published",
    r.version.seq,
    r.version.id,
    Math.round(performance.now() - t0),
    "ms",
    (fs.statSync(store).size / 1048576).toFixed(1),
    "MB (+wal",
    ((fs.existsSync(store + "-wal") ? fs.statSync(store + "-wal").size : 0) / 1048576).toFixed(1),
    ")",
  );
}
function digest(db: Database.Database) {
  const out: Record<string, string> = {};
  for (const t of versionedTables(db)) {
    const cols = t.columns.map((c) => `"${c}"`).join(",");
    const h = crypto.createHash("sha256");
    for (const r of db
      .prepare(`SELECT ${cols} FROM "${t.name}" ORDER BY ${keyExpr(t, '"' + t.name + '"')}`)
      .raw()
      .iterate())
      h.update(JSON.stringify(r));
    out[t.name] = h.digest("hex").slice(0, 12);
  }
  return out;
}
(check ? files : []).forEach((f, i) => {
  const file = new Database(f, { readonly: true });
  const meta = Object.fromEntries(
    (file.prepare("select key,value from snapshot_meta").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
  );
  const a = digest(file);
  const v = openStoreVersion(store, meta.id);
  const b = digest(v);
  const bad = Object.keys(a).filter((k) => a[k] !== b[k]);
  console.log("version", i + 1, meta.id, bad.length ? "DIFF " + bad.join(",") : "all tables equal");
  const fts = (db: Database.Database) =>
    (
      db
        .prepare(
          "select count(*) c from properties p where p.rowid in (select rowid from properties_fts where properties_fts match 'industrial')",
        )
        .get() as { c: number }
    ).c;
  console.log("  fts industrial", fts(file), fts(v));
});
