// What a refresh did to the model: the cells whose value differs after a PROP formula was
// calculated again, old and new as the cells show them, with the labels a reader finds them by
// and the size of the change. A formula's block is its cell, or its whole spill. A spilled list
// with a header row and an id column (id, property_id, period…) is compared row by row by that
// id, so a new row at the top is one row added, not a change in every row below it; other
// blocks are compared cell by cell by position (a cell only one side covers was empty on the
// other: a spill that grew or shrank).
import { cellAddress } from "./excel-addresses";
import { changeText, type ShownCell } from "./shown-values";

export type { ShownCell, ShownValue } from "./shown-values";

export interface CellChange {
  /** The cell ("Sheet1!C4"), or for a row added or removed the row of the spill ("Sheet1!A7:F7"). */
  address: string;
  kind: "changed" | "added" | "removed";
  /** The row's label: its id (and name) in a list, else the text at the start of its row; "" when none. */
  row: string;
  /** The column's label: its header in the spill, else the header above the cell; "" when none. */
  column: string;
  /** As the cell showed it ("6.29%", "2027-01-01"); "" for an empty cell or a row added. */
  before: string;
  after: string;
  /** The change in words ("+155 bps", "-4.2%", "+28 days"); "" when not a number, "row added", "row removed". */
  change: string;
}

/** A formula's cells as read from the workbook: the sheet prefix ("Sheet1!"), its top-left cell (zero-based) and the cells. */
export interface ShownBlock {
  sheetPrefix: string;
  row: number;
  column: number;
  cells: ShownCell[][];
}

export interface BlockChanges {
  changes: CellChange[];
  /** The cells to mark in the workbook: every changed cell and the cells of every row added. */
  cells: string[];
}

/** Labels read around a single-cell formula (its row's and its column's), for a block with none of its own. */
export interface Labels {
  row: string;
  column: string;
}

/** What a cell shows while its async function has not answered yet: no value to compare. */
const PENDING = new Set(["#BUSY!", "#GETTING_DATA"]);
/** Headers of the column that identifies a row of a list, in order of preference. */
const KEY_HEADERS = ["id", "property_id", "period_end", "period", "date", "as_of"];
/** Headers of a column that names a row, shown after its id. */
const NAME_HEADERS = ["name", "property_name"];

const EMPTY: ShownCell = { value: "", format: "General", text: "" };

/** The changes from `before` to `after` (see the top of this file). */
export function changesBetween(before: ShownBlock, after: ShownBlock, labels: Labels = { row: "", column: "" }): BlockChanges {
  const keyed = keyColumns(before, after);
  return keyed ? byKey(before, after, keyed) : byPosition(before, after, labels);
}

function byPosition(before: ShownBlock, after: ShownBlock, labels: Labels): BlockChanges {
  const rows = Math.max(before.cells.length, after.cells.length);
  const columns = Math.max(...[...before.cells, ...after.cells].map((r) => r.length), 0);
  const header = hasHeader(after) ? after.cells[0] : null;
  const result: BlockChanges = { changes: [], cells: [] };
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      const old = before.cells[i]?.[j] ?? EMPTY;
      const now = after.cells[i]?.[j] ?? EMPTY;
      if (!differs(old, now)) continue;
      const address = `${after.sheetPrefix}${cellAddress(after.row + i, after.column + j)}`;
      const single = rows === 1 && columns === 1;
      const first = after.cells[i]?.[0] ?? before.cells[i]?.[0];
      const row = single ? labels.row : j > 0 && first && first.text !== "" ? first.text : "";
      const column = single ? labels.column : header && i > 0 ? (header[j]?.text ?? "") : "";
      result.changes.push({ address, kind: "changed", row, column, before: old.text, after: now.text, change: changeText(old, now) });
      result.cells.push(address);
    }
  }
  return result;
}

interface Keyed {
  /** Column index of the key in before and in after. */
  before: number;
  after: number;
}

function byKey(before: ShownBlock, after: ShownBlock, key: Keyed): BlockChanges {
  const headerBefore = before.cells[0].map((c) => c.text);
  const header = after.cells[0].map((c) => c.text);
  const rowsBefore = new Map(before.cells.slice(1).map((cells, i) => [keyOf(cells[key.before]), { cells, i: i + 1 }]));
  const keysAfter = new Set(after.cells.slice(1).map((cells) => keyOf(cells[key.after])));
  const result: BlockChanges = { changes: [], cells: [] };
  const rowAddress = (block: ShownBlock, i: number, width: number) =>
    `${block.sheetPrefix}${cellAddress(block.row + i, block.column)}:${cellAddress(block.row + i, block.column + width - 1)}`;
  after.cells.forEach((cells, i) => {
    if (i === 0) return;
    const label = rowLabel(cells, header, key.after);
    const old = rowsBefore.get(keyOf(cells[key.after]));
    if (!old) {
      result.changes.push({
        address: rowAddress(after, i, cells.length),
        kind: "added",
        row: label,
        column: "",
        before: "",
        after: "",
        change: "row added",
      });
      cells.forEach((_, j) => result.cells.push(`${after.sheetPrefix}${cellAddress(after.row + i, after.column + j)}`));
      return;
    }
    cells.forEach((now, j) => {
      const k = headerBefore.indexOf(header[j]);
      const was = k >= 0 ? (old.cells[k] ?? EMPTY) : EMPTY;
      if (!differs(was, now)) return;
      const address = `${after.sheetPrefix}${cellAddress(after.row + i, after.column + j)}`;
      result.changes.push({
        address,
        kind: "changed",
        row: label,
        column: header[j],
        before: was.text,
        after: now.text,
        change: changeText(was, now),
      });
      result.cells.push(address);
    });
  });
  before.cells.forEach((cells, i) => {
    if (i === 0 || keysAfter.has(keyOf(cells[key.before]))) return;
    result.changes.push({
      address: rowAddress(before, i, cells.length),
      kind: "removed",
      row: rowLabel(cells, headerBefore, key.before),
      column: "",
      before: "",
      after: "",
      change: "row removed",
    });
  });
  return result;
}

function differs(old: ShownCell, now: ShownCell): boolean {
  if (old.value === now.value) return false;
  return !(typeof old.value === "string" && PENDING.has(old.value));
}

/** A block whose first row is all text (field names), with rows under it. */
function hasHeader(block: ShownBlock): boolean {
  const [first] = block.cells;
  return (
    block.cells.length > 1 &&
    first.length > 0 &&
    first.every((c) => typeof c.value === "string" && c.value !== "" && !c.value.startsWith("#"))
  );
}

/** The key column of both blocks: a key header both have, whose values are all there and distinct on each side. */
function keyColumns(before: ShownBlock, after: ShownBlock): Keyed | null {
  if (!hasHeader(before) || !hasHeader(after)) return null;
  const names = (block: ShownBlock) => block.cells[0].map((c) => String(c.value).toLowerCase());
  const unique = (block: ShownBlock, column: number) => {
    const keys = block.cells.slice(1).map((cells) => keyOf(cells[column]));
    return keys.every((k) => k !== "") && new Set(keys).size === keys.length;
  };
  for (const header of KEY_HEADERS) {
    const b = names(before).indexOf(header);
    const a = names(after).indexOf(header);
    if (a >= 0 && b >= 0 && unique(before, b) && unique(after, a)) return { before: b, after: a };
  }
  return null;
}

function keyOf(cell: ShownCell | undefined): string {
  return cell ? String(cell.value) : "";
}

/** "cp_0001 · Alpha Park": the row's id and, when the list has one, its name. */
function rowLabel(cells: ShownCell[], header: string[], key: number): string {
  const lower = header.map((h) => h.toLowerCase());
  const name = NAME_HEADERS.map((h) => lower.indexOf(h)).find((i) => i >= 0 && i !== key);
  const id = cells[key]?.text ?? "";
  const named = name === undefined ? "" : (cells[name]?.text ?? "");
  return named ? `${id} · ${named}` : id;
}

/** Cells farther from a single-cell formula than this are not looked at for its labels. */
export const LABEL_REACH = 50;

/**
 * The label of a single cell's row or column, from the cells beside it, nearest first (those
 * to its left, or above it): the far end of the block of filled cells that touches it, as a
 * model's row label starts its row and its column header tops its column. "" when the cell
 * next to it is empty.
 */
export function edgeLabel(cells: ShownCell[]): string {
  let label = "";
  for (const cell of cells) {
    if (cell.value === "") break;
    label = cell.text;
  }
  return label;
}

export interface ChangeCounts {
  cells: number;
  added: number;
  removed: number;
}

export function countChanges(changes: CellChange[]): ChangeCounts {
  return {
    cells: changes.filter((c) => c.kind === "changed").length,
    added: changes.filter((c) => c.kind === "added").length,
    removed: changes.filter((c) => c.kind === "removed").length,
  };
}

/** The summary line of a refresh's changes: "12 cells changed value, 1 row added in 3 formulas.", or that none did. */
export function changesSummary(counts: ChangeCounts, formulas: number): string {
  const parts = [
    counts.cells > 0 ? `${countOf(counts.cells, "cell")} changed value` : "",
    counts.added > 0 ? `${countOf(counts.added, "row")} added` : "",
    counts.removed > 0 ? `${countOf(counts.removed, "row")} removed` : "",
  ].filter(Boolean);
  if (parts.length === 0) return "No cell changed value.";
  return `${parts.join(", ")} in ${countOf(formulas, "formula")}.`;
}

/** One change as one line: "cp_1 · Alpha · cap_rate: 6.29% → 7.84% (+155 bps) Sheet1!D5". */
export function changeLine(change: CellChange): string {
  const label = [change.row, change.column].filter(Boolean).join(" · ");
  const what =
    change.kind === "changed"
      ? `${change.before === "" ? "(empty)" : change.before} → ${change.after === "" ? "(empty)" : change.after}`
      : change.change;
  const delta = change.kind === "changed" && change.change ? ` (${change.change})` : "";
  return `${label ? `${label}: ` : ""}${what}${delta}`;
}

/** "1 cell", "1,204 cells". */
export function countOf(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}
