// Browser entry of the stand-in Excel host, bundled by host.ts into one script that runs
// before the page's own (page.addInitScript). It defines the globals Office would provide in
// Excel: Excel, CustomFunctions, OfficeRuntime.storage and Office.context.requirements, and
// window.__excelHost for tests.
//
// office.js outside Office keeps an existing CustomFunctions object but assigns its own
// associate (and delayInitialization, _association) onto it, which would send functions.js's
// associations to office.js instead of here. So associate is an accessor whose setter ignores
// office.js's function; Excel and OfficeRuntime office.js leaves alone.
import { contains, formatAddress, parseAddress } from "./addresses";
import { excelNamespace } from "./api-workbook";
import { Calculation, CustomFunctionsError, ERROR_CODE, type FunctionShapes } from "./calculation";
import { parseInput } from "./cell-input";
import { seriesLabels, seriesNumbers } from "./grid-charts";
import { createGridView } from "./grid-view";
import type { ExcelHostApi, HostConfig } from "./host-api";
import { WorkbookModel, isError, rangeValue, shownFormat } from "./workbook-model";

const global = window as unknown as Record<string, unknown>;
const config = (global.__excelHostConfig ?? {}) as HostConfig;

const model = new WorkbookModel(config.sheets);
const calculation = new Calculation(model, (config.functionShapes ?? {}) as FunctionShapes);
const grid = createGridView(model);
const ignoredAssociations: string[] = [];

function associate(idOrMappings: string | Record<string, (...args: unknown[]) => unknown>, fn?: (...args: unknown[]) => unknown): void {
  const mappings = typeof idOrMappings === "string" ? { [idOrMappings]: fn! } : idOrMappings;
  for (const [id, f] of Object.entries(mappings)) calculation.associated.set(id.toUpperCase(), f);
}

const customFunctions = { Error: CustomFunctionsError, ErrorCode: ERROR_CODE, delayInitialization() {} };
Object.defineProperty(customFunctions, "associate", {
  enumerable: true,
  get: () => associate,
  set: (replacement: unknown) => void ignoredAssociations.push(String((replacement as { name?: string })?.name ?? typeof replacement)),
});
global.CustomFunctions = customFunctions;
global.Excel = excelNamespace({ model, calculation });
global.OfficeRuntime = { storage: createStorage() };
installRequirements();

/**
 * Office.context.requirements as Excel has it. office.js, loaded after this script, extends the
 * Office object it finds (or replaces it) and gives it a context of its own, which outside
 * Office has no requirements: Office is a view whose context answers `requirements` from
 * config.requirementSets whenever office.js's does not.
 */
function installRequirements(): void {
  const requirements = { isSetSupported };
  const views = new WeakMap<object, object>();
  const contextView = (context: object) => {
    let view = views.get(context);
    if (!view) {
      view = new Proxy(context, {
        get: (target, key) => Reflect.get(target, key, target) ?? (key === "requirements" ? requirements : undefined),
      });
      views.set(context, view);
    }
    return view;
  };
  const officeView = (office: object) =>
    new Proxy(office, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        return key === "context" ? contextView((value as object | undefined) ?? {}) : value;
      },
    });
  let office = officeView({});
  Object.defineProperty(global, "Office", {
    configurable: true,
    get: () => office,
    set: (value: object) => {
      if (value !== office) office = officeView(value);
    },
  });
}

/** Office.context.requirements.isSetSupported over config.requirementSets (a set's version covers every lower one). */
function isSetSupported(name: string, version?: string): boolean {
  const sets = config.requirementSets ?? { ExcelApi: "1.16", CustomFunctionsRuntime: "1.4" };
  const highest = Object.entries(sets).find(([set]) => set.toLowerCase() === name.toLowerCase())?.[1];
  if (highest === undefined) return false;
  const [major, minor] = (version ?? "1.1").split(".").map(Number);
  const [hasMajor, hasMinor] = highest.split(".").map(Number);
  return hasMajor > major || (hasMajor === major && (hasMinor ?? 0) >= (minor ?? 0));
}

/**
 * OfficeRuntime.storage over localStorage (so a reload keeps the key, as Office keeps it), under
 * a prefix; over memory in a document that may not use localStorage (an opaque origin).
 */
function createStorage() {
  const prefix = "excel-host-storage:";
  const localStorage = usableLocalStorage();
  if (config.storage && !localStorage.getItem(`${prefix}__seeded`)) {
    for (const [k, v] of Object.entries(config.storage)) localStorage.setItem(prefix + k, v);
    localStorage.setItem(`${prefix}__seeded`, "1");
  }
  const keys = () =>
    Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? "")
      .filter((k) => k.startsWith(prefix) && k !== `${prefix}__seeded`)
      .map((k) => k.slice(prefix.length));
  return {
    getItem: async (k: string) => localStorage.getItem(prefix + k),
    setItem: async (k: string, v: string) => localStorage.setItem(prefix + k, v),
    removeItem: async (k: string) => localStorage.removeItem(prefix + k),
    getItems: async (ks: string[]) => Object.fromEntries(ks.map((k) => [k, localStorage.getItem(prefix + k)])),
    setItems: async (items: Record<string, string>) => Object.entries(items).forEach(([k, v]) => localStorage.setItem(prefix + k, v)),
    removeItems: async (ks: string[]) => ks.forEach((k) => localStorage.removeItem(prefix + k)),
    getKeys: async () => keys(),
  };
}

function usableLocalStorage(): Storage {
  try {
    return window.localStorage;
  } catch {
    const items = new Map<string, string>();
    return {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
      clear: () => items.clear(),
      key: (i: number) => [...items.keys()][i] ?? null,
      get length() {
        return items.size;
      },
    } as Storage;
  }
}

function target(sheetName: string | null, address: string) {
  const parsed = parseAddress(address);
  const sheet = model.requireSheet(parsed.sheet ?? sheetName);
  return { sheet, rect: parsed.rect };
}

function grid2<V>(
  sheetName: string | null,
  address: string,
  cell: (sheet: ReturnType<typeof target>["sheet"], r: number, c: number) => V,
): V[][] {
  const { sheet, rect } = target(sheetName, address);
  return Array.from({ length: rect.rows }, (_, i) =>
    Array.from({ length: rect.columns }, (_, j) => cell(sheet, rect.row + i, rect.column + j)),
  );
}

const api: ExcelHostApi = {
  setCells(sheetName, topLeft, rows) {
    const { sheet, rect } = target(sheetName, topLeft);
    const contents = rows.map((row, i) =>
      row.map((value, j) => parseInput(value, sheet.cells.get(`${rect.row + i},${rect.column + j}`)?.numberFormat)),
    );
    model.setContents(
      sheet,
      { row: rect.row, column: rect.column, rows: rows.length, columns: Math.max(0, ...rows.map((r) => r.length)) },
      contents,
    );
  },
  setFormula(sheetName, address, formula) {
    api.setCells(sheetName, address, [[formula]]);
  },
  addSheet(name) {
    model.addSheet(name);
  },
  setFill(sheetName, address, color) {
    const { sheet, rect } = target(sheetName, address);
    model.format(sheet, rect, (cell) => (cell.fill = color));
  },
  addConditionalFormat(sheetName, address, formula, fill) {
    const { sheet, rect } = target(sheetName, address);
    sheet.conditionalFormats.push({ sheet, rect, type: "Custom", formula, fill });
    model.viewChanged(sheet);
  },
  conditionalFormats: (sheetName) =>
    model.requireSheet(sheetName).conditionalFormats.map((f) => ({
      address: formatAddress(f.sheet.name, f.rect),
      formula: f.formula,
      fill: f.fill,
    })),
  select(address) {
    const { sheet, rect } = target(null, address);
    model.active = sheet;
    sheet.selection = rect;
    model.viewChanged();
  },
  selection: () => formatAddress(model.active.name, model.active.selection),
  cells: (sheetName, address) => grid2(sheetName, address, (sheet, r, c) => rangeValue(model.shown(sheet, r, c))),
  formulas: (sheetName, address) => grid2(sheetName, address, (sheet, r, c) => model.formulaText(sheet, r, c)),
  shownFormats: (sheetName, address) =>
    grid2(sheetName, address, (sheet, r, c) => shownFormat(model.shown(sheet, r, c), sheet.cells.get(`${r},${c}`))),
  cellInfo(sheetName, address) {
    const { sheet, rect } = target(sheetName, address);
    const shown = model.shown(sheet, rect.row, rect.column);
    const cell = sheet.cells.get(`${rect.row},${rect.column}`) ?? {};
    const spill = model.spillAt(sheet, rect.row, rect.column);
    return {
      value: rangeValue(shown),
      formula: cell.formula ?? null,
      error: isError(shown) ? shown.error : null,
      message: isError(shown) ? (shown.message ?? null) : null,
      prefixed: Boolean(cell.prefixed),
      numberFormat: cell.numberFormat ?? "General",
      shownFormat: shownFormat(shown, cell),
      bold: Boolean(cell.bold),
      italic: Boolean(cell.italic),
      fill: cell.fill ?? null,
      conditionalFill:
        [...sheet.conditionalFormats].reverse().find((f) => contains(f.rect, rect.row, rect.column) && f.fill !== null)?.fill ?? null,
      spillParent: spill ? formatAddress(sheet.name, { row: spill.anchor[0], column: spill.anchor[1], rows: 1, columns: 1 }) : null,
      spillRange: spill && spill.anchor[0] === rect.row && spill.anchor[1] === rect.column ? formatAddress(sheet.name, spill.rect) : null,
    };
  },
  comments: () =>
    model.comments.map((c) => ({
      address: formatAddress(c.sheet.name, { row: c.row, column: c.column, rows: 1, columns: 1 }),
      content: c.content,
      replies: [...c.replies],
    })),
  tables: () => model.tables.map((t) => ({ name: t.name, address: formatAddress(t.sheet.name, t.rect), style: t.style })),
  sheets: () =>
    model.sheets.map((s) => {
      const used = model.usedRect(s, false);
      return {
        name: s.name,
        active: s === model.active,
        frozenAt: s.frozenAt,
        autofitted: [...s.autofitted],
        usedRange: used && formatAddress(s.name, used),
      };
    }),
  functions: () => [...calculation.associated.keys()].sort(),
  ignoredAssociations: () => [...ignoredAssociations],
  invocations: () => calculation.invocations,
  waitForCalculation: () => calculation.idle(),
  calculateAll() {
    calculation.calculateAll();
  },
  showGrid(visible = true) {
    grid.setVisible(visible);
  },
  charts: () =>
    model.charts.map((chart) => ({
      name: chart.name,
      sheet: chart.sheet.name,
      type: chart.type,
      title: chart.title,
      at: formatAddress(chart.sheet.name, { ...chart.at, rows: 1, columns: 1 }),
      series: chart.series.map((s) => ({
        name: s.name,
        values: s.values && formatAddress(s.values.sheet.name, s.values.rect),
        xValues: s.xValues && formatAddress(s.xValues.sheet.name, s.xValues.rect),
        shownValues: seriesNumbers(model, s.values).map((v) => v ?? ""),
        shownX: seriesLabels(model, s.xValues),
      })),
    })),
};
global.__excelHost = api;

if (config.showGrid || /[?&]excelGrid=1\b/.test(location.search)) grid.setVisible(true);
