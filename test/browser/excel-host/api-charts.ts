// Charts and workbook settings in the stand-in: the parts of Excel.Chart, ChartSeries and
// SettingCollection that excel-charts.ts uses (its header lists them), over the workbook model.
// A series holds fixed ranges, as Excel's do: when a spill grows the series still cover the
// old cells until something sets them again.
import { parseAddress } from "./addresses";
import { ClientObject, CollectionProxy, ExcelApiError, type RequestContext } from "./api-base";
import { type RangeProxy, targetOf } from "./api-range";
import type { ChartModel, ChartSeriesModel, SeriesSource, SheetModel } from "./workbook-model";

const CHART_TYPES = new Set(["Line", "LineMarkers", "ColumnClustered", "BarClustered", "Pie", "Area", "XYScatter"]);

export class ChartCollectionProxy extends CollectionProxy<ChartModel, ChartProxy> {
  constructor(
    context: RequestContext,
    private readonly sheet: () => SheetModel,
  ) {
    super(context, () => context.host.model.charts.filter((c) => c.sheet === sheet()));
  }

  protected item(chart: ChartModel): ChartProxy {
    return new ChartProxy(this.context, () => chart);
  }

  /** A chart of `source` with one series per column (seriesBy "Columns"), named Chart 1, Chart 2, … until renamed. */
  add(type: string, source: RangeProxy, seriesBy = "Auto"): ChartProxy {
    let added: ChartModel | null = null;
    this.context.enqueue(() => {
      if (!CHART_TYPES.has(type)) throw new ExcelApiError("InvalidArgument", `the stand-in draws no "${type}" chart`);
      if (seriesBy === "Rows") throw new ExcelApiError("InvalidArgument", "the stand-in makes series by column only");
      const { model } = this.context.host;
      const sheet = this.sheet();
      const target = source.require();
      let n = model.charts.length + 1;
      while (model.charts.some((c) => c.name === `Chart ${n}`)) n++;
      const series: ChartSeriesModel[] = Array.from({ length: target.rect.columns }, (_, i) => ({
        name: `Series${i + 1}`,
        values: { sheet: target.sheet, rect: { ...target.rect, column: target.rect.column + i, columns: 1 } },
        xValues: null,
      }));
      added = {
        name: `Chart ${n}`,
        sheet,
        type,
        title: "",
        at: { row: 0, column: 0 },
        width: 360,
        height: 216,
        legend: { visible: true, position: "Right" },
        series,
      };
      model.charts.push(added);
      model.viewChanged();
    });
    return new ChartProxy(this.context, () => added);
  }

  getItem(name: string): ChartProxy {
    return new ChartProxy(this.context, () => {
      const chart = this.find(name);
      if (!chart) throw new ExcelApiError("ItemNotFound", `The requested resource doesn't exist: chart "${name}".`);
      return chart;
    });
  }

  getItemOrNullObject(name: string): ChartProxy {
    return new ChartProxy(this.context, () => this.find(name) ?? null, true);
  }

  private find(name: string): ChartModel | undefined {
    const sheet = this.sheet();
    return this.context.host.model.charts.find((c) => c.sheet === sheet && c.name === name);
  }
}

export class ChartProxy extends ClientObject<ChartModel> {
  protected readonly scalarProperties = ["name", "chartType", "width", "height"];

  protected read(chart: ChartModel, property: string): unknown {
    if (property === "name" || property === "width" || property === "height") return chart[property];
    if (property === "chartType") return chart.type;
    throw new ExcelApiError("InvalidArgument", `the stand-in Chart has no property ${property}`);
  }

  get name(): string {
    return this.loadedValue("name");
  }
  set name(name: string) {
    this.change((chart) => {
      const taken = this.context.host.model.charts.some((c) => c !== chart && c.sheet === chart.sheet && c.name === name);
      if (!name || taken) throw new ExcelApiError("InvalidArgument", `"${name}" is not a name this chart can take.`);
      chart.name = name;
    });
  }
  set width(points: number) {
    this.change((chart) => (chart.width = points));
  }
  set height(points: number) {
    this.change((chart) => (chart.height = points));
  }

  get title() {
    const change = (f: (chart: ChartModel) => void) => this.change(f);
    return {
      set text(text: string) {
        change((chart) => (chart.title = text));
      },
    };
  }

  get legend() {
    const change = (f: (chart: ChartModel) => void) => this.change(f);
    return {
      set visible(visible: boolean) {
        change((chart) => (chart.legend.visible = visible));
      },
      set position(position: string) {
        change((chart) => (chart.legend.position = position));
      },
    };
  }

  /** The same collection object at every access, as Office.js keeps its navigation properties. */
  get series(): ChartSeriesCollectionProxy {
    this.seriesProxy ??= new ChartSeriesCollectionProxy(this.context, () => this.require());
    return this.seriesProxy;
  }
  private seriesProxy: ChartSeriesCollectionProxy | null = null;

  /** Places the chart's top-left corner at a cell (the stand-in keeps its size: no end cell). */
  setPosition(startCell: string | RangeProxy): void {
    this.change((chart) => {
      const { rect } =
        typeof startCell === "string" ? { rect: parseAddress(startCell).rect } : targetOf(this.context, startCell, chart.sheet);
      chart.at = { row: rect.row, column: rect.column };
    });
  }

  delete(): void {
    this.change((chart) => {
      const charts = this.context.host.model.charts;
      charts.splice(charts.indexOf(chart), 1);
    });
  }

  private change(f: (chart: ChartModel) => void): void {
    this.act((chart) => {
      f(chart);
      this.context.host.model.viewChanged();
    });
  }
}

export class ChartSeriesCollectionProxy extends CollectionProxy<ChartSeriesModel, ChartSeriesProxy> {
  constructor(
    context: RequestContext,
    private readonly chart: () => ChartModel,
  ) {
    super(context, () => chart().series);
  }

  protected item(series: ChartSeriesModel): ChartSeriesProxy {
    return new ChartSeriesProxy(this.context, () => series, this.chart);
  }

  /** A new series with no data yet, at the end. */
  add(name?: string): ChartSeriesProxy {
    let added: ChartSeriesModel | null = null;
    this.context.enqueue(() => {
      const chart = this.chart();
      added = { name: name ?? `Series${chart.series.length + 1}`, values: null, xValues: null };
      chart.series.push(added);
      this.context.host.model.viewChanged();
    });
    return new ChartSeriesProxy(this.context, () => added, this.chart);
  }
}

export class ChartSeriesProxy extends ClientObject<ChartSeriesModel> {
  protected readonly scalarProperties = ["name"];

  constructor(
    context: RequestContext,
    resolver: () => ChartSeriesModel | null,
    private readonly chart: () => ChartModel,
  ) {
    super(context, resolver);
  }

  protected read(series: ChartSeriesModel, property: string): unknown {
    if (property === "name") return series.name;
    throw new ExcelApiError("InvalidArgument", `the stand-in ChartSeries has no property ${property}`);
  }

  get name(): string {
    return this.loadedValue("name");
  }
  set name(name: string) {
    this.change((series) => (series.name = name));
  }

  setValues(source: RangeProxy): void {
    this.change((series) => (series.values = oneColumn(source)));
  }

  setXAxisValues(source: RangeProxy): void {
    this.change((series) => (series.xValues = oneColumn(source)));
  }

  delete(): void {
    this.change((series) => {
      const all = this.chart().series;
      all.splice(all.indexOf(series), 1);
    });
  }

  private change(f: (series: ChartSeriesModel) => void): void {
    this.act((series) => {
      f(series);
      this.context.host.model.viewChanged();
    });
  }
}

/** A series reads one row or one column of cells, as in Excel. */
function oneColumn(source: RangeProxy): SeriesSource {
  const { sheet, rect } = source.require();
  if (rect.rows !== 1 && rect.columns !== 1) throw new ExcelApiError("InvalidArgument", "A series reads one row or one column of cells.");
  return { sheet, rect };
}

class SettingProxy extends ClientObject<{ key: string; value: unknown }> {
  protected readonly scalarProperties = ["key", "value"];
  protected read(setting: { key: string; value: unknown }, property: string): unknown {
    if (property === "key" || property === "value") return setting[property];
    throw new ExcelApiError("InvalidArgument", `the stand-in Setting has no property ${property}`);
  }
  get key(): string {
    return this.loadedValue("key");
  }
  get value(): unknown {
    return this.loadedValue("value");
  }
}

/** Workbook settings: JSON-serialisable values by key, kept with the workbook. */
export class SettingCollectionProxy extends CollectionProxy<{ key: string; value: unknown }, SettingProxy> {
  constructor(context: RequestContext) {
    super(context, () => [...context.host.model.settings].map(([key, value]) => ({ key, value })));
  }

  protected item(setting: { key: string; value: unknown }): SettingProxy {
    return new SettingProxy(this.context, () => setting);
  }

  /** Sets a setting, replacing one with the same key; the value is stored as Excel stores it, through JSON. */
  add(key: string, value: unknown): SettingProxy {
    this.context.enqueue(() => {
      if (!key) throw new ExcelApiError("InvalidArgument", "A setting needs a key.");
      this.context.host.model.settings.set(key, JSON.parse(JSON.stringify(value)));
    });
    return this.getItem(key);
  }

  getItem(key: string): SettingProxy {
    return new SettingProxy(this.context, () => {
      const { settings } = this.context.host.model;
      if (!settings.has(key)) throw new ExcelApiError("ItemNotFound", `The requested resource doesn't exist: setting "${key}".`);
      return { key, value: settings.get(key) };
    });
  }

  getItemOrNullObject(key: string): SettingProxy {
    return new SettingProxy(
      this.context,
      () => {
        const { settings } = this.context.host.model;
        return settings.has(key) ? { key, value: settings.get(key) } : null;
      },
      true,
    );
  }
}
