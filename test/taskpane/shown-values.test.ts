// How a cell is shown, read back from the workbook, and how a change of it reads.
import { changeText, formatKind, formatted, shownCell, shownFormat } from "../../src/taskpane/shown-values";

test("the shown format is the value's own (a PROP date or rate), else the cell's", () => {
  expect(shownFormat("General", { type: "FormattedNumber", basicValue: 0.0548, numberFormat: "0.00%" })).toBe("0.00%");
  expect(shownFormat("General", { type: "Double", basicValue: 46419, numberFormat: "yyyy-mm-dd" })).toBe("yyyy-mm-dd");
  expect(shownFormat("#,##0", { type: "Double", basicValue: 1200 })).toBe("#,##0");
  expect(shownFormat("#,##0", undefined)).toBe("#,##0");
  expect(shownFormat(undefined, undefined)).toBe("General");
});

test("what kind a number format is", () => {
  expect(formatKind("0.00%")).toBe("percent");
  expect(formatKind("yyyy-mm-dd")).toBe("date");
  expect(formatKind("d-mmm-yy")).toBe("date");
  expect(formatKind("yyyy-mm-dd hh:mm")).toBe("date");
  expect(formatKind("General")).toBe("number");
  expect(formatKind("#,##0")).toBe("number");
  expect(formatKind('$#,##0" sq ft"')).toBe("number");
  expect(formatKind('0" days"')).toBe("number");
});

test("changes: basis points for a percentage, per cent for an amount, days for a date; none for text or from zero", () => {
  const cell = (value: number | string, format = "General") => ({ value, format, text: String(value) });
  expect(changeText(cell(0.0629, "0.00%"), cell(0.0784, "0.00%"))).toBe("+155 bps");
  expect(changeText(cell(0.0784, "0.00%"), cell(0.0629, "0.00%"))).toBe("-155 bps");
  expect(changeText(cell(0.05, "0.00%"), cell(0.050004, "0.00%"))).toBe("+0.04 bps");
  expect(changeText(cell(1_200_000, "#,##0"), cell(1_260_000, "#,##0"))).toBe("+5.0%");
  expect(changeText(cell(-200), cell(-100))).toBe("+50.0%");
  expect(changeText(cell(46419, "yyyy-mm-dd"), cell(46447, "yyyy-mm-dd"))).toBe("+28 days");
  expect(changeText(cell(46419, "yyyy-mm-dd"), cell(46418, "yyyy-mm-dd"))).toBe("-1 day");
  expect(changeText(cell(0), cell(5))).toBe("");
  expect(changeText(cell("Alpha"), cell("Beta"))).toBe("");
  expect(changeText(cell(12), cell("#N/A"))).toBe("");
});

test("Excel's text is what the cell shows; a number too wide for its column (####) is written out in its format", () => {
  expect(shownCell(0.0784, "0.00%", "7.84%")).toEqual({ value: 0.0784, format: "0.00%", text: "7.84%" });
  expect(shownCell(0.0784, "0.00%", "#####").text).toBe("7.84%");
  expect(shownCell(46447, "yyyy-mm-dd", "####").text).toBe("2027-03-01");
  expect(shownCell(null, "General", "").text).toBe("");
  expect(formatted(1234567.891, "#,##0")).toBe("1,234,568");
  expect(formatted(1234567.891, "$#,##0.00")).toBe("$1,234,567.89");
  expect(formatted(46447.5, "yyyy-mm-dd hh:mm")).toBe("2027-03-01 12:00");
  expect(formatted(0.1 + 0.2, "General")).toBe("0.3");
  expect(formatted(true, "General")).toBe("TRUE");
});
