// Types shared by the stand-in (in the page) and host.ts (in Node): what the install script is
// configured with, and the scripting API tests call as window.__excelHost.

export interface HostConfig {
  /** Sheets the workbook starts with; ["Sheet1"] when left out. */
  sheets?: string[];
  /** Per custom-function id, which parameters take a matrix (from functions.json). */
  functionShapes?: Record<string, { matrix: boolean[] }>;
  /** OfficeRuntime.storage items to start with (once per browser context). */
  storage?: Record<string, string>;
  /** Draws the grid beside the pane from the start (also: ?excelGrid=1 in the page URL). */
  showGrid?: boolean;
  /**
   * The requirement sets Office.context.requirements reports, by name, at their highest
   * version; when left out, Microsoft 365's: ExcelApi 1.16 (the pane needs 1.12; 1.16 gives
   * Range.valuesAsJson, a formatted number's own format) and CustomFunctionsRuntime 1.4
   * (formatted number values).
   */
  requirementSets?: Record<string, string>;
}

export type Input = string | number | boolean | null;
export type Value = string | number | boolean;

export interface CellInfo {
  /** As Range.values gives it: an error as its code, an empty cell as "". */
  value: Value;
  formula: string | null;
  error: string | null;
  /** A custom function's error message (CustomFunctions.Error's second argument). */
  message: string | null;
  /** Holds text typed with a leading apostrophe. */
  prefixed: boolean;
  numberFormat: string;
  /** The format the value is shown in: a formatted number's own format, else numberFormat. */
  shownFormat: string;
  bold: boolean;
  italic: boolean;
  /** Fill colour ("#RRGGBB"), or null for none. */
  fill: string | null;
  /** The fill a custom conditional format covering the cell shows over it (rules are taken as true), or null. */
  conditionalFill: string | null;
  /** The formula cell whose spill covers this cell (itself when it is that cell). */
  spillParent: string | null;
  /** For a formula cell that spills: the whole spill range. */
  spillRange: string | null;
}

/** `sheet` null means the active sheet; addresses may also carry a sheet ("Comps!A1"). */
export interface ExcelHostApi {
  /** Writes rows as if typed, from topLeft: "=…" is a formula, "'…" text, "12" a number. */
  setCells(sheet: string | null, topLeft: string, rows: Input[][]): void;
  setFormula(sheet: string | null, address: string, formula: string): void;
  addSheet(name: string): void;
  /** Gives cells a fill colour, as the user would from the Home tab. */
  setFill(sheet: string | null, address: string, color: string): void;
  /** Adds a custom conditional format, as the user would. */
  addConditionalFormat(sheet: string | null, address: string, formula: string, fill: string): void;
  conditionalFormats(sheet: string | null): Array<{ address: string; formula: string | null; fill: string | null }>;
  /** Selects cells ("Sheet1!B2:C4", or "B2" on the active sheet), activating their sheet. */
  select(address: string): void;
  selection(): string;
  cells(sheet: string | null, address: string): Value[][];
  formulas(sheet: string | null, address: string): Value[][];
  /** The format each cell's value is shown in (CellInfo.shownFormat). */
  shownFormats(sheet: string | null, address: string): string[][];
  cellInfo(sheet: string | null, address: string): CellInfo;
  comments(): Array<{ address: string; content: string; replies: string[] }>;
  tables(): Array<{ name: string; address: string; style: string }>;
  sheets(): Array<{ name: string; active: boolean; frozenAt: string | null; autofitted: string[]; usedRange: string | null }>;
  /** Ids functions.js associated (SEARCH, MARKET, …). */
  functions(): string[];
  /** What office.js tried to put in place of CustomFunctions.associate (and was ignored). */
  ignoredAssociations(): string[];
  /** How many custom function calls the workbook has made so far. */
  invocations(): number;
  /** Resolves when every custom function call under way has settled. */
  waitForCalculation(): Promise<void>;
  calculateAll(): void;
  showGrid(visible?: boolean): void;
  /** Every chart, with the cells each series reads and what those cells show now. */
  charts(): ChartInfo[];
}

export interface ChartInfo {
  name: string;
  sheet: string;
  type: string;
  title: string;
  /** The cell its top-left corner is at ("Sheet1!H3"). */
  at: string;
  series: Array<{ name: string; values: string | null; xValues: string | null; shownValues: Value[]; shownX: Value[] }>;
}
