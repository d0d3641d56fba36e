// excel-charts.ts against office-addin-mock: insertChart and rebindCharts, with the few Excel
// objects they touch. The mocks enforce the load/sync discipline (a property reads as an error
// string until loaded and synced), so these tests catch a missing load or sync; the browser
// test (history-chart.test.ts) runs the same code against the stand-in Excel's calculation.
import { OfficeMockObject } from "office-addin-mock";
import { REGISTRY_KEY } from "../../src/taskpane/excel-charts";
import { createExcelWorkbook } from "../../src/taskpane/excel-workbook";
import type { ChartSpec } from "../../src/taskpane/workbook-types";

type Data = Record<string, unknown>;
type Objects = Record<string, any>;

const SPEC: ChartSpec = {
  anchor: "'Market'!A3",
  kind: "line",
  title: "Vacancy rate, Austin",
  xColumn: 0,
  yColumns: [1],
  placeAt: "'Market'!H3",
};
const HEADER = ["period_end", "vacancy_rate", "asking_rent_sqft_year"];
/** A history spill's values: the header, `periods` rows of numbers, and the note row whose figures are empty text. */
const historyValues = (periods: number) => [
  HEADER,
  ...Array.from({ length: periods }, (_, i) => [45000 + 91 * i, 0.05 + i / 1000, 30 + i]),
  ["Thin (fewer than 5 properties): 2024-Q1.", "", ""],
];

/**
 * A workbook with one sheet, Market, whose anchor A3 spills `values` (null: no spill yet), the
 * chart `charts` already hold, and the registry setting (undefined: none). Records what the
 * code did to the chart and its series.
 */
function workbook(values: unknown[][] | null, registry?: unknown, existingChart = false) {
  const rows = values?.length ?? 0;
  const series: Array<{ name?: string; values?: string; x?: string; deleted?: boolean }> = [];
  const seriesMock = (entry: (typeof series)[number]) => ({
    set name(name: string) {
      entry.name = name;
    },
    setValues: (r: { address: string }) => (entry.values = r.address),
    setXAxisValues: (r: { address: string }) => (entry.x = r.address),
    delete: () => (entry.deleted = true),
  });
  const added: Data[] = [];
  const settingsWritten: Array<[string, unknown]> = [];
  const chart = {
    title: {} as Data,
    legend: {} as Data,
    position: "",
    setPosition(cell: string) {
      this.position = cell;
    },
    series: {
      items: [] as unknown[],
      load() {
        return this;
      },
      add: () => {
        const entry = {};
        series.push(entry);
        return seriesMock(entry);
      },
    },
  } as any;
  // The placeholder series the chart is made with (from the anchor cell).
  const placeholder = { name: "Series1" };
  series.push(placeholder);
  chart.series.items = [seriesMock(placeholder)];

  const cellsOf = (row: number, column: number, count: number, columns: number) =>
    `Market!${String.fromCharCode(65 + column)}${row + 1}${count > 1 || columns > 1 ? `:${String.fromCharCode(65 + column + columns - 1)}${row + count}` : ""}`;
  const objects: Record<string, Data> = {
    sheet: { name: "Market" },
    anchor: {},
    spill: { address: `Market!A3:C${2 + rows}`, rowIndex: 2, columnIndex: 0, rowCount: rows, columnCount: 3 },
    block: { values: values ?? [[""]] },
    setting: { value: registry === undefined ? undefined : JSON.stringify(registry) },
    charts: { items: existingChart ? [{ name: "PROP Vacancy rate, Austin" }] : [] },
  };
  const root: any = new OfficeMockObject({ objects });
  const o = root.objects as Objects;
  for (const name of Object.keys(objects)) o[name].isNullObject = false;
  o.spill.isNullObject = values === null;
  o.setting.isNullObject = registry === undefined;
  o.charts.items = existingChart ? [{ name: "PROP Vacancy rate, Austin" }] : [];
  o.charts.load = () => o.charts;
  o.charts.add = (type: string, source: unknown, by: string) => {
    added.push({ type, source, by });
    return chart;
  };
  o.charts.getItemOrNullObject = (name: string) =>
    existingChart && name === "PROP Vacancy rate, Austin" ? Object.assign(chart, { isNullObject: false }) : { isNullObject: true };
  o.sheet.charts = o.charts;
  o.sheet.getRange = (a1: string) => {
    expect(a1).toBe("A3");
    return o.anchor;
  };
  o.anchor.getSpillingToRangeOrNullObject = () => o.spill;
  o.sheet.getRangeByIndexes = (row: number, column: number, count: number, columns: number) => {
    // The spill's values are read whole; a header cell for a series' name; columns for its data.
    if (row === 2 && column === 0 && count === rows && columns === 3) return o.block;
    if (row === 2 && count === 1) return { load: () => ({ text: [[HEADER[column]]] }) };
    return { address: cellsOf(row, column, count, columns) };
  };
  root.workbook = {
    worksheets: { getItemOrNullObject: (name: string) => (name === "Market" ? o.sheet : { isNullObject: true }) },
    settings: {
      getItemOrNullObject: (key: string) => {
        expect(key).toBe(REGISTRY_KEY);
        return o.setting;
      },
      add: (key: string, value: unknown) => settingsWritten.push([key, JSON.parse(String(value))]),
    },
  };
  (globalThis as any).Excel = { run: async (batch: (context: unknown) => Promise<unknown>) => batch(root) };
  return { chart, series, added, settingsWritten };
}

afterEach(() => delete (globalThis as any).Excel);

describe("insertChart", () => {
  test("a line chart of the spill's data rows (not its note row), named, placed, and recorded as bound", async () => {
    const { chart, series, added, settingsWritten } = workbook(historyValues(4), undefined);
    expect(await createExcelWorkbook().insertChart(SPEC)).toBe("PROP Vacancy rate, Austin");
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ type: "Line", by: "Columns" });
    expect(chart).toMatchObject({ name: "PROP Vacancy rate, Austin", position: "H3", width: 480, height: 270 });
    expect(chart.title.text).toBe("Vacancy rate, Austin");
    expect(chart.legend.visible).toBe(false);
    // The placeholder series is reused: the four periods, not the note row under them.
    expect(series).toEqual([{ name: "vacancy_rate", values: "Market!B4:B7", x: "Market!A4:A7" }]);
    expect(settingsWritten).toEqual([
      [
        REGISTRY_KEY,
        [{ chart: "PROP Vacancy rate, Austin", sheet: "Market", anchor: "'Market'!A3", xColumn: 0, yColumns: [1], bound: "A3:C8 4" }],
      ],
    ]);
  });

  test("before the formula has spilled: the chart waits without series, recorded with nothing bound yet", async () => {
    const { series, settingsWritten } = workbook(null, []);
    await createExcelWorkbook().insertChart({ ...SPEC, kind: "column" });
    expect(series).toEqual([{ name: "Series1", deleted: true }]);
    expect(settingsWritten[0][1]).toEqual([expect.objectContaining({ bound: null })]);
  });

  test("a spec that cannot be right is refused before Excel is touched", async () => {
    workbook(historyValues(2));
    const port = createExcelWorkbook();
    await expect(port.insertChart({ ...SPEC, anchor: "A3" })).rejects.toThrow(/not one cell with its sheet/);
    await expect(port.insertChart({ ...SPEC, yColumns: [0] })).rejects.toThrow(/holds the x values/);
    await expect(port.insertChart({ ...SPEC, yColumns: [] })).rejects.toThrow(/at least one column/);
    await expect(port.insertChart({ ...SPEC, title: " " })).rejects.toThrow(/needs a title/);
    // A spill narrower than the columns asked for.
    await expect(port.insertChart({ ...SPEC, yColumns: [5] })).rejects.toThrow(/lack the columns to chart/);
  });
});

describe("rebindCharts", () => {
  const binding = {
    chart: "PROP Vacancy rate, Austin",
    sheet: "Market",
    anchor: "'Market'!A3",
    xColumn: 0,
    yColumns: [1],
    bound: "A3:C8 4",
  };

  test("a spill that grew: the series cover its rows now, and the registry says so", async () => {
    const { series, settingsWritten } = workbook(historyValues(8), [binding], true);
    expect(await createExcelWorkbook().rebindCharts!()).toBe(1);
    expect(series).toEqual([{ name: "vacancy_rate", values: "Market!B4:B11", x: "Market!A4:A11" }]);
    expect(settingsWritten).toEqual([[REGISTRY_KEY, [{ ...binding, bound: "A3:C12 8" }]]]);
  });

  test("a spill that did not change: nothing is set or written", async () => {
    const { series, settingsWritten } = workbook(historyValues(4), [binding], true);
    expect(await createExcelWorkbook().rebindCharts!()).toBe(0);
    expect(series).toEqual([{ name: "Series1" }]);
    expect(settingsWritten).toEqual([]);
  });

  test("a chart the user deleted is forgotten", async () => {
    const { settingsWritten } = workbook(historyValues(8), [binding], false);
    expect(await createExcelWorkbook().rebindCharts!()).toBe(0);
    expect(settingsWritten).toEqual([[REGISTRY_KEY, []]]);
  });
});
