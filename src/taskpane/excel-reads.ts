// Reads inside an Excel.run batch, for excel-workbook.ts (the only module that starts one):
// rows of a block as the selection covers them, the spill a selection is in, and the PROP
// formulas of a block, read a chunk at a time.
import { type Rect, intersect, probeCells, rectOf, selectedRowsOf, sheetPrefix, cellAddress, GEOMETRY } from "./excel-addresses";
import { callsPropFunction, readValue } from "./excel-cell-rules";
import { shownCell, shownFormat, type ShownCell } from "./shown-values";
import type { CellValue, FormulaCell } from "./workbook-types";

/** Most rows "Compare" reads from one selection; a whole-column selection is cut to the used range first. */
export const MAX_SELECTED_ROWS = 5_000;
/** Formulas are read this many cells per round trip, so a large used range never travels in one answer. */
export const FORMULA_CHUNK_CELLS = 50_000;

/** The rows of `block` (whole width) that `selected` covers, past the first `skip` rows. */
export async function readRows(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  block: Rect,
  selected: Rect,
  skip: number,
): Promise<CellValue[][]> {
  const { row, count } = selectedRowsOf(block, selected, skip);
  if (count === 0) return [];
  if (count > MAX_SELECTED_ROWS) {
    throw new Error(
      `The selection covers ${count.toLocaleString("en-US")} rows; select at most ${MAX_SELECTED_ROWS.toLocaleString("en-US")}.`,
    );
  }
  const range = sheet.getRangeByIndexes(row, block.column, count, block.columns).load("values");
  await context.sync();
  return range.values.map((cells) => cells.map(readValue));
}

/** Most cells "Match" and "Link" read from the block around the selection. */
export const MAX_BLOCK_CELLS = 200_000;

/** A block's values and whether each cell holds a formula, read a chunk of rows per round trip. */
export async function readBlockCells(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  block: Rect,
): Promise<{ values: CellValue[][]; formulas: boolean[][] }> {
  if (block.rows * block.columns > MAX_BLOCK_CELLS) {
    throw new Error(
      `The cells around the selection are ${block.rows.toLocaleString("en-US")} rows by ${block.columns} columns; work on at most ${MAX_BLOCK_CELLS.toLocaleString("en-US")} cells at a time.`,
    );
  }
  const values: CellValue[][] = [];
  const formulas: boolean[][] = [];
  const rowsPerChunk = Math.max(1, Math.floor(FORMULA_CHUNK_CELLS / block.columns));
  for (let row = block.row; row < block.row + block.rows; row += rowsPerChunk) {
    const count = Math.min(rowsPerChunk, block.row + block.rows - row);
    const chunk = sheet.getRangeByIndexes(row, block.column, count, block.columns).load("formulas,values");
    await context.sync();
    chunk.values.forEach((cells, i) => {
      values.push(cells.map(readValue));
      // As in formulasIn: a formula starts with "=" and differs from the value it shows.
      formulas.push(cells.map((value, j) => chunk.formulas[i][j] !== value && String(chunk.formulas[i][j]).startsWith("=")));
    });
  }
  return { values, formulas };
}

export interface SpillFound {
  address: string;
  formula: string;
  rect: Rect;
}

/** The spill a cell of `rect` belongs to, followed back to its formula; null when none does. */
export async function findSpill(context: Excel.RequestContext, sheet: Excel.Worksheet, rect: Rect): Promise<SpillFound | null> {
  // getSpillParent answers for a single cell only (a null object for a larger range).
  const parents = probeCells(rect).map(({ row, column }) =>
    sheet.getCell(row, column).getSpillParentOrNullObject().load("address,formulas"),
  );
  await context.sync();
  const parent = parents.find((candidate) => !candidate.isNullObject);
  if (!parent) return null;
  const spill = parent.getSpillingToRangeOrNullObject().load(GEOMETRY);
  await context.sync();
  if (spill.isNullObject) return null;
  return { address: parent.address, formula: String(parent.formulas[0][0]), rect: rectOf(spill) };
}

/**
 * PROP formulas in the selection, and the formula of the spill the selection starts in, so
 * that selecting any cell of a spilled result acts on the formula that made it.
 */
export async function selectionFormulas(context: Excel.RequestContext): Promise<FormulaCell[]> {
  const selection = context.workbook.getSelectedRange().load(GEOMETRY);
  const sheet = selection.worksheet;
  const used = sheet.getUsedRangeOrNullObject().load(GEOMETRY);
  const parent = selection.getCell(0, 0).getSpillParentOrNullObject().load("address,formulas");
  await context.sync();
  const clipped = used.isNullObject ? null : intersect(rectOf(selection), rectOf(used));
  const found = clipped ? await formulasIn(context, sheet, clipped, sheetPrefix(selection.address)) : [];
  if (!parent.isNullObject && callsPropFunction(parent.formulas[0][0]) && !found.some((cell) => cell.address === parent.address)) {
    found.unshift({ address: parent.address, formula: String(parent.formulas[0][0]) });
  }
  return found;
}

/**
 * The PROP formulas in `rect`, read a chunk of rows per round trip. A cell holds a formula
 * when its formula starts with "=" and differs from its value: Range.formulas gives text
 * typed as '=PROP.X (and a spilled value) as the text itself, so "=" alone would mistake them.
 */
export async function formulasIn(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  rect: Rect,
  prefix: string,
): Promise<FormulaCell[]> {
  const found: FormulaCell[] = [];
  const rowsPerChunk = Math.max(1, Math.floor(FORMULA_CHUNK_CELLS / rect.columns));
  for (let row = rect.row; row < rect.row + rect.rows; row += rowsPerChunk) {
    const count = Math.min(rowsPerChunk, rect.row + rect.rows - row);
    const chunk = sheet.getRangeByIndexes(row, rect.column, count, rect.columns).load("formulas,values");
    await context.sync();
    chunk.formulas.forEach((cells, i) =>
      cells.forEach((formula, j) => {
        if (formula !== chunk.values[i][j] && callsPropFunction(formula)) {
          found.push({ address: prefix + cellAddress(row + i, rect.column + j), formula });
        }
      }),
    );
  }
  return found;
}

/**
 * Whether Range.valuesAsJson (ExcelApi 1.16) can be read: it alone gives the number format a
 * PROP function put on a value (a date, a rate), which Range.numberFormat, the cell's own
 * format, does not hold. An Excel without it shows formatted values from no function either.
 */
export function valuesAsJsonReadable(): boolean {
  try {
    const office = (globalThis as { Office?: typeof Office }).Office;
    return office?.context?.requirements?.isSetSupported("ExcelApi", "1.16") === true;
  } catch {
    return false;
  }
}

/** What to load of a range to know how each cell is shown: with `text`, also the shown text. */
export function shownProperties(text: boolean): string {
  return ["values", "valueTypes", "numberFormat", ...(text ? ["text"] : []), ...(valuesAsJsonReadable() ? ["valuesAsJson"] : [])].join(",");
}

/** The number format each cell of a range loaded with shownProperties() is shown in. */
export function shownFormats(range: Excel.Range): string[][] {
  const json = valuesAsJsonReadable() ? (range.valuesAsJson as unknown[][]) : null;
  return range.numberFormat.map((row, i) => row.map((format, j) => shownFormat(format, json?.[i]?.[j])));
}

/** Each cell of a range loaded with shownProperties(true), as shown; copied, as a later sync reloads the range. */
export function shownCells(range: Excel.Range): ShownCell[][] {
  const formats = shownFormats(range);
  return range.values.map((row, i) => row.map((value, j) => shownCell(value, formats[i][j], range.text[i]?.[j])));
}
