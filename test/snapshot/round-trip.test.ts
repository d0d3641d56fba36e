// A generated snapshot exported to import files (half CSV, half NDJSON) imports cleanly, with
// every row valid, and derives the same markets and diligence candidates: the derivations
// depend on the data only, not on how it got there.
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { SNAPSHOT_RESOURCES } from "../../src/contract/records";
import { buildSnapshot } from "../../src/snapshot/build";
import { importSnapshot } from "../../src/snapshot/import";
import { readMeta } from "../../src/snapshot/snapshot-file";
import { tempDir, writeDataset } from "./files";
import { loadHistoryFigures } from "../helpers/history-figures";

test("export, import, same derived tables", () => {
  const root = tempDir("snapshot-roundtrip-");
  try {
    const built = buildSnapshot({ out: path.join(root, "built.db"), seed: 3, properties: 1_200 });
    const src = new Database(built.path, { readonly: true });
    const data: Record<string, object[]> = {};
    for (const r of Object.keys(SNAPSHOT_RESOURCES)) data[r] = src.prepare(`SELECT * FROM ${r} ORDER BY rowid`).all() as object[];
    const capturedAt = readMeta(src).captured_at;
    const dir = path.join(root, "export");
    fs.mkdirSync(dir);
    writeDataset(dir, data, ["parcels", "properties", "tenancies"]);
    const imported = importSnapshot({ dir, out: path.join(root, "imported.db"), capturedAt });
    if (!imported.ok) throw new Error(JSON.stringify(imported.errors.slice(0, 5)));
    expect(imported.counts).toEqual(built.counts);
    const dst = new Database(imported.path, { readonly: true });
    loadHistoryFigures(src);
    loadHistoryFigures(dst);
    for (const t of [...Object.keys(SNAPSHOT_RESOURCES), "markets", "diligence"]) {
      // Rows as JSON lines: a string comparison is fast, and a failure shows the first differing row.
      const rows = (db: Database.Database) =>
        (db.prepare(`SELECT * FROM ${t} ORDER BY id`).all() as object[]).map((r) => JSON.stringify(r));
      const [want, got] = [rows(src), rows(dst)];
      const first = want.findIndex((r, i) => r !== got[i]);
      expect([t, got.length, first === -1 ? null : got[first]]).toEqual([t, want.length, first === -1 ? null : want[first]]);
    }
    // Market history: what derives from the rows is the same; rents and vacancy before the last
    // quarter (and so net absorption) come from the generator's cycles, which an import has not.
    const derivable =
      "market, quarter, sales_volume, sales_count, median_cap_rate, median_price_per_sqft, median_price_per_unit, inventory_sqft, inventory_units, deliveries_sqft, deliveries_units";
    const history = (db: Database.Database) =>
      (db.prepare(`SELECT ${derivable} FROM market_history_figures ORDER BY market, quarter`).all() as object[]).map((r) =>
        JSON.stringify(r),
      );
    const [hWant, hGot] = [history(src), history(dst)];
    expect(hGot.length).toBe(hWant.length);
    expect(hGot.find((r, i) => r !== hWant[i]) ?? null).toBeNull();
    const last = (db: Database.Database) =>
      db
        .prepare(
          "SELECT market, asking_rent_sqft_year, vacancy_rate FROM market_history_figures WHERE quarter = (SELECT MAX(quarter) FROM market_history_figures) ORDER BY market",
        )
        .all();
    expect(last(dst)).toEqual(last(src));
    const before = (db: Database.Database) =>
      db.prepare("SELECT COUNT(vacancy_rate) AS n FROM market_history_figures").pluck().get() as number;
    expect(before(dst)).toBeLessThan(before(src));
    const withoutHistory = (c: Record<string, unknown>) => ({
      ...c,
      build_seconds: 0,
      history: null,
      known_gaps: (c.known_gaps as { resource: string }[]).filter((g) => g.resource !== "market_history"),
    });
    const [a, b] = [JSON.parse(readMeta(src).coverage), JSON.parse(readMeta(dst).coverage)];
    expect(withoutHistory(b)).toEqual(withoutHistory(a));
    // Imported without captured history, office vacancy is known only in the last quarter: a gap in every other.
    const office = b.history.gaps.find(
      (g: { metric: string; asset_type: string }) => g.metric === "vacancy_rate" && g.asset_type === "office",
    );
    expect(office.missing_periods).toBe(office.markets * (b.history.quarters - 1));
    expect(b.known_gaps).toContainEqual(
      expect.objectContaining({ resource: "market_history", asset_type: "office", field: "vacancy_rate" }),
    );
    expect(readMeta(dst).asset_inputs).toBe(readMeta(src).asset_inputs);
    src.close();
    dst.close();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}, 60_000);
