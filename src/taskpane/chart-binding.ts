// The rules of a chart bound to a spill, as plain functions: which cells each series reads for
// a spill of a given extent, what a ChartSpec must hold, and the registry of bound charts as
// the workbook stores it. excel-charts.ts asks Excel for the spill and applies these.
import { type Rect, parseCell, splitAddress } from "./excel-addresses";
import type { ChartSpec } from "./workbook-types";

/** One chart kept bound to the spill of the formula at `anchor`, as the workbook's registry holds it. */
export interface ChartBinding {
  /** The chart's name and the sheet it is on. */
  chart: string;
  sheet: string;
  anchor: string;
  xColumn: number;
  yColumns: number[];
  /** The cells the series were last pointed at ("Market!A3:C43 24"); null while the formula has not spilled yet. */
  bound: string | null;
  /** "block" for a block of formulas followed by its region (ChartSpec.source); absent for a spill. */
  source?: "block";
}

/** The cells one series reads: its name (a header cell) and its values, and the x values shared by all. */
export interface SeriesCells {
  name: Rect;
  values: Rect;
}

export interface ChartCells {
  x: Rect;
  series: SeriesCells[];
}

/** Most series a bound chart plots: more lines than this no longer read as a chart. */
export const MAX_SERIES = 12;

/** Checks a spec before anything is written; throws an error saying what is wrong. */
export function checkSpec(spec: ChartSpec): void {
  if (!isSheetCell(spec.anchor))
    throw new Error(`The chart's anchor "${spec.anchor}" is not one cell with its sheet, such as 'Market'!A3.`);
  if (!isSheetCell(spec.placeAt))
    throw new Error(`Where to place the chart, "${spec.placeAt}", is not one cell with its sheet, such as 'Market'!H3.`);
  if (spec.kind !== "line" && spec.kind !== "column")
    throw new Error(`A chart is a "line" or a "column" chart, not "${String(spec.kind)}".`);
  if (!spec.title?.trim()) throw new Error("A chart needs a title.");
  if (!isColumnIndex(spec.xColumn)) throw new Error(`The x column ${spec.xColumn} is not a column of the spill (0 is its first).`);
  if (!Array.isArray(spec.yColumns) || spec.yColumns.length === 0) throw new Error("A chart plots at least one column of the spill.");
  if (spec.yColumns.length > MAX_SERIES)
    throw new Error(`A chart plots at most ${MAX_SERIES} columns; ${spec.yColumns.length} were asked for.`);
  for (const column of spec.yColumns) {
    if (!isColumnIndex(column)) throw new Error(`The plotted column ${column} is not a column of the spill (0 is its first).`);
    if (column === spec.xColumn) throw new Error(`Column ${column} holds the x values; it cannot be plotted as well.`);
  }
  if (new Set(spec.yColumns).size !== spec.yColumns.length) throw new Error("A column is plotted twice.");
  if (spec.source !== undefined && spec.source !== "spill" && spec.source !== "block")
    throw new Error(`A chart reads a "spill" or a "block", not "${String(spec.source)}".`);
}

/**
 * The cells of each series for a spill covering `spill` (header row first): the x values and
 * each plotted column below the header, named by its header cell. Null when the spill has no
 * row below its header, or lacks one of the columns (a formula now showing fewer columns): the
 * chart is then left as it was rather than pointed at cells that are not the data.
 */
export function seriesCells(spill: Rect, xColumn: number, yColumns: number[], dataRows = spill.rows - 1): ChartCells | null {
  const rows = Math.min(dataRows, spill.rows - 1);
  const widest = Math.max(xColumn, ...yColumns);
  if (rows < 1 || widest >= spill.columns) return null;
  const column = (index: number, row: number, count: number): Rect => ({ row, column: spill.column + index, rows: count, columns: 1 });
  return {
    x: column(xColumn, spill.row + 1, rows),
    series: yColumns.map((y) => ({ name: column(y, spill.row, 1), values: column(y, spill.row + 1, rows) })),
  };
}

/**
 * How many rows under the header hold data to plot: every row but the trailing ones in which
 * no plotted cell holds a number (a history's note row, "Thin: …", whose other cells are empty
 * text; or rows still calculating). `values` is the spill's, header row first.
 */
export function dataRowsOf(values: unknown[][], yColumns: number[]): number {
  let rows = values.length - 1;
  while (rows > 0 && yColumns.every((column) => typeof values[rows][column] !== "number")) rows--;
  return rows;
}

/** Whether the spill is wide enough for the chart's columns. */
export function hasColumns(spill: Rect, xColumn: number, yColumns: number[]): boolean {
  return Math.max(xColumn, ...yColumns) < spill.columns;
}

/** The registry as a workbook setting holds it (JSON), read defensively: an entry that is not a binding is dropped. */
export function parseRegistry(value: unknown): ChartBinding[] {
  const list: unknown = typeof value === "string" ? safeJson(value) : value;
  if (!Array.isArray(list)) return [];
  return list.filter(isBinding);
}

/** A chart name no other chart on the sheet has: "PROP Office rent", then "PROP Office rent (2)". */
export function uniqueChartName(title: string, taken: string[]): string {
  // Excel keeps chart names short in its Selection pane; 60 characters stay readable.
  const base = `PROP ${title.trim().replace(/\s+/g, " ")}`.slice(0, 60);
  const lower = new Set(taken.map((name) => name.toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const name = `${base} (${n})`;
    if (!lower.has(name.toLowerCase())) return name;
  }
}

/** "'Market'!A3": a sheet's name and one cell of Excel's grid. */
function isSheetCell(address: unknown): boolean {
  if (typeof address !== "string" || !address.includes("!")) return false;
  const { sheet, cells } = splitAddress(address);
  if (!sheet) return false;
  try {
    const { row, column } = parseCell(cells);
    return row < 1_048_576 && column < 16_384;
  } catch {
    return false;
  }
}

function isColumnIndex(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 16_384;
}

function isBinding(entry: unknown): entry is ChartBinding {
  if (typeof entry !== "object" || entry === null) return false;
  const b = entry as Record<string, unknown>;
  return (
    typeof b.chart === "string" &&
    typeof b.sheet === "string" &&
    typeof b.anchor === "string" &&
    isColumnIndex(b.xColumn) &&
    Array.isArray(b.yColumns) &&
    b.yColumns.every(isColumnIndex) &&
    (b.bound === null || typeof b.bound === "string") &&
    (b.source === undefined || b.source === "block")
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
