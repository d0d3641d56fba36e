// Which cells a refresh changed: a formula's block before and after, compared by the id of each
// row of a list, else cell by cell; values as the cells show them, with labels and the change.
import { changeLine, changesBetween, changesSummary, countChanges } from "../../src/taskpane/cell-changes";
import type { ShownCell } from "../../src/taskpane/shown-values";

/** A cell shown in `format` ("General" unless given) with the text Excel gives it. */
const c = (value: string | number | boolean, text = String(value), format = "General"): ShownCell => ({ value, format, text });
const pct = (value: number) => c(value, `${(value * 100).toFixed(2)}%`, "0.00%");
const block = (cells: ShownCell[][]) => ({ sheetPrefix: "'Rent roll'!", row: 3, column: 1, cells });

test("a single cell: old and new as shown, the labels found around it, the change in basis points for a rate", () => {
  const { changes, cells } = changesBetween(block([[pct(0.0629)]]), block([[pct(0.0784)]]), {
    row: "TX industrial vacancy",
    column: "2026",
  });
  expect(changes).toEqual([
    {
      address: "'Rent roll'!B4",
      kind: "changed",
      row: "TX industrial vacancy",
      column: "2026",
      before: "6.29%",
      after: "7.84%",
      change: "+155 bps",
    },
  ]);
  expect(cells).toEqual(["'Rent roll'!B4"]);
  expect(changeLine(changes[0])).toBe("TX industrial vacancy · 2026: 6.29% → 7.84% (+155 bps)");
  expect(changesBetween(block([[c(1), c("a")]]), block([[c(1), c("a")]])).changes).toEqual([]);
});

test("amounts change by per cent, dates by days; text has no size of change", () => {
  const date = (serial: number, text: string) => c(serial, text, "yyyy-mm-dd");
  const { changes } = changesBetween(
    block([[c(1_200_000, "1,200,000", "#,##0"), date(46419, "2027-02-01"), c("Alpha")]]),
    block([[c(1_140_000, "1,140,000", "#,##0"), date(46447, "2027-03-01"), c("Beta")]]),
  );
  expect(changes.map((x) => [x.before, x.after, x.change])).toEqual([
    ["1,200,000", "1,140,000", "-5.0%"],
    ["2027-02-01", "2027-03-01", "+28 days"],
    ["Alpha", "Beta", ""],
  ]);
});

test("a list with an id column: a new row at the top is one row added, not a change in every row below", () => {
  const header = [c("id"), c("name"), c("cap_rate")];
  const before = block([
    header,
    [c("sale_1"), c("Alpha"), pct(0.061)],
    [c("sale_2"), c("Beta"), pct(0.07)],
    [c("sale_3"), c("Gamma"), pct(0.05)],
  ]);
  const after = block([
    header,
    [c("sale_9"), c("New"), pct(0.065)],
    [c("sale_1"), c("Alpha"), pct(0.061)],
    [c("sale_2"), c("Beta"), pct(0.0725)],
  ]);
  const { changes, cells } = changesBetween(before, after);
  expect(changes).toEqual([
    { address: "'Rent roll'!B5:D5", kind: "added", row: "sale_9 · New", column: "", before: "", after: "", change: "row added" },
    {
      address: "'Rent roll'!D7",
      kind: "changed",
      row: "sale_2 · Beta",
      column: "cap_rate",
      before: "7.00%",
      after: "7.25%",
      change: "+25 bps",
    },
    { address: "'Rent roll'!B7:D7", kind: "removed", row: "sale_3 · Gamma", column: "", before: "", after: "", change: "row removed" },
  ]);
  // The added row's cells and the changed cell are marked; a removed row has no cells left to mark.
  expect(cells).toEqual(["'Rent roll'!B5", "'Rent roll'!C5", "'Rent roll'!D5", "'Rent roll'!D7"]);
  expect(changesSummary(countChanges(changes), 1)).toBe("1 cell changed value, 1 row added, 1 row removed in 1 formula.");
});

test("a list without a usable id is compared by position, each change labelled by its row's first cell and its column's header", () => {
  const header = [c("field"), c("value")];
  const before = block([header, [c("vacancy_rate"), pct(0.0424)], [c("asking_rent"), c(21.5)]]);
  const after = block([header, [c("vacancy_rate"), pct(0.0549)], [c("asking_rent"), c(21.5)]]);
  expect(changesBetween(before, after).changes).toEqual([
    {
      address: "'Rent roll'!C5",
      kind: "changed",
      row: "vacancy_rate",
      column: "value",
      before: "4.24%",
      after: "5.49%",
      change: "+125 bps",
    },
  ]);
});

test("a spill that grew or shrank: the cells only one side covers were empty on the other", () => {
  const before = block([[c(1)], [c(2)]]);
  const after = block([[c(1)], [c(2)], [c(3)]]);
  expect(changesBetween(before, after).changes.map((x) => [x.address, x.before, x.after])).toEqual([["'Rent roll'!B6", "", "3"]]);
  expect(changesBetween(after, before).changes.map((x) => [x.address, x.before, x.after])).toEqual([["'Rent roll'!B6", "3", ""]]);
});

test("a cell that was still calculating had no value to compare; an error that appears is a change", () => {
  expect(changesBetween(block([[c("#BUSY!")]]), block([[c(12)]])).changes).toEqual([]);
  expect(changesBetween(block([[c(12)]]), block([[c("#N/A")]])).changes.map((x) => [x.before, x.after, x.change])).toEqual([
    ["12", "#N/A", ""],
  ]);
});

test("the summary line", () => {
  expect(changesSummary({ cells: 0, added: 0, removed: 0 }, 0)).toBe("No cell changed value.");
  expect(changesSummary({ cells: 1, added: 0, removed: 0 }, 1)).toBe("1 cell changed value in 1 formula.");
  expect(changesSummary({ cells: 1200, added: 0, removed: 2 }, 3)).toBe("1,200 cells changed value, 2 rows removed in 3 formulas.");
});
