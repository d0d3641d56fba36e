// Turns what the service returns into the values the pane writes into cells: blanks for
// missing values, lists as one comma-separated text, text cut to what a cell holds, rows made
// rectangular. Text stays exactly the data's text here; excel-workbook.ts (writableValue in
// excel-cell-rules.ts) writes every text as text, so none of it can become a formula there.
import type { CellValue } from "./workbook-types";

/** Excel refuses cell text longer than this; writing more fails the whole batch. */
export const MAX_CELL_TEXT = 32_767;

/** One value from the service as one cell. */
export function toCellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? value : "";
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return cellText(value);
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

function itemText(item: unknown): string {
  if (item === null || item === undefined) return "";
  if (typeof item === "string") return item;
  if (typeof item === "object") return JSON.stringify(item) ?? "";
  return String(item);
}

function cellText(text: string): string {
  return text.length > MAX_CELL_TEXT ? `${text.slice(0, MAX_CELL_TEXT - 1)}…` : text;
}
