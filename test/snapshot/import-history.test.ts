// Importing captured market history (`market_history.csv` / `.ndjson`): captured figures are
// used where given, what the rows give is derived, the rest is a gap; a bad row is an error
// naming file, line and field, and then nothing is written.
import fs from "node:fs";
import path from "node:path";
import { importSnapshot, type ImportResult } from "../../src/snapshot/import";
import { openSnapshot, readMeta } from "../../src/snapshot/snapshot-file";
import { loadHistoryFigures } from "../helpers/history-figures";
import { parseQuarter } from "../../src/contract/periods";
import { dataset } from "./factories";
import { tempDir, writeDataset } from "./files";

let root: string;
beforeEach(() => {
  root = tempDir("snapshot-import-history-");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** The test dataset (captured 2026-09-01: one Austin industrial building, one sale on 2026-03-15) and a history file. */
function dirWith(history: string, name = "market_history.csv"): string {
  const dir = fs.mkdtempSync(path.join(root, "in-"));
  writeDataset(dir, dataset());
  fs.writeFileSync(path.join(dir, name), history);
  return dir;
}

function errorsOf(r: ImportResult) {
  if (r.ok) throw new Error("expected the import to fail");
  return r.errors;
}

const HEADER = "geography_type,geography_id,asset_type,period,asking_rent_sqft_year,vacancy_rate,sales_count\n";

test("captured figures are used where given, derived ones elsewhere, the rest is a gap", () => {
  const csv =
    HEADER +
    "state,TX,industrial,2025-Q2,9.5,0.12,\n" + // rent and vacancy captured; sales derived
    "metro,metro-austin-tx,industrial,2024-Q1,,0.08,7\n" + // a captured sales count wins over the rows'
    "state,TX,industrial,2026-Q3,99,0.5,\n" + // the quarter holding the capture date is the market snapshot's
    "state,TX,industrial,2006-Q1,6.25,0.07,\n" + // the first quarter held: the span reaches back through 2006
    "state,TX,industrial,2009-Q4,5.5,0.16,\n";
  const out = path.join(root, "snap.db");
  const r = importSnapshot({ dir: dirWith(csv), out });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const db = openSnapshot(out);
  loadHistoryFigures(db);
  const rows = (id: string) =>
    db
      .prepare("SELECT h.* FROM market_history_figures h JOIN markets m ON m.rowid = h.market WHERE m.id = ? ORDER BY quarter")
      .all(id) as Record<string, number | null>[];
  const at = (list: Record<string, number | null>[], label: string) => list.find((x) => x.quarter === parseQuarter(label))!;
  const tx = rows("mkt_TX_industrial");
  expect(tx).toHaveLength(83); // 2006-Q1 .. 2026-Q3
  expect(at(tx, "2006-Q1")).toMatchObject({ asking_rent_sqft_year: 6.25, vacancy_rate: 0.07 });
  expect(at(tx, "2009-Q4")).toMatchObject({ asking_rent_sqft_year: 5.5, vacancy_rate: 0.16 });
  expect(at(tx, "2025-Q2")).toMatchObject({ asking_rent_sqft_year: 9.5, vacancy_rate: 0.12, sales_count: 0 });
  expect(at(tx, "2025-Q1")).toMatchObject({ asking_rent_sqft_year: null, vacancy_rate: null, inventory_sqft: 100_000 });
  expect(at(tx, "2026-Q1")).toMatchObject({ sales_count: 1, sales_volume: 11_500_000 });
  const market = db.prepare("SELECT * FROM markets WHERE id = 'mkt_TX_industrial'").get() as Record<string, number>;
  expect(at(tx, "2026-Q3")).toMatchObject({ asking_rent_sqft_year: market.asking_rent_sqft_year, vacancy_rate: market.vacancy_rate });
  // Net absorption needs vacancy at both ends: here it has neither, so it is a gap too.
  expect(at(tx, "2025-Q2").net_absorption_sqft).toBeNull();
  expect(at(rows("mkt_metro-austin-tx_industrial"), "2024-Q1")).toMatchObject({ vacancy_rate: 0.08, sales_count: 7 });
  const history = JSON.parse(readMeta(db).coverage).history;
  expect(history).toMatchObject({ first_period: "2006-Q1", last_period: "2026-Q3", quarters: 83, captured_rows: 4 });
  const vacancy = history.gaps.find(
    (g: { metric: string; asset_type: string }) => g.metric === "vacancy_rate" && g.asset_type === "industrial",
  );
  // Every industrial market misses vacancy in every quarter but the last, less the four captured.
  expect(vacancy).toMatchObject({ markets_with_gaps: vacancy.markets, missing_periods: vacancy.markets * 82 - 4 });
  db.close();
});

test("NDJSON works the same, and leaving a metric out is a gap, not a zero", () => {
  const ndjson =
    JSON.stringify({ geography_type: "state", geography_id: "TX", asset_type: "industrial", period: "2020-Q2", vacancy_rate: 0.2 }) + "\n";
  const out = path.join(root, "snap.db");
  const r = importSnapshot({ dir: dirWith(ndjson, "market_history.ndjson"), out });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const db = openSnapshot(out);
  loadHistoryFigures(db);
  const row = db
    .prepare(
      "SELECT h.* FROM market_history_figures h JOIN markets m ON m.rowid = h.market WHERE m.id = 'mkt_TX_industrial' AND quarter = ?",
    )
    .get(parseQuarter("2020-Q2")) as Record<string, number | null>;
  expect(row).toMatchObject({ vacancy_rate: 0.2, asking_rent_sqft_year: null, median_cap_rate: null, inventory_sqft: 100_000 });
  db.close();
});

test("bad rows are errors naming file, line and field; nothing is written", () => {
  const out = path.join(root, "snap.db");
  fs.writeFileSync(out, "previous snapshot");
  const bad = (csv: string) => errorsOf(importSnapshot({ dir: dirWith(HEADER + csv), out }));
  expect(bad("state,TX,industrial,2025-Q2,9.5,1.5,\n")).toEqual([
    { file: "market_history.csv", line: 2, reason: "vacancy_rate: must be <= 1 (got 1.5)" },
  ]);
  expect(bad("state,TX,industrial,2025Q2,9.5,0.1,\n")[0]).toMatchObject({ file: "market_history.csv", line: 2 });
  expect(bad("state,TX,industrial,2025Q2,9.5,0.1,\n")[0].reason).toMatch(/^period: /);
  expect(bad("state,TX,industrial,2025-Q2,9.5,0.1,many\n")[0].reason).toMatch(/^sales_count: /);
  expect(bad("state,TX,industrial,2025-Q1,,,\nstate,TX,office,2025-Q2,,,\n")).toEqual([
    {
      file: "market_history.csv",
      line: 3,
      reason: "geography_id: the snapshot has no office market in state TX (no office properties there)",
    },
  ]);
  expect(bad("state,TX,industrial,2025-Q1,,,\nstate,TX,industrial,2025-Q1,,0.1,\n")).toEqual([
    { file: "market_history.csv", line: 3, reason: "period: 2025-Q1 of this market is given more than once (first on line 2)" },
  ]);
  expect(bad("state,TX,industrial,2026-Q4,,,\n")[0].reason).toBe(
    "period: 2026-Q4 is after 2026-Q3, the quarter holding the capture date (2026-09-01)",
  );
  expect(bad("state,TX,industrial,2005-Q4,,0.1,\n")).toEqual([
    { file: "market_history.csv", line: 2, reason: "period: 2005-Q4 is before 2006-Q1, where the market history begins" },
  ]);
  const header = errorsOf(importSnapshot({ dir: dirWith("geography_type,geography_id,asset_type,period,rent_index\n"), out }));
  expect(header[0]).toMatchObject({ file: "market_history.csv", line: 1 });
  expect(header[0].reason).toContain('unknown column "rent_index"');
  expect(fs.readFileSync(out, "utf8")).toBe("previous snapshot");
  expect(fs.existsSync(`${out}.tmp`)).toBe(false);
});
