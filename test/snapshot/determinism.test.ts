// The same seed and options give byte-identical tables, whether the build runs in one thread or
// two; another seed gives another snapshot.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildSnapshot, snapshotIdFor } from "../../src/snapshot/build";
import { readMeta } from "../../src/snapshot/snapshot-file";
import { TABLES } from "../../src/snapshot/tables";
import { tempDir } from "./files";

const SMALL = 1_500;
let dir: string;

/** One hash per table over every row in rowid order, and the meta without build time. */
function fingerprint(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  const out: Record<string, string> = {};
  // property_docs too: its keys (hashes of the ids) and documents must not depend on the run;
  // and market_history, in key order (market, first quarter).
  for (const t of [...Object.keys(TABLES), "property_docs", "market_history"]) {
    const h = createHash("sha256");
    const order = t === "market_history" ? "market, first_quarter" : "rowid";
    for (const row of db.prepare(`SELECT * FROM ${t} ORDER BY ${order}`).raw().iterate()) h.update(JSON.stringify(row));
    out[t] = h.digest("hex");
  }
  const meta = readMeta(db);
  const coverage = JSON.parse(meta.coverage);
  delete coverage.build_seconds; // timing, allowed to differ
  out.meta = JSON.stringify({ ...meta, built_at: undefined, coverage });
  db.close();
  return out;
}

beforeAll(() => {
  dir = tempDir();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("same seed, same snapshot; other seed, other snapshot", () => {
  const a = buildSnapshot({ out: path.join(dir, "a.db"), seed: 11, properties: SMALL });
  const b = buildSnapshot({ out: path.join(dir, "b.db"), seed: 11, properties: SMALL });
  const c = buildSnapshot({ out: path.join(dir, "c.db"), seed: 12, properties: SMALL });
  expect(a.id).toBe(b.id);
  expect(a.id).toBe(snapshotIdFor(11, SMALL, "2026-11-01T00:00:00Z"));
  expect(c.id).not.toBe(a.id);
  const [fa, fb, fc] = [fingerprint(a.path), fingerprint(b.path), fingerprint(c.path)];
  expect(fb).toEqual(fa);
  for (const t of ["properties", "parcels", "sales", "listings", "tenancies", "companies"]) expect(fc[t]).not.toBe(fa[t]);
  expect(a.counts.properties).toBe(SMALL);
}, 60_000);

test("the two-thread build writes exactly what the one-thread build writes", () => {
  const serial = buildSnapshot({ out: path.join(dir, "serial.db"), seed: 5, properties: SMALL, parallel: false });
  const parallel = buildSnapshot({ out: path.join(dir, "parallel.db"), seed: 5, properties: SMALL, parallel: true });
  expect(fingerprint(parallel.path)).toEqual(fingerprint(serial.path));
  expect(fs.readdirSync(dir).filter((f) => f.includes(".tmp"))).toEqual([]);
}, 60_000);

test("the capture date moves every date with it", () => {
  const early = buildSnapshot({ out: path.join(dir, "early.db"), seed: 11, properties: 700, capturedAt: "2020-01-01" });
  const db = new Database(early.path, { readonly: true });
  const latest = db.prepare("SELECT (SELECT MAX(sale_date) FROM sales) AS s, (SELECT MAX(status_date) FROM listings) AS l").get() as {
    s: string;
    l: string;
  };
  expect(latest.s <= "2020-01-01" && latest.l <= "2020-01-01").toBe(true);
  expect(readMeta(db).captured_at).toBe("2020-01-01T00:00:00Z");
  // Every column of every table that holds dates: the past runs up to the capture date (its
  // latest within the year before it), and leases expire after it (the first within a year).
  const columns: { column: string; lo: string; hi: string }[] = [];
  for (const t of Object.keys(TABLES)) {
    for (const { name } of db.prepare(`SELECT * FROM ${t} LIMIT 1`).columns()) {
      const r = db
        .prepare(`SELECT min(${name}) AS lo, max(${name}) AS hi FROM ${t} WHERE ${name} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'`)
        .get() as { lo: string | null; hi: string | null };
      if (r.lo !== null && r.hi !== null) columns.push({ column: `${t}.${name}`, lo: r.lo, hi: r.hi });
    }
  }
  expect(columns.map((c) => c.column)).toEqual(
    expect.arrayContaining([
      "sales.sale_date",
      "listings.listed_date",
      "tenancies.lease_start",
      "tenancies.lease_expiration",
      "markets.as_of",
    ]),
  );
  for (const { column, lo, hi } of columns) {
    const moved =
      column === "tenancies.lease_expiration" ? lo > "2020-01-01" && lo < "2021-01-01" : hi <= "2020-01-01" && hi >= "2019-01-01";
    expect({ column, lo, hi, moved }).toEqual({ column, lo, hi, moved: true });
  }
  db.close();
}, 60_000);
