// Calculates =PROP.NAME(…) formulas the way Excel runs custom functions: it calls the function
// functions.js associated (CustomFunctions.associate("SEARCH", fn) for PROP.SEARCH), with the
// arguments shaped by functions.json (a matrix parameter gets a 2-D array, a scalar one a
// value, a left-out one null) and an invocation object last. Until the promise settles the
// cell shows #BUSY!; an array result spills; a CustomFunctions.Error shows its code and keeps
// its message; a formatted number value ({ type: "Double", basicValue, numberFormat }) shows
// its number in its format. A formula is calculated when written, when a cell it refers to changes, and
// when Range.calculate or Application.calculate asks.
import { type Rect, formatAddress, overlaps } from "./addresses";
import { type Argument, FormulaSyntaxError, parseFormula } from "./formula-parser";
import { type SheetModel, type Shown, type WorkbookModel, isError, key, rangeValue, unkey } from "./workbook-model";

/** CustomFunctions.Error as the runtime defines it: a code ("#N/A") and an optional message. */
export class CustomFunctionsError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

export const ERROR_CODE = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
};

type CustomFunction = (...args: unknown[]) => unknown;

/** Per function id, from functions.json: whether each parameter takes a matrix. */
export type FunctionShapes = Record<string, { matrix: boolean[] }>;

interface Ref {
  sheet: SheetModel;
  rect: Rect;
}

export class Calculation {
  readonly associated = new Map<string, CustomFunction>();
  /** How many times a custom function was called (each call may be a request to the service). */
  invocations = 0;
  private readonly refs = new Map<SheetModel, Map<string, Ref[]>>();
  private readonly running = new Map<string, { token: number; invocation: { onCanceled: (() => void) | null } }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private nextToken = 1;

  constructor(
    private readonly model: WorkbookModel,
    private readonly shapes: FunctionShapes,
  ) {
    model.onChange((sheet, rect, formulasSet) => {
      // Cells that lost their formula: a calculation still under way for them is cancelled.
      for (const runKey of [...this.running.keys()]) {
        const [sheetName, k] = [runKey.slice(0, runKey.lastIndexOf("!")), runKey.slice(runKey.lastIndexOf("!") + 1)];
        const [row, column] = unkey(k);
        const lostFormula = sheet.cells.get(k)?.formula === undefined;
        if (sheetName === sheet.name && lostFormula && overlaps(rect, { row, column, rows: 1, columns: 1 }))
          this.evaluate(sheet, row, column);
      }
      for (const [row, column] of formulasSet) this.evaluate(sheet, row, column);
      // Formulas that refer to a changed cell run again (one level: results do not chain). They
      // are listed first: evaluating one re-records its references in the map being read.
      const dependents: Array<[SheetModel, number, number]> = [];
      for (const [dependentSheet, byCell] of this.refs) {
        for (const [k, refs] of byCell) {
          const [row, column] = unkey(k);
          if (dependentSheet === sheet && formulasSet.some(([r, c]) => r === row && c === column)) continue;
          if (refs.some((ref) => ref.sheet === sheet && overlaps(ref.rect, rect))) dependents.push([dependentSheet, row, column]);
        }
      }
      for (const [dependentSheet, row, column] of dependents) this.evaluate(dependentSheet, row, column);
    });
  }

  /** Runs every formula in `rect` again (Range.calculate). */
  calculate(sheet: SheetModel, rect: Rect): void {
    for (const [k, cell] of sheet.cells) {
      const [row, column] = unkey(k);
      if (cell.formula !== undefined && overlaps(rect, { row, column, rows: 1, columns: 1 })) this.evaluate(sheet, row, column);
    }
  }

  calculateAll(): void {
    for (const sheet of this.model.sheets) this.calculate(sheet, { row: 0, column: 0, rows: 1_048_576, columns: 16_384 });
  }

  /** Resolves when no calculation is under way (including ones started while waiting). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  evaluate(sheet: SheetModel, row: number, column: number): void {
    const k = key(row, column);
    const formula = sheet.cells.get(k)?.formula;
    const runKey = `${sheet.name}!${k}`;
    // A newer calculation of the same cell cancels the one under way, as Excel does.
    const previous = this.running.get(runKey);
    if (previous) {
      this.running.delete(runKey);
      previous.invocation.onCanceled?.();
    }
    this.sheetRefs(sheet).delete(k);
    if (formula === undefined) return;
    const prepared = this.prepare(sheet, row, column, formula);
    if ("error" in prepared) {
      this.model.setResult(sheet, row, column, prepared);
      return;
    }
    const token = this.nextToken++;
    const invocation = {
      address: formatAddress(sheet.name, { row, column, rows: 1, columns: 1 }),
      functionName: prepared.id,
      isInValuePreview: false,
      onCanceled: null as (() => void) | null,
    };
    this.running.set(runKey, { token, invocation });
    this.model.setResult(sheet, row, column, "pending");
    const run = Promise.resolve()
      .then(() => {
        this.invocations++;
        return prepared.fn(...prepared.args, invocation);
      })
      .then(toShown, (err: unknown) => (err instanceof CustomFunctionsError ? toShown(err) : { error: "#VALUE!", message: String(err) }))
      .then((result) => {
        if (this.running.get(runKey)?.token !== token) return;
        this.running.delete(runKey);
        this.model.setResult(sheet, row, column, result);
      });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private prepare(
    sheet: SheetModel,
    row: number,
    column: number,
    formula: string,
  ): { id: string; fn: CustomFunction; args: unknown[] } | { error: string; message: string } {
    let call;
    try {
      call = parseFormula(formula);
    } catch (err) {
      if (err instanceof FormulaSyntaxError) return { error: "#NAME?", message: err.message };
      throw err;
    }
    const id = call.name.replace(/^PROP\./i, "").toUpperCase();
    const fn = /^PROP\./i.test(call.name) ? this.associated.get(id) : undefined;
    if (!fn) return { error: "#NAME?", message: `no function ${call.name} is associated` };
    const matrix = this.shapes[id]?.matrix ?? Array.from({ length: Math.max(0, fn.length - 1) }, () => false);
    if (call.args.length > matrix.length) return { error: "#VALUE!", message: `${call.name} takes at most ${matrix.length} arguments` };
    const refs: Ref[] = [];
    const args: unknown[] = [];
    for (let i = 0; i < matrix.length; i++) {
      const arg: Argument = call.args[i] ?? { kind: "value", value: null };
      if (arg.kind === "value") {
        args.push(matrix[i] && arg.value !== null ? [[arg.value]] : arg.value);
        continue;
      }
      const target = this.model.requireSheet(arg.sheet ?? sheet.name);
      refs.push({ sheet: target, rect: arg.rect });
      const cells = this.readRect(target, arg.rect);
      // Excel does not call a function with an error argument: the formula shows that error.
      const error = cells.flat().find(isError);
      if (error && !matrix[i]) return { error: error.error, message: error.message ?? "" };
      args.push(matrix[i] ? cells.map((r) => r.map(rangeValue)) : cells[0][0] === null ? null : rangeValue(cells[0][0]));
    }
    this.sheetRefs(sheet).set(key(row, column), refs);
    return { id, fn, args };
  }

  private readRect(sheet: SheetModel, rect: Rect): Shown[][] {
    return Array.from({ length: rect.rows }, (_, i) =>
      Array.from({ length: rect.columns }, (_, j) => this.model.shown(sheet, rect.row + i, rect.column + j)),
    );
  }

  private sheetRefs(sheet: SheetModel): Map<string, Ref[]> {
    let byCell = this.refs.get(sheet);
    if (!byCell) this.refs.set(sheet, (byCell = new Map()));
    return byCell;
  }
}

/** A custom function's answer as cells: arrays stay arrays (an element may be an error), errors show their code. */
function toShown(value: unknown): Shown | Shown[][] {
  if (Array.isArray(value)) return value.map((row) => (Array.isArray(row) ? row : [row]).map(one));
  return one(value);
}

function one(value: unknown): Shown {
  if (value instanceof CustomFunctionsError) return { error: value.code, message: value.message };
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : { error: "#NUM!" };
  if (typeof value === "string" || typeof value === "boolean") return value;
  // A formatted number value (Excel.DoubleCellValue): the number, shown in its format.
  const formatted = value as { type?: unknown; basicValue?: unknown; numberFormat?: unknown };
  if (formatted.type === "Double" && typeof formatted.basicValue === "number" && typeof formatted.numberFormat === "string") {
    return Number.isFinite(formatted.basicValue)
      ? { number: formatted.basicValue, numberFormat: formatted.numberFormat }
      : { error: "#NUM!" };
  }
  return { error: "#VALUE!", message: `a function returned ${typeof value}` };
}
