// Excel's rules for what goes into cells and names, as plain functions for excel-workbook.ts:
// which text is safe to write, how a frozen value is written back, which formulas call a PROP
// function, and the names Excel accepts for sheets and tables.
import type { CellInput, CellValue } from "./workbook-types";

/**
 * A value as it must be given to Range.values so that text stays exactly that text. Range.values
 * takes what it is given the way Excel takes typing: "=…", "+…", "-…" and "@…" become formulas
 * (the API reference says so of Range.values), "2026-07-21" a date, "02134" the number 2134,
 * "TRUE" a boolean, and a leading apostrophe vanishes. Listing what Excel reinterprets is a
 * losing game ("1/2", "Jan 5", "3:00", "1e5", "50%"), so every text gets Excel's text prefix, a
 * leading apostrophe, which Excel keeps out of the cell's value. The cell then holds the same
 * text the equivalent PROP formula would spill. The pane hands over the data's text unescaped
 * (cell-text.ts): escaping is this edge's job alone, so nothing is escaped twice.
 *
 * Why not the "@" (Text) number format instead: it only works if set before the value, it
 * makes every later entry in the cell text too (a user's own =SUM typed into the table would
 * not calculate), and it does not travel with a copied value; the apostrophe is per value.
 */
export function writableValue(value: CellValue): string | number | boolean {
  if (value === null) return "";
  if (typeof value === "string") return value === "" ? "" : `'${value}`;
  if (typeof value === "object") return value.basicValue;
  return value;
}

/** A cell as Range.formulas takes it: a formula as it is, a value as writableValue gives it. */
export function cellInput(cell: CellInput): string | number | boolean {
  return cell !== null && typeof cell === "object" && "formula" in cell ? cell.formula : writableValue(cell);
}

/**
 * Whether the first row of a block reads as its header: some text, and nothing else, none of it
 * starting with a digit (an address, a ZIP code or a year starts the data instead).
 */
export function isHeaderRow(row: CellValue[]): boolean {
  const filled = row.filter((cell) => cell !== null);
  return filled.length > 0 && filled.every((cell) => typeof cell === "string" && !/^\s*\d/.test(cell));
}

/**
 * The number format a value is written with: a formatted number's own ("yyyy-mm-dd",
 * "0.00%"), so the cell shows a date or a percentage as the PROP formula's spill does;
 * "General" for everything else, as a cell the formula spills into has.
 */
export function writableFormat(value: CellValue): string {
  return typeof value === "object" && value !== null ? value.numberFormat : "General";
}

/**
 * A value read from a cell (with its Range.valueTypes entry) as it must be written back to show
 * exactly the same. Every text gets the apostrophe, not only formula-like text: Excel also
 * turns "2024-05-01" into a date and "007" into 7, and a frozen value must not change type.
 * An error ("#N/A") is written as its text, which Excel stores as the same error.
 */
export function frozenValue(value: unknown, valueType: string): string | number | boolean {
  if (valueType === "Empty" || value === "" || value === null || value === undefined) return "";
  if (valueType === "String") return `'${String(value)}`;
  if (typeof value === "number" || typeof value === "boolean") return value;
  return String(value);
}

/** A value Excel returned, as the pane's CellValue: an empty cell ("") is null. */
export function readValue(value: unknown): CellValue {
  if (value === "" || value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return value;
  return String(value);
}

/** True when Range.formulas says no cell holds anything (an empty cell's formula is ""). */
export function allEmpty(formulas: unknown[][]): boolean {
  return formulas.every((row) => row.every((cell) => cell === "" || cell === null || cell === undefined));
}

/** `rows` as a rectangle (short rows padded with null); throws on an empty grid. */
export function rectangular(rows: CellValue[][]): CellValue[][] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (rows.length === 0 || width === 0) throw new Error("There is nothing to write: the result has no rows.");
  return rows.map((row) => Array.from({ length: width }, (_, i) => (i < row.length ? row[i] : null)));
}

/**
 * The number format of one cell of the comparison sheet. Years and other small whole numbers
 * stay as typed (1998, not 1,998); large whole numbers (prices, square feet) get thousands
 * separators; fractions (cap rates, ratios) show up to three decimals. Text stays "General".
 */
export function numberFormatFor(value: CellValue): string {
  if (typeof value === "object" && value !== null) return value.numberFormat;
  if (typeof value !== "number") return "General";
  if (Number.isInteger(value)) return Math.abs(value) >= 10_000 ? "#,##0" : "0";
  return "#,##0.0##";
}

/**
 * True when `formula` calls a PROP function: "PROP." (any case) as a name, not inside a string
 * literal ("...") or a quoted sheet name ('...'), and not the end of a longer name (XPROP.).
 */
export function callsPropFunction(formula: unknown): boolean {
  if (typeof formula !== "string" || !formula.startsWith("=")) return false;
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""').replace(/'(?:[^']|'')*'/g, "''");
  return /(^|[^A-Za-z0-9_.\\])PROP\.[A-Za-z_]/i.test(code);
}

/** Characters Excel refuses in a sheet name. */
const SHEET_NAME_FORBIDDEN = /[[\]:*?/\\]/g;
const SHEET_NAME_MAX = 31;

/**
 * A sheet name from `title` that Excel accepts and no sheet in `taken` has (Excel compares
 * names without case): at most 31 characters, none of [ ] : * ? / \, not starting or ending
 * with an apostrophe, not "History" (reserved). A clash gets " (2)", " (3)", ….
 */
export function uniqueSheetName(title: string, taken: string[]): string {
  let base = title
    .replace(SHEET_NAME_FORBIDDEN, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^'+|'+$/g, "")
    .trim();
  if (!base || base.toLowerCase() === "history") base = base ? `${base} 1` : "Comparison";
  const used = new Set(taken.map((name) => name.toLowerCase()));
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : ` (${n})`;
    const name = `${base.slice(0, SHEET_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
    if (!used.has(name.toLowerCase())) return name;
  }
}

const TABLE_NAME_MAX = 200;

/**
 * A table name from `wanted` that Excel accepts and no table or defined name in `taken` has
 * (names are compared without case): letters, digits and underscores, starting with a
 * letter, not "R"/"C" and not something that reads as a cell address (A1, R1C1). A clash
 * gets "_2", "_3", ….
 */
export function uniqueTableName(wanted: string, taken: string[]): string {
  let base = wanted
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!base) base = "Table";
  if (!/^[A-Za-z]/.test(base)) base = `T_${base}`;
  if (/^[A-Za-z]{1,3}\d+$/.test(base) || /^R\d*C?\d*$/i.test(base) || /^C\d*$/i.test(base)) base = `${base}_`;
  base = base.slice(0, TABLE_NAME_MAX);
  const used = new Set(taken.map((name) => name.toLowerCase()));
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}_${n}`;
    if (!used.has(name.toLowerCase())) return name;
  }
}

/** A formula shortened for a message ("the spill of =PROP.SEARCH("ware…) at …"). */
export function shortFormula(formula: string, max = 40): string {
  return formula.length <= max ? formula : `${formula.slice(0, max - 1)}…`;
}
