// Addresses as Excel writes and reads them, for the stand-in Excel host: "Sheet1!A1:B2",
// "'Rent roll'!C3", whole columns "A:C" and whole rows "2:4". Formatting of single cells
// reuses the add-in's own helpers; parsing lives here because only the stand-in needs it.
import { cellAddress, columnLetters, type Rect } from "../../../src/taskpane/excel-addresses";

export type { Rect };
export { cellAddress, columnLetters };

/** Excel's grid: 1,048,576 rows by 16,384 columns (A..XFD). */
export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** A sheet name as Excel puts it in an address: quoted unless it is a plain identifier that cannot be read as a cell. */
export function quoteSheet(name: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) && !/^[RC]\d*$|^R\d*C\d*$/i.test(name);
  return plain ? name : `'${name.replace(/'/g, "''")}'`;
}

/** "A1:B2", or "A:C" / "2:4" for whole columns / rows, as Excel's Range.address writes them. */
export function formatRect(rect: Rect): string {
  const lastRow = rect.row + rect.rows - 1;
  const lastColumn = rect.column + rect.columns - 1;
  if (rect.row === 0 && rect.rows === MAX_ROWS) return `${columnLetters(rect.column)}:${columnLetters(lastColumn)}`;
  if (rect.column === 0 && rect.columns === MAX_COLUMNS) return `${rect.row + 1}:${lastRow + 1}`;
  const first = cellAddress(rect.row, rect.column);
  return rect.rows === 1 && rect.columns === 1 ? first : `${first}:${cellAddress(lastRow, lastColumn)}`;
}

export function formatAddress(sheet: string, rect: Rect): string {
  return `${quoteSheet(sheet)}!${formatRect(rect)}`;
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d+)$/;
const COLUMN = /^\$?([A-Za-z]{1,3})$/;
const ROW = /^\$?(\d+)$/;

/** Parses "B4", "B4:D6", "A:C", "2:4" (no sheet); throws on anything else. */
export function parseRect(text: string): Rect {
  const [from, to = from] = text.trim().split(":");
  const a = CELL.exec(from);
  const b = CELL.exec(to);
  if (a && b) {
    const r1 = Number(a[2]) - 1;
    const r2 = Number(b[2]) - 1;
    const c1 = columnIndex(a[1]);
    const c2 = columnIndex(b[1]);
    return checked({ row: Math.min(r1, r2), column: Math.min(c1, c2), rows: Math.abs(r2 - r1) + 1, columns: Math.abs(c2 - c1) + 1 }, text);
  }
  if (COLUMN.test(from) && COLUMN.test(to) && text.includes(":")) {
    const c1 = columnIndex(COLUMN.exec(from)![1]);
    const c2 = columnIndex(COLUMN.exec(to)![1]);
    return checked({ row: 0, column: Math.min(c1, c2), rows: MAX_ROWS, columns: Math.abs(c2 - c1) + 1 }, text);
  }
  if (ROW.test(from) && ROW.test(to) && text.includes(":")) {
    const r1 = Number(from.replace("$", "")) - 1;
    const r2 = Number(to.replace("$", "")) - 1;
    return checked({ row: Math.min(r1, r2), column: 0, rows: Math.abs(r2 - r1) + 1, columns: MAX_COLUMNS }, text);
  }
  throw new Error(`"${text}" is not an address`);
}

function checked(rect: Rect, text: string): Rect {
  if (rect.row < 0 || rect.column < 0 || rect.row + rect.rows > MAX_ROWS || rect.column + rect.columns > MAX_COLUMNS) {
    throw new Error(`"${text}" is outside the sheet`);
  }
  return rect;
}

/** Splits "'Rent roll'!C3" into sheet and cells; the sheet is null when the text names none. */
export function parseAddress(text: string): { sheet: string | null; rect: Rect } {
  const bang = text.lastIndexOf("!");
  if (bang < 0) return { sheet: null, rect: parseRect(text) };
  let sheet = text.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return { sheet, rect: parseRect(text.slice(bang + 1)) };
}

export function contains(rect: Rect, row: number, column: number): boolean {
  return row >= rect.row && row < rect.row + rect.rows && column >= rect.column && column < rect.column + rect.columns;
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.row < b.row + b.rows && b.row < a.row + a.rows && a.column < b.column + b.columns && b.column < a.column + a.columns;
}
