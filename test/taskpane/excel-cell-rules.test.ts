import {
  cellAddress,
  columnLetters,
  intersect,
  parseCell,
  probeCells,
  rectAddress,
  rectanglesOf,
  selectedRowsOf,
  sheetPrefix,
  splitAddress,
} from "../../src/taskpane/excel-addresses";
import {
  callsPropFunction,
  frozenValue,
  numberFormatFor,
  rectangular,
  uniqueSheetName,
  uniqueTableName,
  writableFormat,
  writableValue,
} from "../../src/taskpane/excel-cell-rules";

describe("addresses", () => {
  test("column letters run A..Z, AA.., up to XFD", () => {
    expect([0, 25, 26, 51, 52, 701, 702, 16383].map(columnLetters)).toEqual(["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA", "XFD"]);
    expect(cellAddress(3, 1)).toBe("B4");
    expect(rectAddress({ row: 3, column: 1, rows: 3, columns: 3 })).toBe("B4:D6");
    expect(rectAddress({ row: 0, column: 0, rows: 1, columns: 1 })).toBe("A1");
  });

  test("sheet names come back unquoted, and the prefix keeps Excel's quoting", () => {
    expect(splitAddress("'Rent roll'!C3")).toEqual({ sheet: "Rent roll", cells: "C3" });
    expect(splitAddress("'Bob''s comps'!A1:B2")).toEqual({ sheet: "Bob's comps", cells: "A1:B2" });
    expect(splitAddress("Sheet1!A1")).toEqual({ sheet: "Sheet1", cells: "A1" });
    expect(sheetPrefix("'Rent roll'!C3:D4")).toBe("'Rent roll'!");
    expect(() => splitAddress("A1")).toThrow(/names no sheet/);
  });

  test("intersections and the selected rows of a block", () => {
    const usedRange = { row: 0, column: 0, rows: 20, columns: 6 };
    const wholeColumn = { row: 0, column: 2, rows: 1_048_576, columns: 1 };
    expect(intersect(wholeColumn, usedRange)).toEqual({ row: 0, column: 2, rows: 20, columns: 1 });
    expect(intersect({ row: 30, column: 0, rows: 2, columns: 2 }, usedRange)).toBeNull();
    const spill = { row: 0, column: 0, rows: 6, columns: 4 };
    // Header row selected too: it is skipped; the selection runs past the block's end.
    expect(selectedRowsOf(spill, { row: 0, column: 1, rows: 10, columns: 1 }, 1)).toEqual({ row: 1, count: 5 });
    expect(selectedRowsOf(spill, { row: 2, column: 9, rows: 2, columns: 1 }, 1)).toEqual({ row: 2, count: 2 });
    expect(selectedRowsOf(spill, { row: 0, column: 0, rows: 1, columns: 1 }, 1).count).toBe(0);
  });

  test("cells parse back to indexes; anything but one cell is refused", () => {
    expect(parseCell("B4")).toEqual({ row: 3, column: 1 });
    expect(parseCell("$xfd$1048576")).toEqual({ row: 1_048_575, column: 16_383 });
    for (const bad of ["B4:C5", "A0", "4B", "", "Sheet1!A1"]) expect(() => parseCell(bad)).toThrow(/not a single cell/);
  });

  test("changed cells gather into rectangles: a column run, a block, a lone cell", () => {
    const cells = ["C4", "C5", "C6", "D4", "D5", "D6", "F9", "C4", "E5"].map(parseCell);
    expect(rectanglesOf(cells).map(rectAddress)).toEqual(["C4:D6", "E5", "F9"]);
    expect(rectanglesOf([])).toEqual([]);
    // Same rows, columns not next to each other: two rectangles.
    expect(rectanglesOf(["A1", "C1"].map(parseCell)).map(rectAddress)).toEqual(["A1", "C1"]);
  });

  test("spill probes: corners first, then the top row, never more than the limit", () => {
    expect(probeCells({ row: 0, column: 0, rows: 1, columns: 1 })).toEqual([{ row: 0, column: 0 }]);
    expect(probeCells({ row: 2, column: 1, rows: 3, columns: 3 })).toEqual([
      { row: 2, column: 1 },
      { row: 2, column: 3 },
      { row: 4, column: 1 },
      { row: 4, column: 3 },
      { row: 2, column: 2 },
    ]);
    expect(probeCells({ row: 0, column: 0, rows: 5, columns: 500 }, 32)).toHaveLength(32);
  });
});

describe("cell rules", () => {
  test("every text is written with Excel's text prefix, so none becomes a formula, date, number or boolean", () => {
    expect(["=1+1", "+A1", "-2", "@x", "\tcmd"].map(writableValue)).toEqual(["'=1+1", "'+A1", "'-2", "'@x", "'\tcmd"]);
    // Every text, so none changes type: dates, leading zeros, booleans, and Excel's own prefix.
    expect(["2026-07-21", "02134", "TRUE", "'70s", "Plain"].map(writableValue)).toEqual([
      "'2026-07-21",
      "'02134",
      "'TRUE",
      "''70s",
      "'Plain",
    ]);
    expect([null, "", 5, true].map(writableValue)).toEqual(["", "", 5, true]);
  });

  test("frozen values keep their type: all text prefixed, errors and numbers as they are", () => {
    expect(frozenValue("2024-05-01", "String")).toBe("'2024-05-01");
    expect(frozenValue("=PROP.X()", "String")).toBe("'=PROP.X()");
    expect(frozenValue("#N/A", "Error")).toBe("#N/A");
    expect(frozenValue(1.5, "Double")).toBe(1.5);
    expect(frozenValue("", "Empty")).toBe("");
  });

  test("PROP calls are found anywhere in a formula, but not in text or longer names", () => {
    expect(callsPropFunction('=PROP.SEARCH("warehouse","TX")')).toBe(true);
    expect(callsPropFunction('=SUM(prop.market(A1,B1,"rent"), 1)')).toBe(true);
    expect(callsPropFunction('=IFERROR(INDEX(PROP.COMPS(A2),2,3),"")')).toBe(true);
    expect(callsPropFunction('="see PROP.SEARCH"')).toBe(false);
    expect(callsPropFunction("=XPROP.SEARCH(1)")).toBe(false);
    expect(callsPropFunction("='PROP.data'!A1")).toBe(false);
    expect(callsPropFunction("PROP.SEARCH(1)")).toBe(false);
    expect(callsPropFunction(42)).toBe(false);
  });

  test("sheet names follow Excel's rules and do not clash", () => {
    expect(uniqueSheetName("Compare: A/B [draft]?", [])).toBe("Compare A B draft");
    expect(uniqueSheetName("Comparison", ["comparison"])).toBe("Comparison (2)");
    const long = "Comparison of twelve industrial properties in Austin";
    expect(uniqueSheetName(long, [])).toHaveLength(31);
    expect(uniqueSheetName(long, [long.slice(0, 31)])).toMatch(/^.{27} \(2\)$/);
    expect(uniqueSheetName("''", [])).toBe("Comparison");
    expect(uniqueSheetName("history", [])).toBe("history 1");
  });

  test("table names are letters, digits and underscores, start with a letter, and are unique", () => {
    expect(uniqueTableName("Search results: warehouse, TX", [])).toBe("Search_results_warehouse_TX");
    expect(uniqueTableName("2024 comps", [])).toBe("T_2024_comps");
    expect(uniqueTableName("A1", [])).toBe("A1_");
    expect(uniqueTableName("R1C1", [])).toBe("R1C1_");
    expect(uniqueTableName("Comps", ["COMPS", "Comps_2"])).toBe("Comps_3");
    expect(uniqueTableName("!!!", [])).toBe("Table");
  });

  test("number formats: years as typed, large numbers grouped, fractions with decimals; a formatted number keeps its own", () => {
    expect([1998, 1_250_000, 0.065, "text", null].map(numberFormatFor)).toEqual(["0", "#,##0", "#,##0.0##", "General", "General"]);
    expect(numberFormatFor({ type: "Double", basicValue: 0.065, numberFormat: "0.00%" })).toBe("0.00%");
  });

  test("a formatted number is written as its number, with its format on the cell; everything else in General", () => {
    const date = { type: "Double" as const, basicValue: 46096, numberFormat: "yyyy-mm-dd" };
    const rate = { type: "Double" as const, basicValue: 0.0625, numberFormat: "0.00%" };
    expect([date, rate].map(writableValue)).toEqual([46096, 0.0625]);
    expect([date, rate].map(writableFormat)).toEqual(["yyyy-mm-dd", "0.00%"]);
    // A cell the formula spills a plain value into has Excel's default format.
    expect([1998, "2026-03-15", true, null].map(writableFormat)).toEqual(["General", "General", "General", "General"]);
  });

  test("grids are padded to a rectangle; an empty one is refused", () => {
    expect(rectangular([["a", "b"], ["c"]])).toEqual([
      ["a", "b"],
      ["c", null],
    ]);
    expect(() => rectangular([])).toThrow(/nothing to write/);
  });
});
