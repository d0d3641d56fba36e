// The only module that calls Excel.run. Everything workbook-related the add-in does goes
// through here, so the rest of the code stays plain functions that tests can import. (The
// reads its batches share are in excel-reads.ts; the pure rules in excel-cell-rules.ts.)
//
// Excel JavaScript API used here and in excel-reads.ts (a stand-in must implement exactly
// these; test/browser/excel-host/ does):
//   ExcelApi 1.1  Excel.run, context.sync, workbook.getSelectedRange, workbook.worksheets
//                 (load items/name, add), workbook.tables / workbook.names (load items/name),
//                 workbook.application.calculate, worksheet.getRange, worksheet.activate,
//                 worksheet.tables.add, range.address/rowIndex/columnIndex/rowCount/columnCount,
//                 range.values/formulas/valueTypes/numberFormat/text, range.worksheet,
//                 range.getCell, range.clear("Contents"), range.format.font.bold/italic,
//                 table.name/style, table.getHeaderRowRange, table.getDataBodyRange
//   ExcelApi 1.2  range.getResizedRange, range.format.autofitColumns
//   ExcelApi 1.4  worksheet.getUsedRangeOrNullObject, worksheets.getItemOrNullObject
//   ExcelApi 1.6  range.calculate, range.conditionalFormats (add("Custom"), load items/type,
//                 custom.rule.formula, custom.format.fill.color, delete)
//   ExcelApi 1.7  workbook.getActiveCell, worksheet.getRangeByIndexes,
//                 range.getSurroundingRegion, worksheet.freezePanes.freezeAt/freezeRows
//   ExcelApi 1.9  range.getTables
//   ExcelApi 1.10 workbook.comments.add, worksheet.comments, comment.getLocation, comment.replies.add
//   ExcelApi 1.12 range.getSpillParentOrNullObject, range.getSpillingToRangeOrNullObject
//   ExcelApi 1.16 range.valuesAsJson, only where supported (excel-reads.ts valuesAsJsonReadable):
//                 the format a PROP function put on a value (a date, a rate)
// So the pane needs ExcelApi 1.12, which dynamic arrays (and so PROP spills) need anyway.
// The charts (insertChart, rebindCharts) are in excel-charts.ts, which lists the calls it makes.
import {
  GEOMETRY,
  type Rect,
  intersect,
  parseCell,
  selectedRowsOf,
  rectAddress,
  rectOf,
  rectanglesOf,
  sheetPrefix,
  splitAddress,
} from "./excel-addresses";
import { insertChart, rebindCharts } from "./excel-charts";
import { LABEL_REACH, changesBetween, edgeLabel, type BlockChanges, type ShownBlock } from "./cell-changes";
import {
  allEmpty,
  cellInput,
  frozenValue,
  isHeaderRow,
  numberFormatFor,
  readValue,
  rectangular,
  shortFormula,
  uniqueSheetName,
  uniqueTableName,
  writableFormat,
  writableValue,
} from "./excel-cell-rules";
import {
  findSpill,
  formulasIn,
  readBlockCells,
  readRows,
  selectionFormulas,
  shownCells,
  shownFormats,
  shownProperties,
} from "./excel-reads";
import {
  type CellInput,
  type CellReplacement,
  type CellValue,
  type FormulaCell,
  type FormulaOutcome,
  type FrozenFormula,
  type Scope,
  type SelectedRows,
  type BlockReading,
  type SheetBlock,
  TargetNotEmptyError,
  type WorkbookPort,
} from "./workbook-types";

import { insertSheets, sheetNames } from "./excel-model-sheets";
import { readCellSource } from "./excel-cell-source";

export { MAX_SELECTED_ROWS } from "./excel-reads";

/** How long recalculate waits for async PROP formulas showing #BUSY! (well under Excel's 60 s limit for a function). */
const CALCULATION_WAIT_MS = 45_000;
const BUSY = new Set(["#BUSY!", "#GETTING_DATA"]);
/** Excel's default table style, so an inserted table looks like one the user made. */
const TABLE_STYLE = "TableStyleMedium2";

export function createExcelWorkbook(): WorkbookPort {
  return {
    readSelectedRows,
    readBlock,
    writeCells,
    replaceCells,
    insertTable,
    insertFormula,
    writeComparisonSheet,
    findPropFormulas,
    recalculate,
    markCells,
    clearMarks,
    appendRows,
    rewriteFormulas,
    freezeSelection,
    insertChart,
    rebindCharts,
    sheetNames,
    insertSheets,
    readCellSource,
  };
}

/**
 * Recalculates every formula in the workbook, so every PROP formula runs again. A full
 * recalculation also recomputes non-PROP formulas; Excel has no "recalculate these functions
 * only" call. PROP formulas answer from the result cache unless refreshCachedResults()
 * (src/shared/addin-session.ts) marked their results stale first.
 */
export async function recalculateWorkbook(): Promise<void> {
  await Excel.run(async (context) => {
    context.workbook.application.calculate("Full");
    await context.sync();
  });
}

async function readSelectedRows(): Promise<SelectedRows> {
  return Excel.run(async (context) => {
    const selection = context.workbook.getSelectedRange().load(GEOMETRY);
    const sheet = selection.worksheet;
    const used = sheet.getUsedRangeOrNullObject(true).load(GEOMETRY);
    const tables = selection.getTables(false).load("items/name");
    await context.sync();
    const selected = rectOf(selection);
    const address = selection.address;
    if (tables.items.length > 0) {
      const table = tables.items[0];
      const header = table.getHeaderRowRange().load("values");
      const body = table.getDataBodyRange().load(GEOMETRY);
      await context.sync();
      const rows = await readRows(context, sheet, rectOf(body), selected, 0);
      return { address, header: header.values[0].map(readValue), rows, source: `table "${table.name}"` };
    }
    // A whole-column selection covers a million rows; only the used part can hold anything.
    const clipped = used.isNullObject ? null : intersect(selected, rectOf(used));
    if (!clipped) return { address, header: null, rows: [], source: address };

    const spill = await findSpill(context, sheet, clipped);
    if (spill) {
      const [header] = await readRows(context, sheet, { ...spill.rect, rows: 1 }, spill.rect, 0);
      const rows = await readRows(context, sheet, spill.rect, selected, 1);
      return { address, header, rows, source: `the spill of ${shortFormula(spill.formula)} at ${spill.address}` };
    }

    const region = sheet.getRangeByIndexes(clipped.row, clipped.column, 1, 1).getSurroundingRegion().load(GEOMETRY);
    await context.sync();
    const block = rectOf(region);
    // A one-row block has no header: the row is the data.
    const skip = block.rows > 1 ? 1 : 0;
    const header = skip ? (await readRows(context, sheet, { ...block, rows: 1 }, block, 0))[0] : null;
    const rows = await readRows(context, sheet, block, selected, skip);
    return { address, header, rows, source: region.address };
  });
}

/**
 * The filled region around the selection's first cell (an Excel table's header row counts as
 * its header), read whole. The selected rows are those the selection covers, or every data row
 * when a single cell is selected ("this column"). With `wholeSelection` (Match a column), a
 * selection of more than one cell is read to its last row (a whole column to the used range's),
 * blank rows included: the block spans the region and the selection, so a blank row in the
 * selection is one of its rows, not its end.
 */
async function readBlock(options: BlockReading = {}): Promise<SheetBlock> {
  return Excel.run(async (context) => {
    const selection = context.workbook.getSelectedRange().load(GEOMETRY);
    const sheet = selection.worksheet.load("name");
    const used = sheet.getUsedRangeOrNullObject(true).load(GEOMETRY);
    const tables = selection.getTables(false).load("items/name");
    await context.sync();
    const selected = rectOf(selection);
    const clipped = used.isNullObject ? null : intersect(selected, rectOf(used));
    if (!clipped) throw new Error(`The selection ${selection.address} holds nothing: select the cells to work on.`);
    const region = sheet.getRangeByIndexes(clipped.row, clipped.column, 1, 1).getSurroundingRegion().load(GEOMETRY);
    const tableHeader = tables.items.length > 0 ? tables.items[0].getHeaderRowRange().load("rowIndex") : null;
    await context.sync();
    const single = selected.rows === 1 && selected.columns === 1;
    const block = options.wholeSelection && !single ? span(rectOf(region), clipped) : rectOf(region);
    const cells = await readBlockCells(context, sheet, block);
    const headed = tableHeader ? tableHeader.rowIndex === block.row : block.rows > 1 && isHeaderRow(cells.values[0]);
    const skip = headed ? 1 : 0;
    const rows = cells.values.slice(skip);
    const { row: from, count } = single ? { row: block.row + skip, count: rows.length } : selectedRowsOf(block, clipped, skip);
    const columns = intersect(block, clipped)!;
    return {
      sheet: sheet.name,
      selection: selection.address,
      headerRow: headed ? block.row : null,
      firstRow: block.row + skip,
      column: block.column,
      header: headed ? cells.values[0] : null,
      rows,
      formulas: cells.formulas.slice(skip),
      selectedRows: Array.from({ length: count }, (_, i) => from - block.row - skip + i),
      selectedColumns: Array.from({ length: columns.columns }, (_, i) => columns.column - block.column + i),
    };
  });
}

/** The smallest rectangle holding both. */
function span(a: Rect, b: Rect): Rect {
  const row = Math.min(a.row, b.row);
  const column = Math.min(a.column, b.column);
  return {
    row,
    column,
    rows: Math.max(a.row + a.rows, b.row + b.rows) - row,
    columns: Math.max(a.column + a.columns, b.column + b.columns) - column,
  };
}

async function writeCells(
  sheetName: string,
  at: { row: number; column: number },
  cells: CellInput[][],
  options: { fills?: Array<string | null>; boldFirstRow?: boolean } = {},
): Promise<string> {
  const width = Math.max(...cells.map((row) => row.length));
  return Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const target = sheet.getRangeByIndexes(at.row, at.column, cells.length, width).load("address,formulas");
    await context.sync();
    if (!allEmpty(target.formulas)) throw new TargetNotEmptyError(target.address);
    const grid = cells.map((row) => Array.from({ length: width }, (_, j) => row[j] ?? null));
    // Formats first, so a formatted number lands in a cell that already shows it so.
    target.numberFormat = grid.map((row) =>
      row.map((cell) => (cell !== null && typeof cell === "object" && "formula" in cell ? "General" : writableFormat(cell))),
    );
    target.formulas = grid.map((row) => row.map(cellInput));
    options.fills?.forEach((fill, i) => {
      if (fill) sheet.getRangeByIndexes(at.row + i, at.column, 1, width).format.fill.color = fill;
    });
    if (options.boldFirstRow) sheet.getRangeByIndexes(at.row, at.column, 1, width).format.font.bold = true;
    target.format.autofitColumns();
    await context.sync();
    return target.address;
  });
}

/**
 * Each cell is read again first (the column's span of them in one range): one that no longer
 * holds the value the pane showed, or now holds a formula, is left as it is.
 */
async function replaceCells(sheetName: string, cells: CellReplacement[]): Promise<number> {
  if (cells.length === 0) return 0;
  return Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem(sheetName);
    const byColumn = new Map<number, CellReplacement[]>();
    for (const cell of cells) byColumn.set(cell.column, [...(byColumn.get(cell.column) ?? []), cell]);
    const spans = [...byColumn].map(([column, list]) => {
      const top = Math.min(...list.map((c) => c.row));
      const rows = Math.max(...list.map((c) => c.row)) - top + 1;
      return { list, top, range: sheet.getRangeByIndexes(top, column, rows, 1).load("values,formulas") };
    });
    await context.sync();
    let replaced = 0;
    for (const { list, top, range } of spans) {
      for (const cell of list) {
        const value = range.values[cell.row - top][0];
        const typed = range.formulas[cell.row - top][0] === value;
        if (!typed || readValue(value) !== cell.was) continue;
        range.getCell(cell.row - top, 0).formulas = [[cell.formula]];
        replaced++;
      }
    }
    await context.sync();
    return replaced;
  });
}

async function insertTable(rows: CellValue[][], options: { name: string }): Promise<string> {
  const grid = rectangular(rows);
  return Excel.run(async (context) => {
    const target = context.workbook
      .getActiveCell()
      .getResizedRange(grid.length - 1, grid[0].length - 1)
      .load("address,formulas");
    // Empty cells inside an existing table still belong to it: a table cannot go there either.
    const overlapping = target.getTables(false).load("items/name");
    const tables = context.workbook.tables.load("items/name");
    const names = context.workbook.names.load("items/name");
    await context.sync();
    if (!allEmpty(target.formulas) || overlapping.items.length > 0) throw new TargetNotEmptyError(target.address);

    // Formats first, values second, in the one batch: a date lands as a number in a cell that
    // already shows it as a date, as the equivalent formula's spill shows it.
    target.numberFormat = grid.map((row) => row.map(writableFormat));
    target.values = grid.map((row) => row.map(writableValue));
    const table = target.worksheet.tables.add(target.address, true);
    table.name = uniqueTableName(
      options.name,
      [...tables.items, ...names.items].map((item) => item.name),
    );
    table.style = TABLE_STYLE;
    target.format.autofitColumns();
    await context.sync();
    return target.address;
  });
}

async function insertFormula(formula: string): Promise<string> {
  return Excel.run(async (context) => {
    const cell = context.workbook.getActiveCell().load("address,formulas");
    await context.sync();
    // A spilled cell reports its value as its formula, so it counts as taken too.
    if (!allEmpty(cell.formulas)) throw new TargetNotEmptyError(cell.address);
    cell.formulas = [[formula]];
    await context.sync();
    return cell.address;
  });
}

/**
 * The grid starts at A1 so the frozen header row and first column are exactly its own; the
 * note goes, in italics, two rows below the grid, where it is seen and printed with it and
 * takes no part in sorting or the frozen panes.
 */
async function writeComparisonSheet(rows: CellValue[][], options: { title: string; note: string }): Promise<string> {
  const grid = rectangular(rows);
  const height = grid.length;
  const width = grid[0].length;
  return Excel.run(async (context) => {
    const sheets = context.workbook.worksheets.load("items/name");
    await context.sync();
    const name = uniqueSheetName(
      options.title,
      sheets.items.map((sheet) => sheet.name),
    );
    const sheet = context.workbook.worksheets.add(name);
    const all = sheet.getRangeByIndexes(0, 0, height, width);
    all.numberFormat = grid.map((row) => row.map(numberFormatFor));
    all.values = grid.map((row) => row.map(writableValue));
    sheet.getRangeByIndexes(0, 0, 1, width).format.font.bold = true;
    sheet.getRangeByIndexes(0, 0, height, 1).format.font.bold = true;
    // Fitted before the note is written: autofit measures the cells of the range it is given.
    all.format.autofitColumns();
    const note = sheet.getRangeByIndexes(height + 1, 0, 1, 1);
    note.values = [[writableValue(options.note)]];
    note.format.font.italic = true;
    sheet.activate();
    sheet.freezePanes.freezeAt("A1");
    await context.sync();
    return name;
  });
}

async function findPropFormulas(scope: Scope): Promise<FormulaCell[]> {
  return Excel.run(async (context) => {
    if (scope === "selection") return selectionFormulas(context);
    const sheets: Excel.Worksheet[] = [];
    if (scope === "sheet") {
      sheets.push(context.workbook.worksheets.getActiveWorksheet());
    } else {
      const all = context.workbook.worksheets.load("items/name");
      await context.sync();
      sheets.push(...all.items);
    }
    const used = sheets.map((sheet) => sheet.getUsedRangeOrNullObject().load(GEOMETRY));
    await context.sync();
    const found: FormulaCell[] = [];
    for (let i = 0; i < sheets.length; i++) {
      if (!used[i].isNullObject) found.push(...(await formulasIn(context, sheets[i], rectOf(used[i]), sheetPrefix(used[i].address))));
    }
    return found;
  });
}

async function recalculate(cells: FormulaCell[]): Promise<FormulaOutcome[]> {
  if (cells.length === 0) return [];
  return Excel.run(async (context) => {
    const sheets = new Map<string, Excel.Worksheet>();
    const targets = cells.map((cell) => {
      const { sheet, cells: a1 } = splitAddress(cell.address);
      if (!sheets.has(sheet)) sheets.set(sheet, context.workbook.worksheets.getItemOrNullObject(sheet).load("name"));
      return { cell, sheet: sheets.get(sheet)!, a1 };
    });
    await context.sync();
    // A sheet deleted or renamed since the formulas were found: its cells are a broken reference.
    const ranges = targets.map((target) => (target.sheet.isNullObject ? null : target.sheet.getRange(target.a1)));
    // What each formula showed before, its spill included, to tell which cells the refresh changed.
    const reading = ranges.map((range) => range && shownBlock(range));
    await context.sync();
    // Copied now: a range's loaded values are refreshed by every later sync.
    const before = reading.map((block) => block && blockOf(block));
    for (const range of ranges) range?.calculate();
    await context.sync();

    const errors: Array<string | null | undefined> = ranges.map((range) => (range ? undefined : "#REF!"));
    const deadline = Date.now() + CALCULATION_WAIT_MS;
    for (let wait = 100; ; wait = Math.min(wait * 2, 1_000)) {
      const pending = ranges.map((range, i) => (errors[i] === undefined ? range!.load("values,valueTypes") : null));
      await context.sync();
      let busy = false;
      pending.forEach((range, i) => {
        if (!range) return;
        const shown = range.valueTypes[0][0] === "Error" ? String(range.values[0][0]) : null;
        // An async function still running shows #BUSY!: read it again until it settles.
        if (shown !== null && BUSY.has(shown) && Date.now() < deadline) busy = true;
        else errors[i] = shown;
      });
      if (!busy) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const reread = ranges.map((range) => range && shownBlock(range));
    await context.sync();
    const after = reread.map((block) => block && blockOf(block));
    const compared = after.map((block, i) => (block && before[i] ? changesBetween(before[i], block) : null));
    // A single cell that changed has no header of its own: its labels are the cells around it.
    const labels = compared.map((found, i) => {
      const block = after[i];
      const single = block && block.cells.length === 1 && block.cells[0].length === 1;
      return found && single && found.changes.length > 0 ? labelRanges(targets[i].sheet, block.row, block.column) : null;
    });
    await context.sync();
    return targets.map((target, i) => {
      const read = labels[i];
      const found: BlockChanges | null = read
        ? changesBetween(before[i]!, after[i]!, {
            row: edgeLabel(read.left ? shownCells(read.left)[0].reverse() : []),
            column: edgeLabel(
              read.above
                ? shownCells(read.above)
                    .map((row) => row[0])
                    .reverse()
                : [],
            ),
          })
        : compared[i];
      return { ...target.cell, error: errors[i] ?? null, changes: found?.changes ?? [], marks: found?.cells ?? [] };
    });
  });
}

/** A formula's cell and its spill (a null object when it does not spill), loaded at the next sync. */
function shownBlock(range: Excel.Range) {
  const properties = `${GEOMETRY},${shownProperties(true)}`;
  return { cell: range.load(properties), spill: range.getSpillingToRangeOrNullObject().load(properties) };
}

function blockOf({ cell, spill }: ReturnType<typeof shownBlock>): ShownBlock {
  const shown = spill.isNullObject ? cell : spill;
  return { sheetPrefix: sheetPrefix(cell.address), row: shown.rowIndex, column: shown.columnIndex, cells: shownCells(shown) };
}

/** The cells left of and above a cell, up to LABEL_REACH of each, loaded at the next sync. */
function labelRanges(sheet: Excel.Worksheet, row: number, column: number) {
  const properties = shownProperties(true);
  const left = Math.max(0, column - LABEL_REACH);
  const top = Math.max(0, row - LABEL_REACH);
  return {
    left: column > 0 ? sheet.getRangeByIndexes(row, left, 1, column - left).load(properties) : null,
    above: row > 0 ? sheet.getRangeByIndexes(top, column, row - top, 1).load(properties) : null,
  };
}

/** The fill marking a cell a refresh changed: Excel's light gold ("Gold, Lighter 80%"). */
export const CHANGED_FILL = "#FFF2CC";
/** Text in the rule of every mark's conditional format: how clearMarks tells the add-in's marks from the user's formats. */
export const MARK_TAG = "PROP refresh: changed value";
/** The marks' rule: always true (N of a text is 0), and it carries MARK_TAG. */
export const MARK_RULE = `=N("${MARK_TAG}")=0`;

/**
 * Marks the given cells ("Sheet1!C4") as changed by a refresh, replacing the marks of an
 * earlier one. A mark is a conditional format (one per rectangle of changed cells) showing
 * CHANGED_FILL, not a fill: the cells' own formatting stays as it was, and clearMarks takes
 * the marks away again. Cells on a sheet deleted since the refresh are skipped. Returns how
 * many cells were marked.
 */
async function markCells(addresses: string[]): Promise<number> {
  await clearMarks();
  const bySheet = new Map<string, Array<{ row: number; column: number }>>();
  for (const address of addresses) {
    const { sheet, cells } = splitAddress(address);
    bySheet.set(sheet, [...(bySheet.get(sheet) ?? []), parseCell(cells)]);
  }
  if (bySheet.size === 0) return 0;
  return Excel.run(async (context) => {
    const sheets = [...bySheet].map(([name, cells]) => ({ ws: context.workbook.worksheets.getItemOrNullObject(name), cells }));
    await context.sync();
    let marked = 0;
    for (const { ws, cells } of sheets) {
      if (ws.isNullObject) continue;
      for (const rect of rectanglesOf(cells)) {
        const format = ws.getRange(rectAddress(rect)).conditionalFormats.add("Custom");
        format.custom.rule.formula = MARK_RULE;
        format.custom.format.fill.color = CHANGED_FILL;
        marked += rect.rows * rect.columns;
      }
    }
    await context.sync();
    return marked;
  });
}

/** Removes every mark markCells made (on every sheet), leaving the user's own conditional formats. Returns how many rectangles were unmarked. */
async function clearMarks(): Promise<number> {
  return Excel.run(async (context) => {
    const sheets = context.workbook.worksheets.load("items/name");
    await context.sync();
    const formats = sheets.items.map((ws) => ws.getRange().conditionalFormats.load("items/type"));
    await context.sync();
    const custom = formats.flatMap((collection) => collection.items.filter((f) => f.type === "Custom"));
    const rules = custom.map((f) => f.custom.rule.load("formula"));
    await context.sync();
    const marks = custom.filter((_, i) => rules[i].formula.includes(MARK_TAG));
    for (const mark of marks) mark.delete();
    await context.sync();
    return marks.length;
  });
}

async function appendRows(name: string, header: string[], rows: CellValue[][]): Promise<string> {
  const width = Math.max(header.length, ...rows.map((row) => row.length));
  return Excel.run(async (context) => {
    const existing = context.workbook.worksheets.getItemOrNullObject(name);
    await context.sync();
    const sheet = existing.isNullObject ? context.workbook.worksheets.add(name) : existing;
    const used = sheet.getUsedRangeOrNullObject(true).load(GEOMETRY);
    await context.sync();
    let next = used.isNullObject ? 0 : used.rowIndex + used.rowCount;
    if (next === 0) {
      const top = sheet.getRangeByIndexes(0, 0, 1, width);
      top.values = [rectangularTo(header, width).map(writableValue)];
      top.format.font.bold = true;
      sheet.freezePanes.freezeRows(1);
      next = 1;
    }
    const grid = rows.map((row) => rectangularTo(row, width));
    const target = sheet.getRangeByIndexes(next, 0, grid.length, width).load("address");
    target.numberFormat = grid.map((row) => row.map(writableFormat));
    target.values = grid.map((row) => row.map(writableValue));
    sheet.getRangeByIndexes(0, 0, next + grid.length, width).format.autofitColumns();
    await context.sync();
    return target.address;
  });
}

function rectangularTo(row: CellValue[], width: number): CellValue[] {
  return Array.from({ length: width }, (_, i) => (i < row.length ? row[i] : null));
}

async function rewriteFormulas(cells: FormulaCell[]): Promise<void> {
  if (cells.length === 0) return;
  await Excel.run(async (context) => {
    for (const cell of cells) {
      const { sheet, cells: a1 } = splitAddress(cell.address);
      context.workbook.worksheets.getItem(sheet).getRange(a1).formulas = [[cell.formula]];
    }
    await context.sync();
  });
}

async function freezeSelection(note: (cell: FormulaCell) => string): Promise<FrozenFormula[]> {
  return Excel.run(async (context) => {
    const formulas = await selectionFormulas(context);
    if (formulas.length === 0) return [];
    const sheet = context.workbook.getSelectedRange().worksheet;
    const shownProps = `address,${shownProperties(false)}`;
    const targets = formulas.map((formula) => {
      const cell = sheet.getRange(splitAddress(formula.address).cells).load(shownProps);
      const spill = cell.getSpillingToRangeOrNullObject().load(shownProps);
      return { formula, cell, spill };
    });
    const comments = sheet.comments.load("items/id");
    await context.sync();
    const locations = comments.items.map((comment) => comment.getLocation().load("address"));
    await context.sync();

    // Freezing a formula that is still calculating would write "#BUSY!" as its value.
    const busy = targets.find(({ cell }) => cell.valueTypes[0][0] === "Error" && BUSY.has(String(cell.values[0][0])));
    if (busy) throw new Error(`${busy.formula.address} is still calculating; freeze it when it shows its result.`);

    const frozen: FrozenFormula[] = [];
    for (const { formula, cell, spill } of targets) {
      const shown = spill.isNullObject ? cell : spill;
      const values = shown.values.map((row, i) => row.map((value, j) => frozenValue(value, shown.valueTypes[i][j])));
      // Each value keeps the format it was shown in: a rate stays 5.48%, a date a date.
      const formats = shownFormats(shown);
      // Clear the formula first, so its spill is gone before the values land in those cells;
      // formats before values, so a date lands in a cell that already shows it as one.
      cell.clear("Contents");
      shown.numberFormat = formats;
      shown.values = values;
      const text = note(formula);
      const existing = locations.findIndex((location) => location.address === cell.address);
      // A cell holds one comment thread: add to the user's thread rather than fail on it.
      if (existing >= 0) comments.items[existing].replies.add(text);
      else context.workbook.comments.add(cell.address, text);
      frozen.push({ ...formula, valuesAddress: shown.address });
    }
    await context.sync();
    return frozen;
  });
}
