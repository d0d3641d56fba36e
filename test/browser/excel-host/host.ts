// Node side of the stand-in Excel host: bundles the browser part with esbuild, installs it in
// a playwright page before the page's scripts, and wraps window.__excelHost in typed calls.
//
//   const host = await installExcelHost(page, { functionsJson: path.join(DIST, "functions.json"), storage: { [SETTING_KEYS.apiKey]: key } });
//   await page.goto(`${base}/addin/taskpane.html`);
//   await host.setFormula("Sheet1", "A1", '=PROP.SEARCH("warehouse","TX","limit=5")');
//   await host.waitForCalculation();
//   await host.cells("Sheet1", "A1:F6");            // header row + 5 rows
//   const port = await host.workbookPort();          // the add-in's excel-workbook.ts, in the page
//   await port.readSelectedRows();
import fs from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import type { Page } from "playwright-core";
import type {
  CellSource,
  FormulaCell,
  FormulaOutcome,
  FrozenFormula,
  SelectedRows,
  SheetBlock,
  WorkbookPort,
} from "../../../src/taskpane/workbook-types";
import type { ExcelHostApi, HostConfig } from "./host-api";

export type { CellInfo, ExcelHostApi, Input, Value } from "./host-api";

const bundles = new Map<string, string>();

/** One IIFE script of `entry` and what it imports (built once per test process). */
function bundle(entry: string): string {
  let code = bundles.get(entry);
  if (!code) {
    const result = buildSync({
      entryPoints: [entry],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "chrome110",
      write: false,
      logLevel: "silent",
    });
    code = result.outputFiles[0].text;
    bundles.set(entry, code);
  }
  return code;
}

/** Which parameters of each function take a matrix, from the built functions.json. */
export function functionShapes(functionsJsonPath: string): NonNullable<HostConfig["functionShapes"]> {
  const metadata = JSON.parse(fs.readFileSync(functionsJsonPath, "utf8")) as {
    functions: Array<{ id: string; parameters?: Array<{ dimensionality?: string }> }>;
  };
  return Object.fromEntries(
    metadata.functions.map((f) => [f.id.toUpperCase(), { matrix: (f.parameters ?? []).map((p) => p.dimensionality === "matrix") }]),
  );
}

export interface InstallOptions extends Omit<HostConfig, "functionShapes"> {
  /** Path of the built functions.json; without it every parameter is taken as a scalar. */
  functionsJson?: string;
}

/** Installs the stand-in in `page`: it runs before every document the page loads from now on. */
export async function installExcelHost(page: Page, options: InstallOptions = {}): Promise<ExcelHost> {
  const { functionsJson, ...rest } = options;
  const config: HostConfig = { ...rest, ...(functionsJson ? { functionShapes: functionShapes(functionsJson) } : {}) };
  // Init scripts run in every frame; the host belongs to the pane's own document only.
  const script = `if (window === window.top) {\nwindow.__excelHostConfig = ${JSON.stringify(config)};\n${bundle(path.join(__dirname, "index.ts"))}\n}`;
  await page.addInitScript({ content: script });
  return new ExcelHost(page);
}

type HostWindow = { __excelHost: ExcelHostApi };
type Method = { [K in keyof ExcelHostApi]: ExcelHostApi[K] extends (...args: never[]) => unknown ? K : never }[keyof ExcelHostApi];

/** Typed calls into window.__excelHost (see host-api.ts for what each does). */
export class ExcelHost {
  constructor(readonly page: Page) {}

  private call<K extends Method>(name: K, ...args: Parameters<ExcelHostApi[K]>): Promise<Awaited<ReturnType<ExcelHostApi[K]>>> {
    return this.page.evaluate(([n, a]) => (window as unknown as HostWindow).__excelHost[n as K](...(a as [never, never, never, never])), [
      name,
      args,
    ] as const) as Promise<Awaited<ReturnType<ExcelHostApi[K]>>>;
  }

  setCells = (...a: Parameters<ExcelHostApi["setCells"]>) => this.call("setCells", ...a);
  setFormula = (...a: Parameters<ExcelHostApi["setFormula"]>) => this.call("setFormula", ...a);
  addSheet = (...a: Parameters<ExcelHostApi["addSheet"]>) => this.call("addSheet", ...a);
  setFill = (...a: Parameters<ExcelHostApi["setFill"]>) => this.call("setFill", ...a);
  addConditionalFormat = (...a: Parameters<ExcelHostApi["addConditionalFormat"]>) => this.call("addConditionalFormat", ...a);
  conditionalFormats = (...a: Parameters<ExcelHostApi["conditionalFormats"]>) => this.call("conditionalFormats", ...a);
  select = (...a: Parameters<ExcelHostApi["select"]>) => this.call("select", ...a);
  selection = () => this.call("selection");
  cells = (...a: Parameters<ExcelHostApi["cells"]>) => this.call("cells", ...a);
  formulas = (...a: Parameters<ExcelHostApi["formulas"]>) => this.call("formulas", ...a);
  shownFormats = (...a: Parameters<ExcelHostApi["shownFormats"]>) => this.call("shownFormats", ...a);
  cellInfo = (...a: Parameters<ExcelHostApi["cellInfo"]>) => this.call("cellInfo", ...a);
  comments = () => this.call("comments");
  tables = () => this.call("tables");
  sheets = () => this.call("sheets");
  functions = () => this.call("functions");
  ignoredAssociations = () => this.call("ignoredAssociations");
  invocations = () => this.call("invocations");
  waitForCalculation = () => this.call("waitForCalculation");
  calculateAll = () => this.call("calculateAll");
  showGrid = (visible = true) => this.call("showGrid", visible);
  charts = () => this.call("charts");

  /**
   * Adds the add-in's excel-workbook.ts to the loaded page (bundled separately: the built pane
   * exposes nothing for tests) and returns its WorkbookPort, called inside the page. Call it
   * after every navigation. freezeSelection takes the note as text here, with {formula} and
   * {address} filled in per cell, since a function cannot cross into the page.
   */
  async workbookPort(): Promise<PagePort> {
    // Evaluated through the DevTools protocol, so a Content-Security-Policy without inline scripts does not stop it.
    await this.page.evaluate(bundle(path.join(__dirname, "workbook-entry.ts")));
    const call = async (method: string, args: unknown[]) => {
      const outcome = await this.page.evaluate(
        async ([m, a]) => {
          const port = (window as unknown as { __excelWorkbook: Record<string, (...x: unknown[]) => Promise<unknown>> }).__excelWorkbook;
          const template = String(a[0]);
          const argsIn =
            m === "freezeSelection"
              ? [(cell: FormulaCell) => template.replace("{formula}", cell.formula).replace("{address}", cell.address)]
              : a;
          try {
            return { ok: true as const, value: await port[m](...argsIn) };
          } catch (err) {
            const e = err as Error & { address?: string };
            return { ok: false as const, name: e.name, message: e.message, address: e.address ?? null };
          }
        },
        [method, args] as const,
      );
      if (!outcome.ok) throw Object.assign(new Error(outcome.message), { name: outcome.name, address: outcome.address });
      return outcome.value;
    };
    return {
      readSelectedRows: () => call("readSelectedRows", []) as Promise<SelectedRows>,
      readBlock: (options) => call("readBlock", [options]) as Promise<SheetBlock>,
      writeCells: (sheet, at, cells, options) => call("writeCells", [sheet, at, cells, options]) as Promise<string>,
      replaceCells: (sheet, cells) => call("replaceCells", [sheet, cells]) as Promise<number>,
      insertTable: (rows, options) => call("insertTable", [rows, options]) as Promise<string>,
      insertFormula: (formula) => call("insertFormula", [formula]) as Promise<string>,
      writeComparisonSheet: (rows, options) => call("writeComparisonSheet", [rows, options]) as Promise<string>,
      findPropFormulas: (scope) => call("findPropFormulas", [scope]) as Promise<FormulaCell[]>,
      recalculate: (cells) => call("recalculate", [cells]) as Promise<FormulaOutcome[]>,
      markCells: (addresses) => call("markCells", [addresses]) as Promise<number>,
      clearMarks: () => call("clearMarks", []) as Promise<number>,
      appendRows: (name, header, rows) => call("appendRows", [name, header, rows]) as Promise<string>,
      rewriteFormulas: (cells) => call("rewriteFormulas", [cells]) as Promise<void>,
      freezeSelection: (note) => call("freezeSelection", [note]) as Promise<FrozenFormula[]>,
      insertChart: (spec) => call("insertChart", [spec]) as Promise<string>,
      rebindCharts: () => call("rebindCharts", []) as Promise<number>,
      sheetNames: () => call("sheetNames", []) as Promise<string[]>,
      insertSheets: (sheets) => call("insertSheets", [sheets]) as Promise<string[]>,
      readCellSource: () => call("readCellSource", []) as Promise<CellSource>,
    };
  }
}

/** WorkbookPort as called from Node; freezeSelection's note is a template ("Frozen: {formula}"). */
export interface PagePort extends Omit<WorkbookPort, "freezeSelection"> {
  freezeSelection(note: string): Promise<FrozenFormula[]>;
}
