// What a refresh did to the model: the cells whose shown value differs after a PROP formula was
// calculated again, old and new. A formula's block is its cell, or its whole spill; the blocks
// before and after share their top-left cell (the formula's), and a cell only one of them
// covers was empty in the other (a spill that grew or shrank).
import { cellAddress } from "./excel-addresses";

/** A value as Excel shows it in a cell (an error shows as its text, "#N/A"). */
export type ShownValue = string | number | boolean;

export interface CellChange {
  /** The cell, with its sheet as Excel writes it: "Sheet1!C4". */
  address: string;
  before: ShownValue;
  after: ShownValue;
}

/** A formula's cells as read from the workbook: the sheet prefix ("Sheet1!"), its top-left cell (zero-based) and the values. */
export interface ShownBlock {
  sheetPrefix: string;
  row: number;
  column: number;
  values: unknown[][];
}

/** What a cell shows while its async function has not answered yet: no value to compare. */
const PENDING = new Set(["#BUSY!", "#GETTING_DATA"]);

const shown = (value: unknown): ShownValue =>
  typeof value === "number" || typeof value === "boolean" || typeof value === "string" ? value : "";

/** The cells of `after` whose value differs from `before`'s, row by row. */
export function changesBetween(before: ShownBlock, after: ShownBlock): CellChange[] {
  const rows = Math.max(before.values.length, after.values.length);
  const columns = Math.max(...[...before.values, ...after.values].map((r) => r.length), 0);
  const changes: CellChange[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      const old = shown(before.values[i]?.[j]);
      const now = shown(after.values[i]?.[j]);
      if (old === now || (typeof old === "string" && PENDING.has(old))) continue;
      changes.push({ address: `${after.sheetPrefix}${cellAddress(after.row + i, after.column + j)}`, before: old, after: now });
    }
  }
  return changes;
}

/** How the pane shows a shown value: empty as "(empty)", numbers as Excel's General format would show most. */
export function shownText(value: ShownValue): string {
  if (value === "") return "(empty)";
  if (typeof value === "number") return Number.isInteger(value) ? value.toLocaleString("en-US") : String(Number(value.toPrecision(10)));
  return String(value);
}

/** The summary line of a refresh's changes: "12 cells changed value in 3 formulas.", or that none did. */
export function changesSummary(cells: number, formulas: number): string {
  if (cells === 0) return "No cell changed value.";
  return `${countOf(cells, "cell")} changed value in ${countOf(formulas, "formula")}.`;
}

/** "1 cell", "1,204 cells". */
export function countOf(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
