// The rows one refresh adds to the "Refresh log" sheet: a summary row, then every change and failure.
import type { CellChange } from "../../src/taskpane/cell-changes";
import { REFRESH_LOG_HEADER, creditsText, refreshLogRows } from "../../src/taskpane/refresh-log";
import type { RefreshReport } from "../../src/taskpane/refresh-formulas";

const change = (i: number): CellChange => ({
  address: `Comps!D${i + 2}`,
  kind: "changed",
  row: `sale_${i}`,
  column: "cap_rate",
  before: "6.00%",
  after: "6.25%",
  change: "+25 bps",
});

function report(changes: CellChange[]): RefreshReport {
  return {
    scope: "workbook",
    snapshot: { coverage: {} as never, snapshotId: "snap_2", capturedAt: "2026-12-01T00:00:00Z", changed: true, staleEntries: 4 },
    formulas: 3,
    failures: [
      {
        address: "Sheet1!A40",
        formula: '=PROP.PROPERTY("cp_x","name")',
        error: "#N/A",
        changes: [],
        marks: [],
        reason: "There is no commercial property 'cp_x'.",
      },
    ],
    changes,
    marks: changes.map((c) => c.address),
    changedFormulas: 1,
    credits: { spent: 2, remainingBefore: 998, remainingAfter: 996 },
    finishedAt: "2026-12-01T09:30:00.000Z",
  };
}

test("every change is kept, however many: 120 changes give 120 rows, with the refresh's time (a date), snapshot and credits", () => {
  const changes = Array.from({ length: 120 }, (_, i) => change(i));
  const rows = refreshLogRows(report(changes));
  expect(rows).toHaveLength(1 + 120 + 1);
  for (const row of rows) expect(row).toHaveLength(REFRESH_LOG_HEADER.length);
  // 2026-12-01 09:30 as an Excel date-time.
  const at = { type: "Double", basicValue: expect.closeTo(46357 + 9.5 / 24, 9), numberFormat: "yyyy-mm-dd hh:mm" };
  expect(rows[0]).toEqual([
    at,
    "snap_2",
    2,
    "",
    "3 formulas refreshed (workbook), 1 failed. 120 cells changed value in 1 formula. 2 credits spent (998 → 996 left).",
    "",
    "",
    "",
    "",
  ]);
  expect(rows[120]).toEqual([at, "snap_2", null, "Comps!D121", "sale_119", "cap_rate", "6.00%", "6.25%", "+25 bps"]);
  expect(rows[121]).toEqual([
    at,
    "snap_2",
    null,
    "Sheet1!A40",
    "Formula failed",
    "",
    "",
    "#N/A",
    "There is no commercial property 'cp_x'.",
  ]);
});

test("the credits line", () => {
  expect(creditsText({ spent: 0, remainingBefore: 998, remainingAfter: 998 })).toBe("No credits spent (998 → 998 left).");
  expect(creditsText({ spent: 1, remainingBefore: null, remainingAfter: null })).toBe("1 credit spent.");
});
