// The selected cell as "Explain this cell" reads it, in one Excel.run batch (this family of
// modules is the only one that starts one): its own PROP formula or the one whose spill it is
// in, its place in that spill with the spill's first row and its own row, its comment (a frozen
// value's provenance), and the first free column right of what the sheet uses.
import { GEOMETRY, rectOf, splitAddress } from "./excel-addresses";
import { callsPropFunction, readValue } from "./excel-cell-rules";
import type { CellSource, CellValue } from "./workbook-types";

/** Widest spill row read for an explanation (its header and the cell's row). */
const MAX_ROW_CELLS = 200;

export async function readCellSource(): Promise<CellSource> {
  return Excel.run(async (context) => {
    const cell = context.workbook.getSelectedRange().getCell(0, 0).load(`${GEOMETRY},formulas,values`);
    const sheet = cell.worksheet;
    const parent = cell.getSpillParentOrNullObject().load(`${GEOMETRY},formulas`);
    const used = sheet.getUsedRangeOrNullObject().load(GEOMETRY);
    const comments = sheet.comments.load("items/content");
    await context.sync();
    const locations = comments.items.map((comment) => comment.getLocation().load("address"));

    const own = cell.formulas[0][0];
    const anchor = callsPropFunction(own) ? cell : !parent.isNullObject && callsPropFunction(parent.formulas[0][0]) ? parent : null;
    const spill = anchor ? anchor.getSpillingToRangeOrNullObject().load(GEOMETRY) : null;
    await context.sync();

    let header: CellValue[] | null = null;
    let rowValues: CellValue[] | null = null;
    let right = Math.max(cell.columnIndex + 1, used.isNullObject ? 0 : used.columnIndex + used.columnCount);
    if (anchor && spill && !spill.isNullObject) {
      const rect = rectOf(spill);
      const width = Math.min(rect.columns, MAX_ROW_CELLS);
      const first = sheet.getRangeByIndexes(rect.row, rect.column, 1, width).load("values");
      const row = sheet.getRangeByIndexes(cell.rowIndex, rect.column, 1, width).load("values");
      await context.sync();
      header = first.values[0].map(readValue);
      rowValues = row.values[0].map(readValue);
      right = Math.max(right, rect.column + rect.columns);
    }
    const noteAt = (address: string) => {
      const at = locations.findIndex((location) => location.address === address);
      return at >= 0 ? comments.items[at].content : null;
    };
    return {
      address: cell.address,
      formula: anchor ? String(anchor.formulas[0][0]) : null,
      anchor: anchor ? anchor.address : null,
      row: anchor ? cell.rowIndex - anchor.rowIndex : 0,
      column: anchor ? cell.columnIndex - anchor.columnIndex : 0,
      value: readValue(cell.values[0][0]),
      header,
      rowValues,
      note: noteAt(cell.address) ?? (anchor ? noteAt(anchor.address) : null),
      freeColumn: right,
      sheetRow: cell.rowIndex,
      sheet: splitAddress(cell.address).sheet,
    };
  });
}
