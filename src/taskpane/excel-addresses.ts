// A1 addresses and rectangles of cells, as plain functions: excel-workbook.ts asks Excel for
// row and column indexes and works out which rows to read here, without a round trip.

/** A block of cells by zero-based indexes, as Excel.Range's rowIndex/columnIndex/rowCount/columnCount. */
export interface Rect {
  row: number;
  column: number;
  rows: number;
  columns: number;
}

/** The geometry a loaded Excel.Range (or anything shaped like one) reports. */
export interface RangeGeometry {
  rowIndex: number;
  columnIndex: number;
  rowCount: number;
  columnCount: number;
}

/** What to load on a range to call rectOf on it. */
export const GEOMETRY = "address,rowIndex,columnIndex,rowCount,columnCount";

export function rectOf(range: RangeGeometry): Rect {
  return { row: range.rowIndex, column: range.columnIndex, rows: range.rowCount, columns: range.columnCount };
}

/** The cells both rectangles cover, or null when they do not meet. */
export function intersect(a: Rect, b: Rect): Rect | null {
  const row = Math.max(a.row, b.row);
  const column = Math.max(a.column, b.column);
  const rowEnd = Math.min(a.row + a.rows, b.row + b.rows);
  const columnEnd = Math.min(a.column + a.columns, b.column + b.columns);
  if (rowEnd <= row || columnEnd <= column) return null;
  return { row, column, rows: rowEnd - row, columns: columnEnd - column };
}

/**
 * The rows of `block` that `selected` covers, skipping the block's first `skip` rows (its
 * header): the first row index and how many. Columns do not matter: a selection of one cell
 * in a row stands for the whole row of the table or spill.
 */
export function selectedRowsOf(block: Rect, selected: Rect, skip: number): { row: number; count: number } {
  const from = Math.max(block.row + skip, selected.row);
  const to = Math.min(block.row + block.rows, selected.row + selected.rows);
  return { row: from, count: Math.max(0, to - from) };
}

/** "A" for 0, "Z" for 25, "AA" for 26, up to "XFD" for Excel's last column. */
export function columnLetters(column: number): string {
  let letters = "";
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** "B4" for row 3, column 1 (zero-based). */
export function cellAddress(row: number, column: number): string {
  return `${columnLetters(column)}${row + 1}`;
}

/** "B4:D6", or "B4" for a single cell. */
export function rectAddress(rect: Rect): string {
  const first = cellAddress(rect.row, rect.column);
  if (rect.rows === 1 && rect.columns === 1) return first;
  return `${first}:${cellAddress(rect.row + rect.rows - 1, rect.column + rect.columns - 1)}`;
}

/**
 * The sheet part of an address Excel gave ("'Rent roll'!C3:D4" → "'Rent roll'!"), quoted as
 * Excel quoted it; "" when there is none. Built from Excel's own addresses, so the quoting
 * rules (spaces, apostrophes, names that look like cells) are Excel's, not a copy of them.
 */
export function sheetPrefix(address: string): string {
  const bang = address.lastIndexOf("!");
  return bang < 0 ? "" : address.slice(0, bang + 1);
}

/** Splits "'Rent roll'!C3" into the sheet's name ("Rent roll") and the cells ("C3"). */
export function splitAddress(address: string): { sheet: string; cells: string } {
  const bang = address.lastIndexOf("!");
  if (bang < 0) throw new Error(`"${address}" names no sheet; expected something like Sheet1!A1`);
  const quoted = address.slice(0, bang);
  const sheet = quoted.startsWith("'") && quoted.endsWith("'") ? quoted.slice(1, -1).replace(/''/g, "'") : quoted;
  return { sheet, cells: address.slice(bang + 1) };
}

/**
 * Cells of `rect` worth asking "are you in a spill?": Excel answers that one cell at a time,
 * so the four corners and the first row (up to `limit` cells in all) stand for the selection.
 * A selection that touches a spill almost always has a corner or a top cell in it.
 */
export function probeCells(rect: Rect, limit = 32): Array<{ row: number; column: number }> {
  const seen = new Set<string>();
  const cells: Array<{ row: number; column: number }> = [];
  const add = (row: number, column: number) => {
    const key = `${row},${column}`;
    if (cells.length >= limit || seen.has(key)) return;
    seen.add(key);
    cells.push({ row, column });
  };
  const lastRow = rect.row + rect.rows - 1;
  const lastColumn = rect.column + rect.columns - 1;
  add(rect.row, rect.column);
  add(rect.row, lastColumn);
  add(lastRow, rect.column);
  add(lastRow, lastColumn);
  for (let column = rect.column + 1; column < lastColumn; column++) add(rect.row, column);
  return cells;
}

/** "B4" (or "$B$4") as zero-based row 3, column 1; throws on anything else. */
export function parseCell(a1: string): { row: number; column: number } {
  const m = /^\$?([A-Z]{1,3})\$?([1-9][0-9]{0,6})$/i.exec(a1);
  if (!m) throw new Error(`"${a1}" is not a single cell such as B4`);
  let column = 0;
  for (const letter of m[1].toUpperCase()) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: Number(m[2]) - 1, column: column - 1 };
}

/**
 * The cells as few rectangles as a simple sweep finds: runs of rows down each column, then
 * runs of the same rows across neighbouring columns. A changed spill column becomes one
 * rectangle, a changed block one too; scattered cells stay single. Duplicates are ignored.
 */
export function rectanglesOf(cells: Array<{ row: number; column: number }>): Rect[] {
  const byColumn = new Map<number, number[]>();
  for (const { row, column } of cells) {
    const rows = byColumn.get(column) ?? [];
    rows.push(row);
    byColumn.set(column, rows);
  }
  const runs: Rect[] = [];
  for (const column of [...byColumn.keys()].sort((a, b) => a - b)) {
    const rows = [...new Set(byColumn.get(column))].sort((a, b) => a - b);
    for (let i = 0; i < rows.length;) {
      let j = i;
      while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
      runs.push({ row: rows[i], column, rows: j - i + 1, columns: 1 });
      i = j + 1;
    }
  }
  // Runs are in column order, so a run's right neighbour with the same rows is met after it.
  const open = new Map<string, Rect>();
  const merged: Rect[] = [];
  for (const run of runs) {
    const key = `${run.row},${run.rows}`;
    const left = open.get(key);
    if (left && left.column + left.columns === run.column) {
      left.columns++;
    } else {
      const rect = { ...run };
      open.set(key, rect);
      merged.push(rect);
    }
  }
  return merged;
}
