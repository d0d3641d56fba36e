// Turns what the service returns into values the pane can write into cells. Everything the
// pane writes goes through here, because Excel interprets what it is given: a string that
// starts with "=" becomes a formula, so a property or owner name from the data must never be
// able to run as one (DESIGN.md section 4).
import type { CellValue } from "./workbook-types";

/** Excel refuses cell text longer than this; writing more fails the whole batch. */
export const MAX_CELL_TEXT = 32_767;

/**
 * First characters that make Excel (or a CSV reader after a Save As) read text as something
 * else. "=", "+", "-" and "@" start a formula or a command, tab and carriage return are the
 * other starts OWASP's CSV-injection guidance lists, and a leading apostrophe is Excel's own
 * "this is text" prefix, which it swallows: "'70s" would show as "70s".
 */
const FORMULA_STARTS = new Set(["=", "+", "-", "@", "\t", "\r"]);

/** Digits with a leading zero (ZIP "02134", county FIPS "01001"): Excel would store a number and drop the zero. */
const LEADING_ZERO_NUMBER = /^0\d+$/;

/**
 * `text` as Excel should store it: prefixed with an apostrophe when Excel would otherwise read
 * it as a formula or a command, strip its own leading apostrophe, or turn it into a number
 * that loses its leading zeros. Excel keeps the apostrophe out of the cell's value, so the
 * cell then holds exactly `text`.
 */
export function protectText(text: string): string {
  if (text.length === 0) return text;
  if (FORMULA_STARTS.has(text[0]) || text[0] === "'" || LEADING_ZERO_NUMBER.test(text)) return `'${text}`;
  return text;
}

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
  const safe = protectText(text);
  return safe.length > MAX_CELL_TEXT ? `${safe.slice(0, MAX_CELL_TEXT - 1)}…` : safe;
}
