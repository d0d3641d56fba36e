// Prints a hash of every table's rows, in primary-key order (every column when a table has no
// declared key), so two builds of the same seed can be compared table by table:
//   npx tsx scripts/snapshot-checksum.ts /tmp/a.db > a.sum && npx tsx scripts/snapshot-checksum.ts /tmp/b.db | diff a.sum -
// The meta's build time (built_at, coverage.build_seconds) is left out: it differs between runs.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";

function main(file: string): void {
  const db = new Database(file, { readonly: true });
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  for (const name of tables) {
    const cols = db.prepare("SELECT name, pk FROM pragma_table_info(?)").all(name) as { name: string; pk: number }[];
    const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const order = (pk.length ? pk : cols).map((c) => `"${c.name}"`).join(", ");
    const sql =
      name === "snapshot_meta"
        ? "SELECT key, CASE WHEN key = 'coverage' THEN json_remove(value, '$.build_seconds') ELSE value END FROM snapshot_meta WHERE key <> 'built_at' ORDER BY key"
        : `SELECT * FROM "${name}" ORDER BY ${order}`;
    const h = createHash("sha256");
    let n = 0;
    for (const row of db.prepare(sql).raw().iterate()) {
      h.update(JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString("hex") : v)));
      n++;
    }
    console.log(`${name.padEnd(32)} ${String(n).padStart(10)} ${h.digest("hex").slice(0, 16)}`);
  }
  db.close();
}

main(process.argv[2] ?? "");
