// The stand-in's workbook: sheets of cells holding constants or formulas, the results the
// calculation gives formulas, and how those results spill (Excel's dynamic-array rules: an
// array fills the cells right and down from its formula, or shows #SPILL! when any of them
// holds something or another spill). Tables, comments and the selection live here too.
import { MAX_COLUMNS, MAX_ROWS, type Rect, contains, overlaps } from "./addresses";

export type Scalar = string | number | boolean;
/** An error a cell shows: its code ("#N/A") and, for custom-function errors, the message. */
export interface ErrorShown {
  error: string;
  message?: string;
}
/**
 * A number a custom function returned with its own number format (a formatted number value,
 * which hosts with CustomFunctionsRuntime 1.4 accept): the cell shows the number in that
 * format, whatever the cell's own number format is.
 */
export interface FormattedShown {
  number: number;
  numberFormat: string;
}
/** What a cell shows; null for an empty cell. */
export type Shown = Scalar | ErrorShown | FormattedShown | null;

export interface Cell {
  formula?: string;
  value?: Scalar;
  error?: string;
  /** Typed with Excel's text prefix, a leading apostrophe (kept out of the value). */
  prefixed?: boolean;
  numberFormat?: string;
  bold?: boolean;
  italic?: boolean;
  /** Fill colour, "#RRGGBB". */
  fill?: string;
}

export interface SheetModel {
  name: string;
  cells: Map<string, Cell>;
  /** A formula's last result (a value or an array); absent while it was never calculated. */
  results: Map<string, Shown | Shown[][]>;
  /** Formulas whose calculation is under way: they show #BUSY!. */
  pending: Set<string>;
  selection: Rect;
  frozenAt: string | null;
  /** Addresses autofitColumns was called on, for tests to see. */
  autofitted: string[];
  conditionalFormats: ConditionalFormatModel[];
  layout: Layout | null;
}

/** A custom conditional format over `rect` (the stand-in keeps its rule, and its fill, without evaluating it). */
export interface ConditionalFormatModel {
  sheet: SheetModel;
  rect: Rect;
  type: "Custom";
  formula: string | null;
  fill: string | null;
}

export interface TableModel {
  name: string;
  sheet: SheetModel;
  rect: Rect;
  style: string;
}

export interface CommentModel {
  id: string;
  sheet: SheetModel;
  row: number;
  column: number;
  content: string;
  replies: string[];
}

/** A cell range a chart series reads: fixed cells, as Excel's own series are (they do not follow a spill). */
export interface SeriesSource {
  sheet: SheetModel;
  rect: Rect;
}

export interface ChartSeriesModel {
  name: string;
  values: SeriesSource | null;
  xValues: SeriesSource | null;
}

/** A chart on a sheet: what the stand-in keeps of one (no styling), drawn by the grid view. */
export interface ChartModel {
  name: string;
  sheet: SheetModel;
  type: string;
  title: string;
  /** The top-left cell it was placed at (setPosition), zero-based; and its size in points. */
  at: { row: number; column: number };
  width: number;
  height: number;
  legend: { visible: boolean; position: string };
  series: ChartSeriesModel[];
}

interface Layout {
  shown: Map<string, Shown>;
  /** Anchor key → the range its array occupies (only arrays bigger than one cell). */
  spills: Map<string, Rect>;
  /** Covered cell key → its anchor's key. */
  parents: Map<string, string>;
}

export const key = (row: number, column: number) => `${row},${column}`;
export const unkey = (k: string) => k.split(",").map(Number) as [number, number];

export function isError(shown: Shown | undefined): shown is ErrorShown {
  return typeof shown === "object" && shown !== null && "error" in shown;
}

export function isFormatted(shown: Shown | undefined): shown is FormattedShown {
  return typeof shown === "object" && shown !== null && "numberFormat" in shown;
}

export function hasContent(cell: Cell | undefined): boolean {
  return Boolean(cell && (cell.formula !== undefined || cell.value !== undefined || cell.error !== undefined));
}

type ChangeListener = (sheet: SheetModel, rect: Rect, formulasSet: Array<[number, number]>) => void;

export class WorkbookModel {
  readonly sheets: SheetModel[] = [];
  readonly tables: TableModel[] = [];
  readonly comments: CommentModel[] = [];
  readonly charts: ChartModel[] = [];
  /** Workbook settings (Excel.SettingCollection): saved with the workbook, by key. */
  readonly settings = new Map<string, unknown>();
  active!: SheetModel;
  private nextCommentId = 1;
  private readonly listeners: ChangeListener[] = [];
  private readonly viewListeners: Array<() => void> = [];
  private readonly calculatedListeners: Array<(sheet: SheetModel, row: number, column: number) => void> = [];

  constructor(sheetNames: string[] = ["Sheet1"]) {
    for (const name of sheetNames) this.addSheet(name);
    this.active = this.sheets[0];
  }

  /** Called after content changes (the calculation listens); `formulasSet` are cells given a new formula. */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Called after anything visible changes (the grid view listens). */
  onView(listener: () => void): void {
    this.viewListeners.push(listener);
  }

  /** Called after a formula's result is recorded (worksheet.onCalculated listens). */
  onCalculated(listener: (sheet: SheetModel, row: number, column: number) => void): void {
    this.calculatedListeners.push(listener);
  }

  viewChanged(sheet?: SheetModel): void {
    if (sheet) sheet.layout = null;
    for (const listener of this.viewListeners) listener();
  }

  addSheet(name: string): SheetModel {
    const sheet: SheetModel = {
      name,
      cells: new Map(),
      results: new Map(),
      pending: new Set(),
      selection: { row: 0, column: 0, rows: 1, columns: 1 },
      frozenAt: null,
      autofitted: [],
      conditionalFormats: [],
      layout: null,
    };
    this.sheets.push(sheet);
    this.viewChanged();
    return sheet;
  }

  sheet(name: string): SheetModel | undefined {
    return this.sheets.find((sheet) => sheet.name.toLowerCase() === name.toLowerCase());
  }

  requireSheet(name: string | null): SheetModel {
    if (name === null) return this.active;
    const sheet = this.sheet(name);
    if (!sheet) throw new Error(`no sheet named "${name}"`);
    return sheet;
  }

  cell(sheet: SheetModel, row: number, column: number): Cell {
    const k = key(row, column);
    let cell = sheet.cells.get(k);
    if (!cell) sheet.cells.set(k, (cell = {}));
    return cell;
  }

  /** Sets the contents of a block of cells (formatting stays) and tells the listeners. */
  setContents(
    sheet: SheetModel,
    rect: Rect,
    contents: Array<Array<Pick<Cell, "formula" | "value" | "error" | "prefixed" | "numberFormat">>>,
  ): void {
    const formulasSet: Array<[number, number]> = [];
    contents.forEach((row, i) =>
      row.forEach((content, j) => {
        const r = rect.row + i;
        const c = rect.column + j;
        const cell = this.cell(sheet, r, c);
        delete cell.formula;
        delete cell.value;
        delete cell.error;
        delete cell.prefixed;
        Object.assign(cell, content);
        sheet.results.delete(key(r, c));
        sheet.pending.delete(key(r, c));
        if (content.formula !== undefined) formulasSet.push([r, c]);
      }),
    );
    sheet.layout = null;
    for (const listener of this.listeners) listener(sheet, rect, formulasSet);
    this.viewChanged(sheet);
  }

  /** Applies a format change to every cell of `rect`. */
  format(sheet: SheetModel, rect: Rect, change: (cell: Cell, i: number, j: number) => void): void {
    for (let i = 0; i < rect.rows; i++)
      for (let j = 0; j < rect.columns; j++) change(this.cell(sheet, rect.row + i, rect.column + j), i, j);
    this.viewChanged(sheet);
  }

  /** Records a formula's result (or that it is being calculated) and re-lays the sheet's spills. */
  setResult(sheet: SheetModel, row: number, column: number, result: Shown | Shown[][] | "pending"): void {
    const k = key(row, column);
    if (result === "pending") sheet.pending.add(k);
    else {
      sheet.pending.delete(k);
      sheet.results.set(k, result);
    }
    this.viewChanged(sheet);
    if (result !== "pending") for (const listener of this.calculatedListeners) listener(sheet, row, column);
  }

  shown(sheet: SheetModel, row: number, column: number): Shown {
    const laid = this.layout(sheet).shown.get(key(row, column));
    if (laid !== undefined) return laid;
    const cell = sheet.cells.get(key(row, column));
    if (cell?.error !== undefined) return { error: cell.error };
    return cell?.value ?? null;
  }

  /** What Range.formulas reports: the formula, else the value (a spilled value too), else "". */
  formulaText(sheet: SheetModel, row: number, column: number): Scalar {
    const cell = sheet.cells.get(key(row, column));
    if (cell?.formula !== undefined) return cell.formula;
    return rangeValue(this.shown(sheet, row, column));
  }

  /** The anchor and range of the spill covering a cell (the anchor's own cell included), or null. */
  spillAt(sheet: SheetModel, row: number, column: number): { anchor: [number, number]; rect: Rect } | null {
    const layout = this.layout(sheet);
    const anchor = layout.parents.get(key(row, column));
    return anchor ? { anchor: unkey(anchor), rect: layout.spills.get(anchor)! } : null;
  }

  /** The smallest block holding every cell with content (and, unless valuesOnly, every formatted cell); null for an empty sheet. */
  usedRect(sheet: SheetModel, valuesOnly: boolean): Rect | null {
    let top = Infinity,
      left = Infinity,
      bottom = -1,
      right = -1;
    const include = (r: number, c: number) => {
      top = Math.min(top, r);
      left = Math.min(left, c);
      bottom = Math.max(bottom, r);
      right = Math.max(right, c);
    };
    for (const [k, cell] of sheet.cells) {
      const formatted = Boolean(cell.bold || cell.italic || cell.fill || (cell.numberFormat && cell.numberFormat !== "General"));
      if (hasContent(cell) || (!valuesOnly && formatted)) include(...unkey(k));
    }
    for (const k of this.layout(sheet).shown.keys()) include(...unkey(k));
    return bottom < 0 ? null : { row: top, column: left, rows: bottom - top + 1, columns: right - left + 1 };
  }

  /** Excel's current region: the block around a cell bounded by empty rows and columns. */
  surroundingRegion(sheet: SheetModel, row: number, column: number): Rect {
    const filled = (r: number, c: number) => this.shown(sheet, r, c) !== null || hasContent(sheet.cells.get(key(r, c)));
    let rect: Rect = { row, column, rows: 1, columns: 1 };
    for (let grown = true; grown;) {
      grown = false;
      const r0 = Math.max(0, rect.row - 1),
        c0 = Math.max(0, rect.column - 1);
      const r1 = Math.min(MAX_ROWS - 1, rect.row + rect.rows),
        c1 = Math.min(MAX_COLUMNS - 1, rect.column + rect.columns);
      let top = rect.row,
        left = rect.column,
        bottom = rect.row + rect.rows - 1,
        right = rect.column + rect.columns - 1;
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          if (contains(rect, r, c) || !filled(r, c)) continue;
          top = Math.min(top, r);
          left = Math.min(left, c);
          bottom = Math.max(bottom, r);
          right = Math.max(right, c);
        }
      }
      const next = { row: top, column: left, rows: bottom - top + 1, columns: right - left + 1 };
      grown = next.rows !== rect.rows || next.columns !== rect.columns;
      rect = next;
    }
    return rect;
  }

  tablesIn(sheet: SheetModel, rect: Rect, fullyContained: boolean): TableModel[] {
    return this.tables.filter(
      (t) =>
        t.sheet === sheet &&
        (fullyContained
          ? contains(rect, t.rect.row, t.rect.column) && contains(rect, t.rect.row + t.rect.rows - 1, t.rect.column + t.rect.columns - 1)
          : overlaps(t.rect, rect)),
    );
  }

  addComment(sheet: SheetModel, row: number, column: number, content: string): CommentModel {
    if (this.comments.some((c) => c.sheet === sheet && c.row === row && c.column === column)) {
      throw Object.assign(new Error("The cell already has a comment."), { code: "InvalidArgument" });
    }
    const comment: CommentModel = { id: `comment-${this.nextCommentId++}`, sheet, row, column, content, replies: [] };
    this.comments.push(comment);
    this.viewChanged();
    return comment;
  }

  private layout(sheet: SheetModel): Layout {
    if (sheet.layout) return sheet.layout;
    const layout: Layout = { shown: new Map(), spills: new Map(), parents: new Map() };
    const anchors = [...sheet.cells].filter(([, cell]) => cell.formula !== undefined).map(([k]) => unkey(k));
    anchors.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [row, column] of anchors) {
      const k = key(row, column);
      const result = sheet.results.get(k);
      if (sheet.pending.has(k)) layout.shown.set(k, { error: "#BUSY!" });
      else if (!Array.isArray(result)) layout.shown.set(k, result ?? null);
      else if (result.length === 1 && result[0].length === 1) layout.shown.set(k, result[0][0]);
      else this.spill(sheet, layout, row, column, result);
    }
    return (sheet.layout = layout);
  }

  private spill(sheet: SheetModel, layout: Layout, row: number, column: number, result: Shown[][]): void {
    const rect = { row, column, rows: result.length, columns: Math.max(...result.map((r) => r.length)) };
    const k = key(row, column);
    let blocked = rect.row + rect.rows > MAX_ROWS || rect.column + rect.columns > MAX_COLUMNS;
    for (let i = 0; i < rect.rows && !blocked; i++) {
      for (let j = 0; j < rect.columns && !blocked; j++) {
        const other = key(row + i, column + j);
        if (other !== k && (hasContent(sheet.cells.get(other)) || layout.shown.has(other))) blocked = true;
      }
    }
    if (blocked) {
      layout.shown.set(k, { error: "#SPILL!", message: "Spill range isn't blank." });
      return;
    }
    layout.spills.set(k, rect);
    result.forEach((cells, i) =>
      cells.forEach((value, j) => {
        layout.shown.set(key(row + i, column + j), value ?? null);
        layout.parents.set(key(row + i, column + j), k);
      }),
    );
  }
}

/** A shown value as Range.values gives it: an error as its code, a formatted number as the number, an empty cell as "". */
export function rangeValue(shown: Shown): Scalar {
  if (shown === null) return "";
  if (isFormatted(shown)) return shown.number;
  return isError(shown) ? shown.error : shown;
}

/** Range.valueTypes for a shown value. */
export function valueType(shown: Shown): string {
  if (shown === null) return "Empty";
  if (isError(shown)) return "Error";
  if (isFormatted(shown)) return "Double";
  return typeof shown === "string" ? "String" : typeof shown === "number" ? "Double" : "Boolean";
}

/** The number format a cell is shown in: its value's own (a formatted number), else the cell's. */
export function shownFormat(shown: Shown, cell: Cell | undefined): string {
  return isFormatted(shown) ? shown.numberFormat : (cell?.numberFormat ?? "General");
}

/** A cell's text roughly as Excel would show it (Range.text) with the number formats the add-in uses. */
export function shownText(shown: Shown, numberFormat: string): string {
  if (shown === null) return "";
  if (isError(shown)) return shown.error;
  if (typeof shown === "boolean") return shown ? "TRUE" : "FALSE";
  if (typeof shown === "string") return shown;
  if (isFormatted(shown)) return shownText(shown.number, numberFormat);
  if (numberFormat === "yyyy-mm-dd") return new Date(Date.UTC(1899, 11, 30) + shown * 86_400_000).toISOString().slice(0, 10);
  if (numberFormat === "yyyy-mm-dd hh:mm")
    return new Date(Date.UTC(1899, 11, 30) + shown * 86_400_000).toISOString().slice(0, 16).replace("T", " ");
  if (numberFormat === "0.00%") return `${(shown * 100).toFixed(2)}%`;
  if (numberFormat === "#,##0") return Math.round(shown).toLocaleString("en-US");
  if (numberFormat === "0") return String(Math.round(shown));
  if (numberFormat.startsWith("#,##0.")) return shown.toLocaleString("en-US", { maximumFractionDigits: 3 });
  return String(Number(shown.toPrecision(11)));
}

/** Range.valuesAsJson for a shown value: a formatted number carries its own format. */
export function valueAsJson(shown: Shown): Record<string, unknown> {
  if (shown === null) return { type: "Empty", basicType: "Empty", basicValue: "" };
  if (isError(shown)) return { type: "Error", basicType: "Error", basicValue: shown.error };
  if (isFormatted(shown))
    return { type: "FormattedNumber", basicType: "Double", basicValue: shown.number, numberFormat: shown.numberFormat };
  const type = valueType(shown);
  return { type, basicType: type, basicValue: shown };
}
