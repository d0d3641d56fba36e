// Values Excel can compute with: dates as Excel dates and rates as percentages (formatted
// number values where the host supports them, plain numbers elsewhere), missing values as empty
// text, and the options that keep the older forms.
import {
  DATE_FORMAT,
  DATETIME_FORMAT,
  MISSING,
  PERCENT_FORMAT,
  formattedNumbersSupported,
  fromExcelSerial,
  toCell,
  toExcelSerial,
  valueForms,
} from "../../src/functions/cell-values";
import { parseOptions } from "../../src/functions/options";
import { VALUE_OPTIONS } from "../../src/functions/cell-values";

const forms = (text: string | null, formatted: boolean) => valueForms(parseOptions(text, VALUE_OPTIONS), formatted);

test("a date is an Excel date: formatted where the host can show it, the serial number elsewhere", () => {
  expect(toCell("2024-06-30", "date", forms(null, true))).toEqual({ type: "Double", basicValue: 45473, numberFormat: DATE_FORMAT });
  expect(toCell("2024-06-30", "date", forms(null, false))).toBe(45473);
  expect(toCell("2024-06-30", "date", forms("dates=serial", true))).toBe(45473);
  expect(toCell("2024-06-30", "date", forms("dates=text", true))).toBe("2024-06-30");
});

test("a moment keeps its time of day", () => {
  expect(toCell("2026-12-01T12:00:00Z", "datetime", forms(null, false))).toBe(toExcelSerial("2026-12-01") + 0.5);
  expect(toCell("2026-12-01T00:00:00Z", "datetime", forms(null, true))).toEqual({
    type: "Double",
    basicValue: 46357,
    numberFormat: DATETIME_FORMAT,
  });
});

test("a rate keeps its value (the fraction) and is shown as a percentage where the host can", () => {
  expect(toCell(0.065, "fraction", forms(null, true))).toEqual({ type: "Double", basicValue: 0.065, numberFormat: PERCENT_FORMAT });
  expect(toCell(0.065, "fraction", forms(null, false))).toBe(0.065);
  expect(toCell(0.065, "fraction", forms("rates=fraction", true))).toBe(0.065);
  expect(toCell(0.065, undefined, forms(null, true))).toBe(0.065);
});

test("missing values are empty text (null would become 0, which COUNT and AVERAGE would use); others as they are", () => {
  expect(toCell(null, "fraction", forms(null, true))).toBe("");
  expect(toCell(undefined, "date", forms(null, true))).toBe("");
  expect(toCell(0, undefined, forms(null, true))).toBe(0);
  expect(toCell(false, undefined, forms(null, true))).toBe(false);
  expect(toCell(["a", "b"], undefined, forms(null, true))).toBe("a, b");
  expect(toCell({ a: 1 }, undefined, forms(null, true))).toBe('{"a":1}');
  // Text that only looks like a date stays text unless the field is a date.
  expect(toCell("2024-06-30", undefined, forms(null, true))).toBe("2024-06-30");
});

test("serial numbers and dates convert both ways", () => {
  expect(toExcelSerial("1970-01-01")).toBe(25569);
  expect(fromExcelSerial(45473)).toBe("2024-06-30");
  expect(fromExcelSerial(45473.75)).toBe("2024-06-30");
});

test("formatted numbers are used only where Office says the host supports CustomFunctionsRuntime 1.4", () => {
  const g = globalThis as { Office?: unknown };
  expect(formattedNumbersSupported()).toBe(false);
  try {
    g.Office = {
      context: { requirements: { isSetSupported: (set: string, v: string) => set === "CustomFunctionsRuntime" && v === "1.4" } },
    };
    expect(formattedNumbersSupported()).toBe(true);
    g.Office = { context: { requirements: { isSetSupported: () => false } } };
    expect(formattedNumbersSupported()).toBe(false);
    g.Office = { context: undefined };
    expect(formattedNumbersSupported()).toBe(false);
  } finally {
    delete g.Office;
  }
});

test("the options are checked: dates and rates take their listed values only", () => {
  expect(() => forms("dates=iso", true)).toThrow(/dates must be one of date, serial, text/);
  expect(() => forms("rates=pct", true)).toThrow(/rates must be one of percent, fraction/);
});

test("missing=na makes a value the snapshot does not hold #N/A (a gap in a chart) instead of empty text; nothing else changes", () => {
  expect(toCell(null, undefined, forms("missing=na", true))).toEqual(MISSING);
  expect(toCell(undefined, "fraction", forms("missing=na", true))).toEqual(MISSING);
  expect(toCell(null, undefined, forms("missing=blank", true))).toBe("");
  expect(toCell(0, undefined, forms("missing=na", true))).toBe(0);
  expect(toCell("", undefined, forms("missing=na", true))).toBe("");
  expect(() => forms("missing=nah", true)).toThrow(/missing must be one of blank, na/);
});
