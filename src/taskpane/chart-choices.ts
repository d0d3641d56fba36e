// What the pane offers to chart, as plain functions: for a history preview, the dates column
// and the figures a line chart can plot, and the ChartSpec that charts one of them beside the
// inserted formula; for a market, the figures a column chart can compare across places, and
// the block of =PROP.MARKET formulas (one row per place) that chart reads.
import { MARKET_METRICS } from "../functions/market";
import { RESOURCES } from "../functions/record-fields";
import { fieldLabel, isFigure } from "../functions/field-labels";
import { cellAddress, parseCell, splitAddress } from "./excel-addresses";
import { numericColumns } from "./line-chart";
import { SEARCH_KINDS, type SearchKind } from "./search-kinds";
import type { PreviewTable, SearchRequest } from "./search-request";
import type { CellInput, ChartSpec } from "./workbook-types";

/** A figure the pane can chart: its column in the spill (or its metric) and its label. */
export interface ChartFigure {
  column: number;
  field: string;
  label: string;
}

export interface HistoryChoice {
  /** The spill's column of dates. */
  xColumn: number;
  figures: ChartFigure[];
}

/** The column of dates in each history search's spill. */
const DATE_COLUMN: Partial<Record<SearchKind, string>> = { markethistory: "period_end", history: "date" };

/** The figures of a history preview a line chart can plot against its dates; null for other searches or when none has a number. */
export function historyChoice(kind: SearchKind, table: PreviewTable): HistoryChoice | null {
  const dates = DATE_COLUMN[kind];
  if (!dates) return null;
  const xColumn = table.header.indexOf(dates);
  if (xColumn < 0) return null;
  const figures = numericColumns(table.header, table.rows, [xColumn]).map((column) => figure(kind, table.header[column], column));
  return figures.length ? { xColumn, figures } : null;
}

/**
 * The chart of one figure of a history formula inserted at `anchor` ("Sheet1!R1"): a line
 * chart placed one column right of the spill (as wide as the preview), at the anchor's row.
 */
export function historyChartSpec(
  request: SearchRequest,
  table: PreviewTable,
  choice: HistoryChoice,
  column: number,
  anchor: string,
): ChartSpec {
  const chosen = choice.figures.find((f) => f.column === column);
  if (!chosen) throw new Error(`Column ${column} of the preview is not a figure to chart.`);
  const what =
    request.kind === "history"
      ? `property ${request.values.property_id ?? ""}`
      : `${request.values.asset_type ?? ""} in ${request.values.geography ?? ""}`;
  return {
    anchor,
    kind: "line",
    title: `${chosen.label}, ${what.trim()}`,
    xColumn: choice.xColumn,
    yColumns: [column],
    placeAt: besideOf(anchor, table.header.length + 1),
  };
}

/** A market's numeric figures (rates, rents, counts, amounts; not its flags or names), for the column chart across places. */
export function marketFigures(): ChartFigure[] {
  const fields = new Map(RESOURCES.market.map((f) => [f.name, f]));
  return MARKET_METRICS.flatMap((name, column) => {
    const field = fields.get(name);
    return field && isFigure(field) && !field.type.startsWith("boolean") ? [{ column, field: name, label: fieldLabel(field) }] : [];
  });
}

/** Most places one chart compares: more bars than this no longer fit a chart that reads. */
export const MAX_PLACES = 25;

/** The places typed one a line (or separated by ";"), trimmed, each once; throws when there are none or too many. */
export function placesOf(text: string): string[] {
  const seen = new Set<string>();
  const places = text
    .split(/[\n;]/)
    .map((p) => p.trim())
    .filter((p) => p && !seen.has(p.toLowerCase()) && seen.add(p.toLowerCase()));
  if (places.length === 0) throw new Error("Type the places to compare, one a line.");
  if (places.length > MAX_PLACES) throw new Error(`A chart compares at most ${MAX_PLACES} places; ${places.length} were typed.`);
  return places;
}

/**
 * The block the column chart reads, written at the zero-based `row` and `column`: a header
 * row (geography and the metric), then one row per place: the place as text and
 * =PROP.MARKET of the cell beside it, so a place typed below and the formula filled down join
 * the chart at the next calculation.
 */
export function placesBlock(places: string[], assetType: string, metric: string, at: { row: number; column: number }): CellInput[][] {
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  return [
    ["geography", metric],
    ...places.map((place, i) => [
      place,
      { formula: `=PROP.MARKET($${cellAddress(at.row + 1 + i, at.column)},${quote(assetType)},${quote(metric)})` },
    ]),
  ];
}

/** The column chart of `figure` across the places of a block whose header cell is `anchor`. */
export function placesChartSpec(anchor: string, assetType: string, figure: ChartFigure): ChartSpec {
  return {
    anchor,
    kind: "column",
    title: `${figure.label}, ${assetType} by place`,
    xColumn: 0,
    yColumns: [1],
    placeAt: besideOf(anchor, 3),
    source: "block",
  };
}

function figure(kind: SearchKind, field: string, column: number): ChartFigure {
  // A market history's columns are market metrics: the market's fields describe them.
  const info = [...RESOURCES[SEARCH_KINDS[kind].resource], ...RESOURCES.market].find((f) => f.name === field);
  return { column, field, label: info ? fieldLabel(info) : field };
}

/** The cell `columns` to the right of `anchor`, on its sheet, as "'Sheet'!H3". */
function besideOf(anchor: string, columns: number): string {
  const { sheet, cells } = splitAddress(anchor);
  const { row, column } = parseCell(cells);
  return `'${sheet.replace(/'/g, "''")}'!${cellAddress(row, column + columns)}`;
}
