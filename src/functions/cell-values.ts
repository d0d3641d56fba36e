// What one value of the service's answer becomes in a cell, so formulas can compute with it.
//
// - Dates become Excel dates (serial numbers). Where the host supports formatted number values
//   for custom functions (CustomFunctionsRuntime 1.4), the number carries the format
//   "yyyy-mm-dd", so the cell shows a date with no formatting by the user; elsewhere it is the
//   plain serial number (format the cells as dates). `dates=text` keeps YYYY-MM-DD text.
// - Rates and shares (fractions: 0.065 is 6.5%) stay the fraction, formatted "0.00%" where
//   the host supports it; `rates=fraction` drops the format.
// - A missing value is empty text. Excel turns null in a custom function's result into 0 (by
//   design: office-js issue 1503), which COUNT would count and AVERAGE and MIN would use as a
//   real zero; empty text is skipped by SUM, COUNT, AVERAGE, MIN, MAX and MEDIAN over a range,
//   and `=B2=""` tells it. No value a formula returns makes ISBLANK true: ISBLANK is true only
//   for a cell with no formula at all.
import type { LocalOption, OptionValue } from "./option-specs";

/** A number with a number format (Excel's DoubleCellValue): custom functions may return one where the host supports it. */
export interface FormattedNumber {
  type: "Double";
  basicValue: number;
  numberFormat: string;
}

/**
 * A value the snapshot does not hold, where `missing=na` asks for it as #N/A rather than empty
 * text: Excel's charts draw empty text as 0 and #N/A as a gap. withExcelErrors turns it into
 * the #N/A error at the edge; nothing else writes it into a cell.
 */
export interface MissingValue {
  type: "Missing";
}
export const MISSING: MissingValue = { type: "Missing" };

export function isMissing(cell: unknown): cell is MissingValue {
  return typeof cell === "object" && cell !== null && (cell as { type?: unknown }).type === "Missing";
}

export type Cell = string | number | boolean | FormattedNumber | MissingValue;

/** How a field's values are meant: a date, a moment, or a fraction read as a percentage. */
export type ValueFormat = "date" | "datetime" | "fraction";

export interface ValueForms {
  dates: "date" | "serial" | "text";
  rates: "percent" | "fraction";
  /** What a value the snapshot does not hold is: empty text, or #N/A (a gap in a chart). */
  missing: "blank" | "na";
  /** Whether the host shows formatted number values (else plain numbers). */
  formatted: boolean;
}

export const DATES_OPTION: LocalOption = {
  name: "dates",
  kind: "choice",
  values: ["date", "serial", "text"],
  help: "date (default): Excel dates; serial: plain date numbers; text: YYYY-MM-DD text.",
};
export const RATES_OPTION: LocalOption = {
  name: "rates",
  kind: "choice",
  values: ["percent", "fraction"],
  help: "percent (default): rates shown as percentages (the value stays the fraction, 0.065); fraction: plain numbers.",
};
export const MISSING_OPTION: LocalOption = {
  name: "missing",
  kind: "choice",
  values: ["blank", "na"],
  help: "blank (default): a value the snapshot does not hold is empty text; na: #N/A, which a chart shows as a gap rather than 0 (AVERAGE over it then needs AGGREGATE or AVERAGEIF).",
};
/** The options of how values come out, for every function that returns records. */
export const VALUE_OPTIONS = [DATES_OPTION, RATES_OPTION, MISSING_OPTION];

export const DATE_FORMAT = "yyyy-mm-dd";
export const DATETIME_FORMAT = "yyyy-mm-dd hh:mm";
export const PERCENT_FORMAT = "0.00%";

/**
 * Whether the host shows formatted number values from custom functions: Excel with
 * CustomFunctionsRuntime 1.4 (and the metadata's allowCustomDataForDataTypeAny). Asked per
 * call: a host that cannot answer (no Office, or Office not ready yet) gets plain numbers.
 */
export function formattedNumbersSupported(): boolean {
  try {
    const office = (globalThis as { Office?: typeof Office }).Office;
    return office?.context?.requirements?.isSetSupported("CustomFunctionsRuntime", "1.4") === true;
  } catch {
    return false;
  }
}

export function valueForms(options: Map<string, OptionValue>, formatted: boolean = formattedNumbersSupported()): ValueForms {
  return {
    dates: (options.get("dates") as ValueForms["dates"] | undefined) ?? "date",
    rates: (options.get("rates") as ValueForms["rates"] | undefined) ?? "percent",
    missing: (options.get("missing") as ValueForms["missing"] | undefined) ?? "blank",
    formatted,
  };
}

/** Days from Excel's day zero (1899-12-30) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET = 25_569;

/** A YYYY-MM-DD date, or an ISO date-time (UTC), as the serial number Excel stores it as. */
export function toExcelSerial(iso: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? Date.parse(`${iso}T00:00:00Z`) : Date.parse(iso);
  return ms / 86_400_000 + EXCEL_EPOCH_OFFSET;
}

/** A serial number as a YYYY-MM-DD date (the whole days of it). */
export function fromExcelSerial(serial: number): string {
  return new Date((Math.floor(serial) - EXCEL_EPOCH_OFFSET) * 86_400_000).toISOString().slice(0, 10);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function number(value: number, format: string, forms: ValueForms): Cell {
  return forms.formatted ? { type: "Double", basicValue: value, numberFormat: format } : value;
}

/** One value as its cell holds it (see the top of this file). */
export function toCell(value: unknown, format: ValueFormat | undefined, forms: ValueForms): Cell {
  if (value === null || value === undefined) return forms.missing === "na" ? MISSING : "";
  if (typeof value === "number") return format === "fraction" && forms.rates === "percent" ? number(value, PERCENT_FORMAT, forms) : value;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const dated = (format === "date" && ISO_DATE.test(value)) || (format === "datetime" && ISO_DATETIME.test(value));
    if (!dated || forms.dates === "text") return value;
    const serial = toExcelSerial(value);
    if (Number.isNaN(serial)) return value;
    return forms.dates === "serial" ? serial : number(serial, format === "date" ? DATE_FORMAT : DATETIME_FORMAT, forms);
  }
  if (Array.isArray(value)) return value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))).join(", ");
  return JSON.stringify(value);
}
