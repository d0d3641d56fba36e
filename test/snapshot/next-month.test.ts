// `npm run snapshot -- next-month`: the month after a generated snapshot, deterministic, with the
// documented share of properties changed and every other property's stored document unchanged.
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { brokenReferences } from "../../src/snapshot/import/references";
import { type NextMonthResult, lineageOf, nextMonthSnapshot, rebuildLineage } from "../../src/snapshot/next-month";
import { validatorFor } from "../../src/snapshot/record-validator";
import { quarterOf } from "../../src/contract/periods";
import { readMeta } from "../../src/snapshot/snapshot-file";
import { TABLES, decodeRow, type TableName } from "../../src/snapshot/tables";
import { tempDir } from "./files";
import { loadHistoryFigures } from "../helpers/history-figures";

const PROPERTIES = 2_000;
let dir: string;
let base: string;
let next: NextMonthResult;
let prevDb: Database.Database;
let baseHash: string;
const fileHash = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
let nextDb: Database.Database;

beforeAll(() => {
  dir = tempDir("next-month-");
  base = path.join(dir, "base.db");
  buildSnapshot({ out: base, seed: 5, properties: PROPERTIES });
  baseHash = fileHash(base);
  next = nextMonthSnapshot({ from: base, out: path.join(dir, "next.db") });
  prevDb = new Database(base, { readonly: true });
  nextDb = new Database(next.path, { readonly: true });
  loadHistoryFigures(prevDb);
  loadHistoryFigures(nextDb);
});
afterAll(() => {
  prevDb.close();
  nextDb.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One hash per table over every row in rowid order, and the meta without build time (as test/snapshot/determinism.test.ts). */
function fingerprint(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  const out: Record<string, string> = {};
  for (const t of [...Object.keys(TABLES), "property_docs"]) {
    const h = createHash("sha256");
    for (const row of db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).raw().iterate()) h.update(JSON.stringify(row));
    out[t] = h.digest("hex");
  }
  const meta = readMeta(db);
  const coverage = JSON.parse(meta.coverage);
  delete coverage.build_seconds;
  out.meta = JSON.stringify({ ...meta, built_at: undefined, coverage });
  db.close();
  return out;
}

const docs = (db: Database.Database) =>
  new Map((db.prepare("SELECT id, json FROM property_docs").raw().all() as [string, string][]).map(([id, json]) => [id, json]));

test("the same previous snapshot and share give the same id and the same data, byte for byte", () => {
  const again = nextMonthSnapshot({ from: base, out: path.join(dir, "again.db") });
  expect(again.id).toBe(next.id);
  expect(fingerprint(again.path)).toEqual(fingerprint(next.path));
  const other = nextMonthSnapshot({ from: base, out: path.join(dir, "other.db"), changed: 0.08 });
  expect(other.id).not.toBe(next.id);
});

test("the previous file is read, never written (a service may be serving it)", () => {
  expect(fileHash(base)).toBe(baseHash);
});

test("captured one month later, generated, naming the snapshot it follows", () => {
  const meta = readMeta(nextDb);
  expect(meta.captured_at).toBe("2026-12-01T00:00:00Z");
  expect(meta.source).toBe("generated");
  expect(meta.next_from).toBe(readMeta(prevDb).id);
  expect(lineageOf(meta)).toEqual({ seed: 5, properties: PROPERTIES, captured_at: "2026-11-01T00:00:00Z", next_months: [0.05] });
});

test("5% of properties change; every other property's document is byte-identical, every changed one differs", () => {
  const before = docs(prevDb);
  const after = docs(nextDb);
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  const changed = [...after].filter(([id, json]) => before.get(id) !== json).map(([id]) => id);
  expect(changed.length).toBe(Math.round(0.05 * PROPERTIES));
  expect(next.tallies.properties_changed).toBe(changed.length);
  // A sold property: its owner is the new sale's buyer, and its document says so.
  const sold = nextDb
    .prepare(
      "SELECT p.id, p.owner_id, s.buyer_id, s.sale_date FROM properties p JOIN sales s ON s.id = p.last_sale_id WHERE s.id LIKE 'sale_202612-%'",
    )
    .all() as { id: string; owner_id: string; buyer_id: string; sale_date: string }[];
  expect(sold.length).toBe(next.tallies.by_event.sale);
  expect(sold.length).toBeGreaterThan(0);
  for (const s of sold) {
    expect(s.owner_id).toBe(s.buyer_id);
    expect(s.sale_date > "2026-11-01" && s.sale_date <= "2026-12-01").toBe(true);
    expect(changed).toContain(s.id);
    expect(JSON.parse(after.get(s.id)!).owner_id).toBe(s.buyer_id);
  }
  // Each kind of event happened, in rough proportion to its weight.
  for (const n of Object.values(next.tallies.by_event)) expect(n).toBeGreaterThan(0);
  expect(next.tallies.by_event.sale / changed.length).toBeGreaterThan(0.15);
  expect(next.tallies.by_event.sale / changed.length).toBeLessThan(0.45);
});

/** Every market's rents, vacancy and absorption by "market id|quarter", for the quarters before `before`. */
function carried(db: Database.Database, before: number): Map<string, unknown[]> {
  const cols = ["asking_rent_sqft_year", "asking_rent_unit_month", "vacancy_rate", "net_absorption_sqft", "net_absorption_units"];
  const rows = db
    .prepare(
      `SELECT m.id, h.quarter, ${cols.map((c) => `h.${c}`).join(", ")} FROM market_history_figures h
       JOIN markets m ON m.rowid = h.market WHERE h.quarter < ?`,
    )
    .raw()
    .all(before) as unknown[][];
  return new Map(rows.map(([id, q, ...figures]) => [`${id}|${q}`, figures]));
}

test("market history: the quarters before this one are the previous month's, the quarter to date is this month's markets", () => {
  const last = quarterOf(next.capturedAt.slice(0, 10));
  expect(last).toBe(quarterOf(readMeta(prevDb).captured_at.slice(0, 10))); // 1 November and 1 December: one quarter
  const [before, after] = [carried(prevDb, last), carried(nextDb, last)];
  expect(after.size).toBe(before.size);
  expect(after).toEqual(before);
  // Not vacuous: the modelled figures are there.
  expect([...after.values()].filter((f) => f[2] !== null).length).toBeGreaterThan(after.size / 4);
  const differ = nextDb
    .prepare(
      `SELECT count(*) FROM markets m JOIN market_history_figures h ON h.market = m.rowid AND h.quarter = ?
       WHERE h.vacancy_rate IS NOT m.vacancy_rate OR h.asking_rent_sqft_year IS NOT m.asking_rent_sqft_year`,
    )
    .pluck()
    .get(last);
  expect(differ).toBe(0);
  const coverage = (db: Database.Database) => JSON.parse(readMeta(db).coverage).history;
  expect(coverage(nextDb).not_held).toEqual(coverage(prevDb).not_held);
});

test("market history into a new quarter: the one that ended keeps the figures it had to date", () => {
  const third = nextMonthSnapshot({ from: next.path, out: path.join(dir, "third.db") });
  expect(third.capturedAt.slice(0, 10)).toBe("2027-01-01");
  const db = new Database(third.path, { readonly: true });
  try {
    loadHistoryFigures(db);
    const last = quarterOf("2027-01-01");
    expect(carried(db, last)).toEqual(carried(nextDb, last));
    expect(JSON.parse(readMeta(db).coverage).history).toMatchObject({ first_period: "2006-Q1", last_period: "2027-Q1", quarters: 85 });
    // The year's close adds a row of one quarter a market and leaves every closed year's row, by
    // market and first quarter, byte for byte as it was.
    const rows = (d: Database.Database) =>
      d
        .prepare(
          `SELECT m.id, h.first_quarter, h.quarters, hex(h.figures) FROM market_history h JOIN markets m ON m.rowid = h.market
           WHERE h.first_quarter < ? ORDER BY m.id, h.first_quarter`,
        )
        .raw()
        .all(quarterOf("2026-01-01")) as unknown[][];
    const closed = rows(nextDb);
    expect(closed.length).toBeGreaterThan(0);
    expect(rows(db)).toEqual(closed);
    const markets = db.prepare("SELECT count(*) FROM markets").pluck().get();
    expect(db.prepare("SELECT count(*), min(quarters), max(quarters) FROM market_history WHERE first_quarter = ?").raw().get(last)).toEqual(
      [markets, 1, 1],
    );
  } finally {
    db.close();
  }
});

test("a share of 0 changes no property: every document is the previous file's", () => {
  const still = nextMonthSnapshot({ from: base, out: path.join(dir, "still.db"), changed: 0 });
  const db = new Database(still.path, { readonly: true });
  expect(docs(db)).toEqual(docs(prevDb));
  db.close();
});

test("the rent roll stays consistent: tenant counts match the tenancies, no lease has expired", () => {
  const off = nextDb
    .prepare("SELECT count(*) FROM properties p WHERE tenant_count <> (SELECT count(*) FROM tenancies t WHERE t.property_id = p.id)")
    .pluck()
    .get();
  expect(off).toBe(0);
  expect(nextDb.prepare("SELECT count(*) FROM tenancies WHERE lease_expiration <= '2026-12-01'").pluck().get()).toBe(0);
  expect(next.tallies.leases_renewed).toBeGreaterThan(0);
});

test("listings move at the documented monthly shares", () => {
  const active = prevDb.prepare("SELECT count(*) FROM listings WHERE status = 'active'").pluck().get() as number;
  const all = prevDb.prepare("SELECT count(*) FROM listings").pluck().get() as number;
  const l = next.tallies.listings;
  expect(l.pending / active).toBeGreaterThan(0.07);
  expect(l.pending / active).toBeLessThan(0.17);
  expect(l.price_cut).toBeGreaterThan(0);
  expect(l.new).toBe(Math.round(0.025 * all));
  // Active listings count their days on market to the new capture date.
  const wrong = nextDb
    .prepare("SELECT count(*) FROM listings WHERE status = 'active' AND days_on_market <> julianday('2026-12-01') - julianday(listed_date)")
    .pluck()
    .get();
  expect(wrong).toBe(0);
});

test("every row validates against its record schema and every reference resolves", () => {
  for (const t of ["parcels", "listings", "companies", "properties", "sales", "tenancies", "markets", "diligence"] as TableName[]) {
    const check = validatorFor(t);
    const rows = nextDb.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[];
    const bad = rows.map((r) => ({ id: r.id, errors: check(decodeRow(t, r)) })).filter((r) => r.errors.length);
    expect([t, bad.slice(0, 3)]).toEqual([t, []]);
  }
  expect(brokenReferences(nextDb, 10)).toEqual([]);
});

test("months chain, and a chain is built again from its lineage with the same ids and data", () => {
  const third = nextMonthSnapshot({ from: next.path, out: path.join(dir, "third.db"), changed: 0.03 });
  const meta = readMeta(new Database(third.path, { readonly: true }));
  expect(meta.captured_at).toBe("2027-01-01T00:00:00Z");
  expect(lineageOf(meta).next_months).toEqual([0.05, 0.03]);
  const rebuilt = rebuildLineage(lineageOf(meta), path.join(dir, "rebuilt.db"));
  expect(rebuilt.id).toBe(third.id);
  expect(fingerprint(rebuilt.path)).toEqual(fingerprint(third.path));
  expect(fs.readdirSync(dir).filter((f) => f.startsWith("rebuilt"))).toEqual(["rebuilt.db"]);
});

test("an imported snapshot is refused, saying why; so is writing over the previous file", () => {
  const imported = path.join(dir, "imported.db");
  fs.copyFileSync(base, imported);
  const db = new Database(imported);
  db.exec("UPDATE snapshot_meta SET value = 'imported' WHERE key = 'source'; DELETE FROM snapshot_meta WHERE key = 'seed'");
  db.close();
  expect(() => nextMonthSnapshot({ from: imported, out: path.join(dir, "x.db") })).toThrow(
    /is imported: its next month is your next capture/,
  );
  expect(() => nextMonthSnapshot({ from: base, out: base })).toThrow(/another file/);
  expect(() => nextMonthSnapshot({ from: path.join(dir, "nowhere.db"), out: path.join(dir, "y.db") })).toThrow(/no snapshot at/);
  expect(fs.existsSync(path.join(dir, "x.db"))).toBe(false);
});
