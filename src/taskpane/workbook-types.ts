// What the pane reads from and writes to the workbook. excel-workbook.ts implements
// WorkbookPort with Excel.run (the only module that does); the pane's panels take a
// WorkbookPort, so their logic never depends on Excel being there.
import type { FormattedNumber } from "../functions/cell-values";
import type { CellChange } from "./cell-changes";

export type { FormattedNumber };

/**
 * A value as the pane writes it into a cell, or reads it from one. Text is the data's own text:
 * the Excel edge writes it as text. A FormattedNumber (a date, a percentage, as the PROP
 * functions spill them) is written as its number with its number format on that cell; reads
 * never give one.
 */
export type CellValue = string | number | boolean | null | FormattedNumber;

/** A formula the pane writes into a cell ("=PROP.MATCH($A2)"), as opposed to a value. */
export interface FormulaInput {
  formula: string;
}

/** What the pane writes into one cell: a value (text stays text) or a formula. */
export type CellInput = CellValue | FormulaInput;

/** Where Refresh and Freeze act. */
export type Scope = "selection" | "sheet" | "workbook";

/** The selected rows of a table, spilled range or plain block of cells, read for "Compare". */
export interface SelectedRows {
  /** The selection, e.g. "Sheet1!B4:D6". */
  address: string;
  /**
   * The header row of what the selection is in (an Excel table's header row, the first row of
   * a spill, or the first row of the block around a plain range); null when there is none.
   */
  header: CellValue[] | null;
  /**
   * The selected rows, each as wide as the header (the whole row of the table or spill), so an
   * id column is found even when the user selected only the names. The header row itself is
   * left out when it is part of the selection.
   */
  rows: CellValue[][];
  /** What the rows were read from, for messages: 'table "Comps"', "the spill of =PROP.SEARCH(…) at Sheet1!A1", "Sheet1!A1:F20". */
  source: string;
}

/**
 * The block of cells the selection is in (the filled region around it, an Excel table's
 * header included), read whole with where it is, for "Match a column" and "Link a table".
 */
export interface SheetBlock {
  /** The sheet's name. */
  sheet: string;
  /** The selection, e.g. "Sheet1!B4:D6". */
  selection: string;
  /** Zero-based sheet row of the header row (null when there is none) and of the first data row. */
  headerRow: number | null;
  firstRow: number;
  /** Zero-based sheet column of the block's first column. */
  column: number;
  /** The header row: an Excel table's, or the block's first row when it reads as one (text without digits). */
  header: CellValue[] | null;
  /** Every data row, the block's whole width. */
  rows: CellValue[][];
  /** Whether each cell of `rows` holds a formula rather than a typed value. */
  formulas: boolean[][];
  /** The selected data rows (indexes into `rows`, consecutive) and columns (indexes into a row). */
  selectedRows: number[];
  selectedColumns: number[];
}

/** How readBlock reads the selection. */
export interface BlockReading {
  /**
   * Every row of a selection of more than one cell, to its last (a whole column: to the used
   * range's last row), blank rows included; without it, the selected rows of the filled region
   * around the first selected cell, which ends at a blank row.
   */
  wholeSelection?: boolean;
}

/** A typed value to replace by a formula, if the cell still holds it. */
export interface CellReplacement {
  /** Zero-based sheet row and column. */
  row: number;
  column: number;
  /** The value the pane read there; a cell that no longer holds it is left alone. */
  was: CellValue;
  formula: string;
}

/** A cell whose formula calls a PROP function. */
export interface FormulaCell {
  /** Full address with the sheet, e.g. "Sheet1!A1" or "'Rent roll'!C3". */
  address: string;
  formula: string;
}

/** What a PROP formula shows after it was calculated again. */
export interface FormulaOutcome extends FormulaCell {
  /** The error the cell shows ("#N/A", "#VALUE!", "#SPILL!", …), or null when it shows a value. */
  error: string | null;
  /** What changed in the formula's cells (its spill included): cells, and rows of a list added or removed. */
  changes: CellChange[];
  /** The cells to mark as changed: every changed cell and the cells of every row added. */
  marks: string[];
}

export interface FrozenFormula extends FormulaCell {
  /** The range its values now occupy (the whole spill for a spilling formula). */
  valuesAddress: string;
}

/** The workbook as the pane uses it. Every method runs its own Excel.run batch. */
export interface WorkbookPort {
  /** Reads the selection; follows a spill back to its formula and a table to its header row. */
  readSelectedRows(): Promise<SelectedRows>;
  /**
   * Writes `rows` (header first) as a formatted Excel table with its top-left at the active
   * cell, each formatted number as its number with its format on that cell. Throws TargetNotEmptyError, writing nothing, when any cell it would cover holds
   * something. Returns the table's address.
   */
  insertTable(rows: CellValue[][], options: { name: string }): Promise<string>;
  /**
   * Reads the block of cells the selection is in (SheetBlock); throws when the selection is in
   * no block. With `wholeSelection`, every selected row is read, past blank rows (BlockReading).
   */
  readBlock(options?: BlockReading): Promise<SheetBlock>;
  /**
   * Writes `cells` (rows of values and formulas) with its top-left at the zero-based `row` and
   * `column` of `sheet`, filling the rows `fills` names ("#FCE4D6") and making the header row
   * bold when `boldFirstRow`. Throws TargetNotEmptyError, writing nothing, when any of those
   * cells holds something. Returns the address written.
   */
  writeCells(
    sheet: string,
    at: { row: number; column: number },
    cells: CellInput[][],
    options?: { fills?: Array<string | null>; boldFirstRow?: boolean },
  ): Promise<string>;
  /** Replaces each typed value by its formula when the cell still holds that value; returns how many were replaced. */
  replaceCells(sheet: string, cells: CellReplacement[]): Promise<number>;
  /** Writes one formula into the active cell (TargetNotEmptyError when it holds something). Returns its address. */
  insertFormula(formula: string): Promise<string>;
  /** Adds a sheet (a unique name from `title`) holding `rows` as a formatted grid; activates it; returns its name. */
  writeComparisonSheet(rows: CellValue[][], options: { title: string; note: string }): Promise<string>;
  /** The PROP formulas (anchor cells only, not their spills) in the selection, the active sheet or the workbook. */
  findPropFormulas(scope: Scope): Promise<FormulaCell[]>;
  /** Calculates the given cells again and reads what each now shows, and which of its cells changed value. */
  recalculate(cells: FormulaCell[]): Promise<FormulaOutcome[]>;
  /**
   * Shows the given cells ("Sheet1!C4") in the changed-value colour, so a reader sees what a
   * refresh moved; replaces earlier marks and leaves the cells' own formatting alone. Returns
   * how many cells were marked.
   */
  markCells(addresses: string[]): Promise<number>;
  /** Takes away the marks markCells made; returns how many marked ranges there were. */
  clearMarks(): Promise<number>;
  /**
   * Appends `rows` under what the sheet `name` holds (text as text), making the sheet with
   * `header` as its bold first row when there is none; does not activate it. Returns the
   * address written.
   */
  appendRows(name: string, header: string[], rows: CellValue[][]): Promise<string>;
  /** Writes each cell's new formula (Excel then calculates it). */
  rewriteFormulas(cells: FormulaCell[]): Promise<void>;
  /**
   * Replaces the PROP formulas in the selection (with their whole spills) by their current
   * values, and leaves `note(formula)` as a comment on each formula's cell.
   */
  freezeSelection(note: (cell: FormulaCell) => string): Promise<FrozenFormula[]>;
  /** The names of the workbook's sheets, in order. */
  sheetNames(): Promise<string[]>;
  /**
   * Adds `sheets` after the last sheet, each written from A1 (values and formulas, number
   * formats, bold rows, input cells shaded, column widths), and activates the first. Throws
   * SheetExistsError, adding nothing, when a sheet of one of the names exists. Returns the names.
   */
  insertSheets(sheets: NewSheet[]): Promise<string[]>;
  /**
   * Adds a native Excel chart over the spill of the PROP formula at `spec.anchor` and keeps it
   * bound to that spill (excel-charts.ts): when the spill grows or shrinks at a later
   * calculation the chart's series are pointed at its new extent. Returns the chart's name.
   */
  insertChart(spec: ChartSpec): Promise<string>;
  /**
   * Points every bound chart at its spill's current extent (what a calculation does by itself
   * while the add-in runs); returns how many charts were changed. Refresh calls it once the
   * formulas are calculated. Optional so a port without charts needs none.
   */
  rebindCharts?(): Promise<number>;
  /** The selected cell's formula (its own or its spill's), its place in the spill, and its comment (CellSource). */
  readCellSource(): Promise<CellSource>;
}

/** A sheet insertSheets adds. */
export interface NewSheet {
  name: string;
  /** Rows from A1. */
  cells: CellInput[][];
  /** Column widths from column A, in characters. */
  widths: number[];
  /** Zero-based rows shown bold. */
  boldRows: number[];
  /** Ranges ("B4", "L9:P18") the user types into, shaded as input cells. */
  inputs: string[];
  /** Number formats of ranges ("0.0%"). */
  formats: Array<{ range: string; format: string }>;
}

/** The fill of the cells a user types into (Excel's "Input" cell style). */
export const INPUT_FILL = "#FFCC99";

/** A native Excel chart over the spill of the PROP formula at `anchor`, kept bound to that spill as it grows or shrinks at later calculations. */
export interface ChartSpec {
  /** The formula's cell, with its sheet: "'Market'!A3". The spill may not exist yet (the formula not calculated): the chart binds when it does. */
  anchor: string;
  kind: "line" | "column";
  title: string;
  /** Zero-based column of the spill holding the x values (dates, places), and the columns plotted, by index. Row 0 of the spill is its header row (series names). */
  xColumn: number;
  yColumns: number[];
  /** Top-left cell where the chart is placed, with its sheet: "'Market'!H3". */
  placeAt: string;
  /**
   * Optional; "spill" when left out. "block": `anchor` is the header cell of a block of cells
   * (one formula a row, such as a market's figure across places) rather than a spilling
   * formula; the chart follows the block's rows (its surrounding region) as rows are added.
   */
  source?: "spill" | "block";
}

/** Raised, before anything is added, when a sheet the pane would add already exists. */
export class SheetExistsError extends Error {
  override readonly name = "SheetExistsError";
  constructor(readonly names: string[]) {
    super(`The workbook already has ${names.map((n) => `"${n}"`).join(", ")}: nothing was added, and nothing overwritten.`);
  }
}

/** The selected cell, read for "Explain this cell": its formula, or the spill it is in, and its comment. */
export interface CellSource {
  /** The selected cell ("Sheet1!C5"; the first cell of a larger selection). */
  address: string;
  /** The formula that gives the cell its value: its own, or the spill's anchor's; null when neither. */
  formula: string | null;
  /** The cell holding `formula` (the cell itself, or its spill's anchor); null without a formula. */
  anchor: string | null;
  /** Zero-based row and column of the cell within its spill (0, 0 for a cell that does not spill). */
  row: number;
  column: number;
  /** What the cell shows. */
  value: CellValue;
  /** The spill's first row (its header row, when it has one); null for a cell without a spill. */
  header: CellValue[] | null;
  /** The whole row of the spill the cell is in; null for a cell without a spill. */
  rowValues: CellValue[] | null;
  /** The cell's comment (a frozen value's provenance), or its anchor's; null when none. */
  note: string | null;
  /** Zero-based sheet column just right of the spill and of the used range, and the cell's sheet row: where an insert goes. */
  freeColumn: number;
  sheetRow: number;
  sheet: string;
}

/** Raised, before anything is written, when the cells an insert would cover are not empty. */
export class TargetNotEmptyError extends Error {
  override readonly name = "TargetNotEmptyError";
  constructor(readonly address: string) {
    super(`The cells ${address} are not empty. Select an empty cell with room below and to the right, so nothing is overwritten.`);
  }
}
