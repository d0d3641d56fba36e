// Turns what the service returns, or what the functions' shaping made of it, into the values
// the pane writes into cells: blanks for missing values, lists as one comma-separated text,
// text cut to what a cell holds, dates and rates kept as the formatted numbers the functions
// spill, rows made rectangular. Text stays exactly the data's text here; excel-workbook.ts
// (excel-cell-rules.ts) writes every text as text, so none of it can become a formula there,
// and a formatted number as its number with its format.
import type { CellValue, FormattedNumber } from "./workbook-types";

/** Excel refuses cell text longer than this; writing more fails the whole batch. */
export const MAX_CELL_TEXT = 32_767;

/** One value from the service as one cell. */
export function toCellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return cellText(value);
  if (isFormattedNumber(value)) return Number.isFinite(value.basicValue) ? value : "";
  // A list (reason codes, subtypes) reads best as one comma-separated cell, as the functions spill it.
  if (Array.isArray(value)) return cellText(value.map(itemText).join(", "));
  if (typeof value === "object") return cellText(JSON.stringify(value));
  return cellText(String(value));
}

/** Rows of values as a rectangle of cells: every row as wide as the widest, padded with "". */
export function toCellRows(rows: unknown[][]): CellValue[][] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  return rows.map((row) => Array.from({ length: width }, (_, i) => (i < row.length ? toCellValue(row[i]) : "")));
}

/** A number with its number format, as toCell (src/functions/cell-values.ts) makes dates and rates. */
export function isFormattedNumber(value: unknown): value is FormattedNumber {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Partial<FormattedNumber>;
  return v.type === "Double" && typeof v.basicValue === "number" && typeof v.numberFormat === "string";
}

function itemText(item: unknown): string {
  if (item === null || item === undefined) return "";
  if (typeof item === "string") return item;
  if (typeof item === "object") return JSON.stringify(item) ?? "";
  return String(item);
}

function cellText(text: string): string {
  return text.length > MAX_CELL_TEXT ? `${text.slice(0, MAX_CELL_TEXT - 1)}…` : text;
}
