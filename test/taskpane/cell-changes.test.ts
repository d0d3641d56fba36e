// Which cells a refresh changed: a formula's block before and after, compared cell by cell.
import { changesBetween, changesSummary, shownText } from "../../src/taskpane/cell-changes";

const block = (values: unknown[][]) => ({ sheetPrefix: "'Rent roll'!", row: 3, column: 1, values });

test("a changed value is reported with its address, old and new; equal values are not", () => {
  expect(changesBetween(block([["name", 0.91]]), block([["name", 0.87]]))).toEqual([
    { address: "'Rent roll'!C4", before: 0.91, after: 0.87 },
  ]);
  expect(changesBetween(block([[1, "a"]]), block([[1, "a"]]))).toEqual([]);
});

test("a spill that grew or shrank: the cells only one side covers were empty on the other", () => {
  const before = block([["id"], ["cp_1"]]);
  const after = block([["id"], ["cp_1"], ["cp_2"]]);
  expect(changesBetween(before, after)).toEqual([{ address: "'Rent roll'!B6", before: "", after: "cp_2" }]);
  expect(changesBetween(after, before)).toEqual([{ address: "'Rent roll'!B6", before: "cp_2", after: "" }]);
});

test("a cell that was still calculating had no value to compare; an error that appears is a change", () => {
  expect(changesBetween(block([["#BUSY!"]]), block([[12]]))).toEqual([]);
  expect(changesBetween(block([[12]]), block([["#N/A"]]))).toEqual([{ address: "'Rent roll'!B4", before: 12, after: "#N/A" }]);
});

test("the pane's words for values and the summary", () => {
  expect(shownText("")).toBe("(empty)");
  expect(shownText(1234567)).toBe("1,234,567");
  expect(shownText(0.1 + 0.2)).toBe("0.3");
  expect(shownText(true)).toBe("true");
  expect(changesSummary(0, 0)).toBe("No cell changed value.");
  expect(changesSummary(1, 1)).toBe("1 cell changed value in 1 formula.");
  expect(changesSummary(1200, 3)).toBe("1,200 cells changed value in 3 formulas.");
});
