// The preview's small line chart as plain numbers: a series read from the preview's rows (x a
// date or a number, y a figure; a missing value is a gap, never 0) scaled into an SVG box,
// with the words a screen reader says for it. LineChart.tsx only draws what this computes.
import { isFormattedNumber } from "./cell-text";
import { displayText } from "./preview-text";

/** One point: y null where the row has no value. x and y keep the cell's own value for their text. */
export interface SeriesPoint {
  x: number;
  y: number | null;
  xCell: unknown;
  yCell: unknown;
}

export interface ChartBox {
  width: number;
  height: number;
  /** Room kept around the plot for the axis labels. */
  padding: { top: number; right: number; bottom: number; left: number };
}

export interface LineChartModel {
  /** Runs of consecutive points with a value, in SVG coordinates: each is drawn as one line. */
  runs: Array<Array<{ x: number; y: number }>>;
  /** Points with no neighbour holding a value: a line of one point is drawn as a dot. */
  dots: Array<{ x: number; y: number }>;
  /** Where the y axis' lowest and highest labels go, and their text. */
  yLabels: Array<{ y: number; text: string }>;
  xLabels: Array<{ x: number; text: string }>;
  /** The figure's first and last values, its range and its gaps, in words. */
  summary: string;
}

export const PREVIEW_BOX: ChartBox = { width: 320, height: 140, padding: { top: 10, right: 10, bottom: 20, left: 52 } };

/** A cell as a number: a number, a formatted number's value; null for empty text or anything else. */
export function cellNumber(cell: unknown): number | null {
  if (typeof cell === "number") return Number.isFinite(cell) ? cell : null;
  if (isFormattedNumber(cell)) return Number.isFinite(cell.basicValue) ? cell.basicValue : null;
  return null;
}

/**
 * The points of column `yColumn` against column `xColumn`, oldest x first. A row whose x is not
 * a number (a note row under a history's periods) is not a point at all; a row whose y is
 * missing is a gap.
 */
export function seriesOf(rows: unknown[][], xColumn: number, yColumn: number): SeriesPoint[] {
  const points: SeriesPoint[] = [];
  for (const row of rows) {
    const x = cellNumber(row[xColumn]);
    if (x === null) continue;
    points.push({ x, y: cellNumber(row[yColumn]), xCell: row[xColumn], yCell: row[yColumn] });
  }
  return points.sort((a, b) => a.x - b.x);
}

/** Columns of the rows holding at least one number, other than `except`: the figures a chart can plot. */
export function numericColumns(header: string[], rows: unknown[][], except: number[] = []): number[] {
  return header
    .map((_, i) => i)
    .filter((i) => !except.includes(i) && rows.some((row) => cellNumber(row[i]) !== null && typeof row[i] !== "boolean"));
}

/** Scales the points into `box`; null when no point has a value (nothing to draw). */
export function lineChart(points: SeriesPoint[], label: string, box: ChartBox = PREVIEW_BOX): LineChartModel | null {
  const valued = points.filter((p): p is SeriesPoint & { y: number } => p.y !== null);
  if (valued.length === 0) return null;
  const { padding } = box;
  const plotWidth = box.width - padding.left - padding.right;
  const plotHeight = box.height - padding.top - padding.bottom;
  const xMin = points[0].x;
  const xMax = points[points.length - 1].x;
  let yMin = Math.min(...valued.map((p) => p.y));
  let yMax = Math.max(...valued.map((p) => p.y));
  // All values equal: a flat line across the middle, not a division by zero.
  if (yMin === yMax) {
    const half = yMin === 0 ? 1 : Math.abs(yMin) / 2;
    yMin -= half;
    yMax += half;
  }
  // One x (a single period): the point in the middle.
  const sx = (x: number) => padding.left + (xMax === xMin ? plotWidth / 2 : ((x - xMin) / (xMax - xMin)) * plotWidth);
  const sy = (y: number) => padding.top + plotHeight - ((y - yMin) / (yMax - yMin)) * plotHeight;

  const runs: LineChartModel["runs"] = [];
  let run: Array<{ x: number; y: number }> = [];
  for (const point of points) {
    if (point.y === null) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push({ x: round(sx(point.x)), y: round(sy(point.y)) });
  }
  if (run.length) runs.push(run);

  const low = valued.reduce((a, b) => (b.y < a.y ? b : a));
  const high = valued.reduce((a, b) => (b.y > a.y ? b : a));
  const first = points[0];
  const last = points[points.length - 1];
  return {
    runs: runs.filter((r) => r.length > 1),
    dots: runs.filter((r) => r.length === 1).map((r) => r[0]),
    yLabels: [
      { y: round(sy(high.y)), text: displayText(high.yCell) },
      ...(low.y !== high.y ? [{ y: round(sy(low.y)), text: displayText(low.yCell) }] : []),
    ],
    xLabels: [
      { x: round(sx(first.x)), text: displayText(first.xCell) },
      ...(last !== first ? [{ x: round(sx(last.x)), text: displayText(last.xCell) }] : []),
    ],
    summary: summaryOf(points, valued, label, low, high),
  };
}

function summaryOf(
  points: SeriesPoint[],
  valued: Array<SeriesPoint & { y: number }>,
  label: string,
  low: SeriesPoint,
  high: SeriesPoint,
): string {
  const firstX = displayText(points[0].xCell);
  const lastX = displayText(points[points.length - 1].xCell);
  const span = points.length === 1 ? `on ${firstX}` : `from ${firstX} to ${lastX}`;
  const firstValue = valued[0];
  const lastValue = valued[valued.length - 1];
  const values =
    valued.length === 1
      ? `one value, ${displayText(firstValue.yCell)} (${displayText(firstValue.xCell)})`
      : `first ${displayText(firstValue.yCell)} (${displayText(firstValue.xCell)}), last ${displayText(lastValue.yCell)} (${displayText(lastValue.xCell)}); ` +
        `range ${displayText(low.yCell)} to ${displayText(high.yCell)}`;
  const gaps = points.length - valued.length;
  const gapText = gaps > 0 ? `; ${gaps} of ${points.length} without a value` : "";
  return `${label} ${span}: ${values}${gapText}.`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
