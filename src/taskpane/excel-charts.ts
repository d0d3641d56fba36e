// Native Excel charts over a PROP formula's spill, kept bound to it (one of the excel-*.ts
// modules that call Excel.run).
//
// A chart series in the Excel JavaScript API takes a Range (Chart.setData, ChartSeries.setValues
// and setXAxisValues all do): no call accepts a spill reference ("A3#") or a defined name, so a
// series set from an add-in covers the cells the spill covered then. So the add-in keeps the
// chart bound itself: each chart it inserts is recorded in the workbook (the setting
// REGISTRY_KEY: chart, sheet, anchor, columns, the extent last bound), and rebindCharts points
// the series at the spill's current extent whenever it changed. The shared runtime runs it on
// every worksheet calculation (watchBoundCharts, from taskpane.ts), once when it starts, and
// after the pane's and the ribbon's Refresh. See docs/decisions.md.
//
// Excel JavaScript API used here (the stand-in test/browser/excel-host/ implements it):
//   ExcelApi 1.1  worksheet.charts.add, chart.name, chart.title.text, chart.setPosition,
//                 chart.width/height, chart.legend.visible/position
//   ExcelApi 1.4  workbook.settings (add, getItemOrNullObject), charts.getItemOrNullObject
//   ExcelApi 1.7  range.getSurroundingRegion, chart.series (load items, add), series.setValues/setXAxisValues, series.name, series.delete
//   ExcelApi 1.8  worksheets.onCalculated
//   ExcelApi 1.12 range.getSpillingToRangeOrNullObject
import {
  type ChartBinding,
  type ChartCells,
  checkSpec,
  dataRowsOf,
  hasColumns,
  parseRegistry,
  seriesCells,
  uniqueChartName,
} from "./chart-binding";
import { GEOMETRY, type Rect, parseCell, rectAddress, rectOf, splitAddress } from "./excel-addresses";
import type { ChartSpec } from "./workbook-types";

/** The workbook setting holding the bound charts (JSON): saved with the workbook, so the bindings outlive the session. */
export const REGISTRY_KEY = "PROP.boundCharts";
/** A chart's size in points: about eight columns by fourteen rows at Excel's default sizes. */
const CHART_WIDTH = 480;
const CHART_HEIGHT = 270;
/** How long watchBoundCharts lets calculations settle before it rebinds (a refresh calculates in many small batches). */
const SETTLE_MS = 300;

export async function insertChart(spec: ChartSpec): Promise<string> {
  checkSpec(spec);
  const anchorAt = splitAddress(spec.anchor);
  const placeAt = splitAddress(spec.placeAt);
  return Excel.run(async (context) => {
    const anchorSheet = context.workbook.worksheets.getItemOrNullObject(anchorAt.sheet);
    const placeSheet = context.workbook.worksheets.getItemOrNullObject(placeAt.sheet);
    await context.sync();
    if (anchorSheet.isNullObject) throw new Error(`There is no sheet "${anchorAt.sheet}" for the chart's formula.`);
    if (placeSheet.isNullObject) throw new Error(`There is no sheet "${placeAt.sheet}" to place the chart on.`);
    const charts = placeSheet.charts.load("items/name");
    const registry = readRegistry(context);
    const binding: ChartBinding = {
      chart: "",
      sheet: placeAt.sheet,
      anchor: spec.anchor,
      xColumn: spec.xColumn,
      yColumns: [...spec.yColumns],
      bound: null,
      ...(spec.source === "block" ? { source: "block" as const } : {}),
    };
    const extent = await readExtent(context, anchorSheet, binding);
    if (extent.rect && !hasColumns(extent.rect, spec.xColumn, spec.yColumns))
      throw new Error(`The cells at ${spec.anchor} (${rectAddress(extent.rect)}) lack the columns to chart.`);

    binding.chart = uniqueChartName(
      spec.title,
      charts.items.map((chart) => chart.name),
    );
    // A chart is made from a range; the anchor cell stands in until the series are set below.
    const chart = placeSheet.charts.add(spec.kind === "line" ? "Line" : "ColumnClustered", anchorSheet.getRange(anchorAt.cells), "Columns");
    chart.name = binding.chart;
    chart.title.text = spec.title;
    chart.setPosition(placeAt.cells);
    chart.width = CHART_WIDTH;
    chart.height = CHART_HEIGHT;
    chart.legend.visible = spec.yColumns.length > 1;
    chart.legend.position = "Bottom";
    await bindSeries(context, chart, anchorSheet, extent.cells);
    binding.bound = extent.cells ? extent.key : null;
    // An entry left by a deleted chart of the same name on this sheet is not this chart's.
    const others = registry.bindings().filter((b) => !(b.sheet === binding.sheet && b.chart === binding.chart));
    writeRegistry(context, [...others, binding]);
    await context.sync();
    return binding.chart;
  });
}

/**
 * Points each bound chart whose cells changed extent at the cells as they are now, and forgets
 * the charts that were deleted. A formula that shows an error or has not spilled yet leaves its
 * chart as it is. Returns how many charts were changed.
 */
export async function rebindCharts(): Promise<number> {
  return Excel.run(async (context) => {
    const registry = readRegistry(context);
    await context.sync();
    const bindings = registry.bindings();
    if (bindings.length === 0) return 0;
    const found = bindings.map((binding) => ({
      binding,
      chartSheet: context.workbook.worksheets.getItemOrNullObject(binding.sheet),
      anchorSheet: context.workbook.worksheets.getItemOrNullObject(splitAddress(binding.anchor).sheet),
    }));
    await context.sync();
    const live = found
      .filter((f) => !f.chartSheet.isNullObject && !f.anchorSheet.isNullObject)
      .map((f) => ({ ...f, chart: f.chartSheet.charts.getItemOrNullObject(f.binding.chart) }));
    await context.sync();
    const kept: ChartBinding[] = [];
    let changed = 0;
    for (const { binding, chart, anchorSheet } of live) {
      // A chart the user deleted (or renamed) is no longer the add-in's to keep.
      if (chart.isNullObject) continue;
      kept.push(binding);
      const extent = await readExtent(context, anchorSheet, binding);
      if (!extent.cells || extent.key === binding.bound) continue;
      await bindSeries(context, chart, anchorSheet, extent.cells);
      binding.bound = extent.key;
      changed++;
    }
    if (changed > 0 || kept.length !== bindings.length) writeRegistry(context, kept);
    await context.sync();
    return changed;
  });
}

/**
 * The cells a binding reads now: the anchor's spill (or, for a block, its surrounding region
 * from the anchor down and right), without trailing rows that hold no number to plot. `cells`
 * is null while there is nothing to plot (no spill yet, an error, no data row); `key` tells
 * one extent from another.
 */
async function readExtent(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  binding: ChartBinding,
): Promise<{ rect: Rect | null; cells: ChartCells | null; key: string }> {
  const anchorAt = parseCell(splitAddress(binding.anchor).cells);
  const anchor = sheet.getRange(splitAddress(binding.anchor).cells);
  const extent = (binding.source === "block" ? anchor.getSurroundingRegion() : anchor.getSpillingToRangeOrNullObject()).load(GEOMETRY);
  await context.sync();
  if (extent.isNullObject) return { rect: null, cells: null, key: "" };
  const whole = rectOf(extent);
  // A region may reach above or left of the anchor: the chart's cells start at the anchor.
  const rect: Rect = {
    row: anchorAt.row,
    column: anchorAt.column,
    rows: whole.row + whole.rows - anchorAt.row,
    columns: whole.column + whole.columns - anchorAt.column,
  };
  if (rect.rows < 2 || !hasColumns(rect, binding.xColumn, binding.yColumns)) return { rect, cells: null, key: "" };
  const values = range(sheet, rect).load("values");
  await context.sync();
  const rows = dataRowsOf(values.values, binding.yColumns);
  return { rect, cells: seriesCells(rect, binding.xColumn, binding.yColumns, rows), key: `${rectAddress(rect)} ${rows}` };
}

/**
 * Rebinds the bound charts after each worksheet calculation while the add-in's runtime is
 * loaded, and once now (the spills may have changed while it was not). Calculations come in
 * bursts (a refresh calculates formulas a few at a time): the rebind waits for SETTLE_MS of
 * quiet, and never runs twice at once. Does nothing where Excel lacks ExcelApi 1.8.
 */
export async function watchBoundCharts(onError: (err: unknown) => void = (err) => console.warn("Bound charts", err)): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      running = running.then(rebindCharts).catch(onError);
    }, SETTLE_MS);
  };
  const supported = Office.context?.requirements?.isSetSupported("ExcelApi", "1.8") ?? true;
  if (!supported) return;
  await Excel.run(async (context) => {
    context.workbook.worksheets.onCalculated.add(async () => schedule());
    await context.sync();
  });
  schedule();
}

/**
 * Sets the chart's series to `cells`: each existing series is reused in order (so the user's
 * formatting of it stays), missing ones added, extra ones deleted. With no cells (the formula
 * has not spilled yet) the chart is left without series until the first rebind.
 */
async function bindSeries(
  context: Excel.RequestContext,
  chart: Excel.Chart,
  sheet: Excel.Worksheet,
  cells: ChartCells | null,
): Promise<void> {
  const series = chart.series.load("items/name");
  const names = cells?.series.map((s) => range(sheet, s.name).load("text"));
  await context.sync();
  const wanted = cells?.series ?? [];
  series.items.slice(wanted.length).forEach((extra) => extra.delete());
  wanted.forEach((cell, i) => {
    const target = i < series.items.length ? series.items[i] : chart.series.add();
    target.name = String(names![i].text[0][0] ?? "") || `Series ${i + 1}`;
    target.setValues(range(sheet, cell.values));
    target.setXAxisValues(range(sheet, cells!.x));
  });
}

function range(sheet: Excel.Worksheet, rect: Rect): Excel.Range {
  return sheet.getRangeByIndexes(rect.row, rect.column, rect.rows, rect.columns);
}

/** The registry setting, loaded at the next sync; bindings() reads it after. */
function readRegistry(context: Excel.RequestContext) {
  const setting = context.workbook.settings.getItemOrNullObject(REGISTRY_KEY).load("value");
  return { bindings: (): ChartBinding[] => (setting.isNullObject ? [] : parseRegistry(setting.value)) };
}

function writeRegistry(context: Excel.RequestContext, bindings: ChartBinding[]): void {
  context.workbook.settings.add(REGISTRY_KEY, JSON.stringify(bindings));
}
