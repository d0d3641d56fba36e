// Everything the pane writes into cells goes through cell-text: blanks, lists and long text
// made into cells, dates and rates kept as formatted numbers, and every row written a rectangle. Text stays the data's own text (the
// Excel edge writes it as text: test/taskpane/excel-cell-rules.test.ts).
import { MAX_CELL_TEXT, toCellRows, toCellValue } from "../../src/taskpane/cell-text";

describe("toCellValue", () => {
  test("empty values are blank cells; numbers and booleans stay themselves", () => {
    expect([null, undefined].map(toCellValue)).toEqual(["", ""]);
    expect([0, -12.5, 1e21, true, false].map(toCellValue)).toEqual([0, -12.5, 1e21, true, false]);
  });

  test("a number Excel cannot hold is a blank cell, not an error", () => {
    expect([NaN, Infinity, -Infinity].map(toCellValue)).toEqual(["", "", ""]);
  });

  test("text from the data is kept exactly, formula-like or not", () => {
    expect(toCellValue("=cmd|' /C calc'!A0")).toBe("=cmd|' /C calc'!A0");
    expect(toCellValue("Harbor Point")).toBe("Harbor Point");
  });

  test("a list is one comma-separated cell", () => {
    expect(toCellValue(["lease_rollover", "long_hold"])).toBe("lease_rollover, long_hold");
    expect(toCellValue(["-below_market", null, 3])).toBe("-below_market, , 3");
    expect(toCellValue([])).toBe("");
  });

  test("an object is its JSON text", () => {
    expect(toCellValue({ id: "snap_1", captured_at: "2025-01-01" })).toBe('{"id":"snap_1","captured_at":"2025-01-01"}');
    expect(toCellValue([{ a: 1 }, "b"])).toBe('{"a":1}, b');
  });

  test("a date or a rate the functions' shaping made a formatted number stays one; one with no number is blank", () => {
    const date = { type: "Double", basicValue: 46096, numberFormat: "yyyy-mm-dd" };
    expect(toCellValue(date)).toBe(date);
    expect(toCellValue({ type: "Double", basicValue: NaN, numberFormat: "0.00%" })).toBe("");
    // Anything else shaped like an object is still its JSON text.
    expect(toCellValue({ type: "Double", basicValue: "1" })).toBe('{"type":"Double","basicValue":"1"}');
  });

  test("text longer than a cell holds is cut, so the write does not fail", () => {
    const written = toCellValue("x".repeat(MAX_CELL_TEXT + 10));
    expect(written).toHaveLength(MAX_CELL_TEXT);
    expect(String(written).endsWith("…")).toBe(true);
  });
});

describe("toCellRows", () => {
  test("pads short rows with blanks to the widest row", () => {
    expect(toCellRows([["name", "city", "units"], ["A"], ["B", "Austin"]])).toEqual([
      ["name", "city", "units"],
      ["A", "", ""],
      ["B", "Austin", ""],
    ]);
  });

  test("converts every value on the way", () => {
    expect(toCellRows([[null, "=1", ["a", "b"], NaN]])).toEqual([["", "=1", "a, b", ""]]);
  });

  test("no rows are no rows", () => {
    expect(toCellRows([])).toEqual([]);
    expect(toCellRows([[], []])).toEqual([[], []]);
  });
});
