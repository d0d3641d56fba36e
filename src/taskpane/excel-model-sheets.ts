// The workbook side of "Start a model": the sheets' names, and new sheets written whole from A1
// (ExcelApi 1.1 worksheets.add, range.formulas/numberFormat, format.font.bold, format.fill.color;
// 1.2 format.columnWidth; 1.7 getRangeByIndexes). Part of the excel-* family, the only modules
// that call Excel.run; excel-workbook.ts hands these to the pane as WorkbookPort methods.
import { parseCell } from "./excel-addresses";
import { cellInput } from "./excel-cell-rules";
import { INPUT_FILL, type NewSheet, SheetExistsError } from "./workbook-types";

/** Points per character of column width (Excel's default column, 8.43 characters, is 48 points). */
const POINTS_PER_CHARACTER = 5.7;

export async function sheetNames(): Promise<string[]> {
  return Excel.run(async (context) => {
    const sheets = context.workbook.worksheets.load("items/name");
    await context.sync();
    return sheets.items.map((sheet) => sheet.name);
  });
}

export async function insertSheets(sheets: NewSheet[]): Promise<string[]> {
  return Excel.run(async (context) => {
    const existing = context.workbook.worksheets.load("items/name");
    await context.sync();
    // Sheet names compare without case in Excel.
    const taken = new Set(existing.items.map((sheet) => sheet.name.toLowerCase()));
    const clashes = sheets.map((s) => s.name).filter((name) => taken.has(name.toLowerCase()));
    if (clashes.length > 0) throw new SheetExistsError(clashes);
    const added = sheets.map((spec) => {
      const sheet = context.workbook.worksheets.add(spec.name);
      const width = Math.max(1, ...spec.cells.map((row) => row.length));
      const all = sheet.getRangeByIndexes(0, 0, spec.cells.length, width);
      const grid = spec.cells.map((row) => Array.from({ length: width }, (_, j) => cellInput(row[j] ?? null)));
      all.formulas = grid;
      for (const { range, format } of spec.formats) {
        const [from, to = from] = range.split(":").map(parseCell);
        const rows = to.row - from.row + 1;
        const columns = to.column - from.column + 1;
        sheet.getRangeByIndexes(from.row, from.column, rows, columns).numberFormat = Array.from({ length: rows }, () =>
          Array<string>(columns).fill(format),
        );
      }
      for (const row of spec.boldRows) sheet.getRangeByIndexes(row, 0, 1, width).format.font.bold = true;
      for (const range of spec.inputs) sheet.getRange(range).format.fill.color = INPUT_FILL;
      spec.widths.forEach((chars, column) => {
        sheet.getRangeByIndexes(0, column, 1, 1).format.columnWidth = Math.round(chars * POINTS_PER_CHARACTER);
      });
      return sheet;
    });
    added[0]?.activate();
    await context.sync();
    return sheets.map((s) => s.name);
  });
}
