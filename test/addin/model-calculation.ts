// Calculates the starter model's template the way Excel would, with the PROP calls answered by
// the built functions.js (bundle-harness.ts): enough of Excel's formula language for what the
// template writes (references and ranges across sheets, text and numbers, & = > + - * /, IF, COUNTIF,
// IFERROR, AND, OR, ISNUMBER, SUM, COUNT, AVERAGE, MEDIAN, MIN, MAX) and spills. Every PROP
// call that can be made (its inputs calculated) is made at once, as one calculation of Excel's
// would, so the add-in batches them as it does in Excel. A formula outside that language fails
// the test (the parser throws), rather than being skipped.
import type { ModelTemplate } from "../../src/contract/model-template";

export class CellError {
  constructor(
    readonly code: string,
    readonly message = "",
  ) {}
}
export type Scalar = string | number | boolean | null | CellError;
type Value = Scalar | Scalar[][];

type Node =
  | { t: "lit"; v: Scalar }
  | { t: "ref"; sheet: string; r0: number; c0: number; r1: number; c1: number }
  | { t: "call"; name: string; args: Array<Node | null> }
  | { t: "op"; op: string; a: Node; b: Node }
  | { t: "neg"; a: Node };

const TOKEN =
  /\s*(?:("(?:[^"]|"")*")|((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)|(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![\w(])|(\d+(?:\.\d+)?)|([A-Za-z_][\w.]*)\(|(<>|<=|>=|[&=<>+\-*/(),]))/y;

function columnIndex(letters: string): number {
  return [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

function refNode(text: string, sheet: string): Node {
  const bang = text.lastIndexOf("!");
  const where = bang < 0 ? sheet : text.slice(0, bang).replace(/^'|'$/g, "").replace(/''/g, "'");
  const [a, b = a] = text
    .slice(bang + 1)
    .replace(/\$/g, "")
    .split(":");
  const cell = (s: string) => {
    const m = /^([A-Z]+)(\d+)$/.exec(s)!;
    return [Number(m[2]) - 1, columnIndex(m[1])];
  };
  const [r0, c0] = cell(a);
  const [r1, c1] = cell(b);
  return { t: "ref", sheet: where, r0, c0, r1, c1 };
}

export function parse(formula: string, sheet: string): Node {
  const tokens: string[][] = [];
  const body = formula.replace(/^=/, "");
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < body.length) {
    const m = TOKEN.exec(body);
    if (!m) throw new Error(`cannot read ${formula} at ${body.slice(TOKEN.lastIndex)}`);
    tokens.push(m.slice(1));
  }
  let i = 0;
  const peek = () => tokens[i]?.[5];
  const binary = (ops: string[], next: () => Node) => () => {
    let a = next();
    while (ops.includes(peek() ?? "")) {
      const op = tokens[i++][5];
      a = { t: "op", op, a, b: next() };
    }
    return a;
  };
  const primary = (): Node => {
    const [str, sheetRef, ref, num, fn, sym] = tokens[i++] ?? [];
    if (str !== undefined) return { t: "lit", v: str.slice(1, -1).replace(/""/g, '"') };
    if (sheetRef !== undefined) return refNode(sheetRef, sheet);
    if (ref !== undefined) return refNode(ref, sheet);
    if (num !== undefined) return { t: "lit", v: Number(num) };
    if (fn !== undefined) {
      const args: Array<Node | null> = [];
      if (peek() === ")") i++;
      else
        for (;;) {
          args.push(peek() === "," || peek() === ")" ? null : comparison());
          const sep = tokens[i++]?.[5];
          if (sep === ")") break;
          if (sep !== ",") throw new Error(`expected , or ) in ${formula}`);
        }
      return { t: "call", name: fn.toUpperCase(), args };
    }
    if (sym === "-") return { t: "neg", a: primary() };
    if (sym === "(") {
      const inner = comparison();
      if (tokens[i++]?.[5] !== ")") throw new Error(`expected ) in ${formula}`);
      return inner;
    }
    throw new Error(`unexpected token in ${formula}`);
  };
  const product = binary(["*", "/"], primary);
  const sum = binary(["+", "-"], product);
  const concat = binary(["&"], sum);
  const comparison = binary(["=", "<>", "<", ">", "<=", ">="], concat);
  const node = comparison();
  if (i !== tokens.length) throw new Error(`left over in ${formula}`);
  return node;
}

/** The sheets and cells a node refers to. */
function refsOf(node: Node | null, out: Array<Extract<Node, { t: "ref" }>> = []) {
  if (!node) return out;
  if (node.t === "ref") out.push(node);
  else if (node.t === "call") node.args.forEach((a) => refsOf(a, out));
  else if (node.t === "op") {
    refsOf(node.a, out);
    refsOf(node.b, out);
  } else if (node.t === "neg") refsOf(node.a, out);
  return out;
}

const hasProp = (node: Node | null): boolean =>
  !!node &&
  ((node.t === "call" && (node.name.startsWith("PROP.") || node.args.some(hasProp))) ||
    (node.t === "op" && (hasProp(node.a) || hasProp(node.b))) ||
    (node.t === "neg" && hasProp(node.a)));

/** A number as Excel reads a cell: a FormattedNumber (a date, a rate) is its number. */
function plain(v: unknown): Scalar {
  if (v !== null && typeof v === "object" && !(v instanceof CellError) && "basicValue" in v)
    return (v as { basicValue: number }).basicValue;
  return v as Scalar;
}

export type PropCaller = (name: string, args: unknown[]) => Promise<unknown>;

export interface Calculated {
  /** Shown value of a cell: "Sheet!r,c" (zero-based). */
  value(sheet: string, row: number, column: number): Scalar;
  /** Each PROP formula's cell and what it shows (its spill's top-left, or its error). */
  propCells: Array<{ sheet: string; row: number; column: number; formula: string; result: Scalar; spill: Scalar[][] | null }>;
}

/**
 * Calculates `template`: PROP calls through `call` (the function id without "PROP.", its
 * arguments as Excel passes them: a range as rows, `matrix` parameters always as rows).
 */
export async function calculate(template: ModelTemplate, call: PropCaller, matrixParams: Map<string, Set<number>>): Promise<Calculated> {
  const cells = new Map<string, Scalar>();
  const key = (sheet: string, r: number, c: number) => `${sheet}!${r},${c}`;
  const pending = new Map<string, { sheet: string; row: number; column: number; formula: string; node: Node }>();
  for (const sheet of template.sheets) {
    sheet.cells.forEach((row, r) =>
      row.forEach((cell, c) => {
        if (cell === null) return;
        if (typeof cell === "object")
          pending.set(key(sheet.name, r, c), {
            sheet: sheet.name,
            row: r,
            column: c,
            formula: cell.formula,
            node: parse(cell.formula, sheet.name),
          });
        else cells.set(key(sheet.name, r, c), cell);
      }),
    );
  }
  // The plain formulas a PROP call needs (its places, its metrics): calculated as soon as they can be.
  const needed = new Set<string>();
  const need = (node: Node) =>
    refsOf(node).forEach((ref) => {
      for (let r = ref.r0; r <= ref.r1; r++)
        for (let c = ref.c0; c <= ref.c1; c++) {
          const k = key(ref.sheet, r, c);
          const cell = pending.get(k);
          if (cell && !needed.has(k)) {
            needed.add(k);
            need(cell.node);
          }
        }
    });
  for (const cell of pending.values()) if (hasProp(cell.node)) need(cell.node);

  const ready = (node: Node) =>
    refsOf(node).every((ref) => {
      for (let r = ref.r0; r <= ref.r1; r++) for (let c = ref.c0; c <= ref.c1; c++) if (pending.has(key(ref.sheet, r, c))) return false;
      return true;
    });
  const read = (ref: Extract<Node, { t: "ref" }>): Value => {
    if (ref.r0 === ref.r1 && ref.c0 === ref.c1) return cells.get(key(ref.sheet, ref.r0, ref.c0)) ?? null;
    const rows: Scalar[][] = [];
    for (let r = ref.r0; r <= ref.r1; r++) {
      const row: Scalar[] = [];
      for (let c = ref.c0; c <= ref.c1; c++) row.push(cells.get(key(ref.sheet, r, c)) ?? null);
      rows.push(row);
    }
    return rows;
  };
  const propCells: Calculated["propCells"] = [];
  const propResults = new Map<Node, Value>();

  const evaluate = (node: Node): Value => {
    switch (node.t) {
      case "lit":
        return node.v;
      case "ref":
        return read(node);
      case "neg": {
        const a = evaluate(node.a);
        return a instanceof CellError ? a : -(Number(a) || 0);
      }
      case "op":
        return operate(node.op, evaluate(node.a), evaluate(node.b));
      case "call":
        if (node.name.startsWith("PROP.")) return propResults.get(node)!;
        return excelFunction(
          node.name,
          node.args.map((a) => (a ? evaluate(a) : null)),
        );
    }
  };

  for (let pass = 0; pending.size > 0 && pass < 20; pass++) {
    const propPending = [...pending.values()].some((c) => hasProp(c.node));
    // Plain formulas first, those a PROP call waits for while any PROP call is pending.
    for (let again = true; again;) {
      again = false;
      for (const [k, cell] of pending) {
        if (hasProp(cell.node) || (propPending && !needed.has(k)) || !ready(cell.node)) continue;
        const v = evaluate(cell.node);
        cells.set(k, Array.isArray(v) ? v[0][0] : v);
        pending.delete(k);
        again = true;
      }
    }
    // Then every PROP formula whose inputs are calculated, together: one calculation.
    const batch = [...pending.entries()].filter(([, c]) => hasProp(c.node) && ready(c.node));
    await Promise.all(
      batch.map(async ([k, cell]) => {
        if (cell.node.t !== "call") throw new Error(`a PROP call must be the whole formula: ${cell.formula}`);
        const name = cell.node.name.slice("PROP.".length);
        const args = cell.node.args.map((a, i) => {
          const v = a ? evaluate(a) : null;
          return matrixParams.get(name)?.has(i) && !Array.isArray(v) ? [[v]] : v;
        });
        const argError = args.find((a) => a instanceof CellError);
        let spill: Scalar[][] | null = null;
        let result: Scalar;
        if (argError) result = argError as CellError;
        else {
          try {
            const answer = await call(name, args);
            spill = Array.isArray(answer) ? (answer as unknown[][]).map((row) => row.map(plain)) : [[plain(answer)]];
            result = spill[0][0];
          } catch (err) {
            const e = err as { code?: string; message?: string };
            result = new CellError(e.code ?? "#VALUE!", e.message ?? String(err));
          }
        }
        if (spill) spill.forEach((row, i) => row.forEach((v, j) => cells.set(key(cell.sheet, cell.row + i, cell.column + j), v)));
        else cells.set(k, result);
        propResults.set(cell.node, result);
        propCells.push({ sheet: cell.sheet, row: cell.row, column: cell.column, formula: cell.formula, result, spill });
        pending.delete(k);
      }),
    );
  }
  if (pending.size > 0) throw new Error(`formulas never ready: ${[...pending.keys()].join(", ")}`);
  return { value: (sheet, r, c) => cells.get(key(sheet, r, c)) ?? null, propCells };
}

const numbersIn = (args: Value[]): { numbers: number[]; error: CellError | null } => {
  const numbers: number[] = [];
  for (const a of args.flatMap((v) => (Array.isArray(v) ? v.flat() : [v]))) {
    if (a instanceof CellError) return { numbers, error: a };
    if (typeof a === "number") numbers.push(a); // text (the functions' "" for no figure) and blanks are skipped, as Excel's do
  }
  return { numbers, error: null };
};

function excelFunction(name: string, args: Value[]): Value {
  const scalar = (v: Value): Scalar => (Array.isArray(v) ? v[0][0] : v);
  switch (name) {
    case "IF":
      if (scalar(args[0]) instanceof CellError) return scalar(args[0]);
      return scalar(args[0]) ? (args[1] ?? true) : (args[2] ?? false);
    case "IFERROR":
      return scalar(args[0]) instanceof CellError ? args[1] : args[0];
    case "ISNUMBER":
      return typeof scalar(args[0]) === "number";
    case "COUNTIF": {
      // A numeric comparison only (">36"), as the template writes: the numbers of the range that
      // pass it; text and blanks are never counted, as in Excel.
      const m = /^(<=|>=|<>|<|>|=)?(-?\d+(?:\.\d+)?)$/.exec(String(scalar(args[1])));
      if (!m) throw new Error(`the model calculation knows numeric COUNTIF criteria only, not ${String(scalar(args[1]))}`);
      const y = Number(m[2]);
      const pass = { "<": (x: number) => x < y, ">": (x: number) => x > y, "<=": (x: number) => x <= y, ">=": (x: number) => x >= y }[
        m[1] ?? ""
      ];
      const range = Array.isArray(args[0]) ? args[0].flat() : [args[0]];
      return range.filter((x): x is number => typeof x === "number" && (pass ? pass(x) : m[1] === "<>" ? x !== y : x === y)).length;
    }
    case "AND":
    case "OR": {
      const vs = args.map(scalar);
      const err = vs.find((v) => v instanceof CellError);
      if (err) return err;
      return name === "AND" ? vs.every(Boolean) : vs.some(Boolean);
    }
  }
  const { numbers, error } = numbersIn(args);
  if (error) return error;
  const sorted = [...numbers].sort((a, b) => a - b);
  switch (name) {
    case "SUM":
      return numbers.reduce((a, b) => a + b, 0);
    case "COUNT":
      return numbers.length;
    case "AVERAGE":
      return numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : new CellError("#DIV/0!");
    case "MEDIAN":
      if (!numbers.length) return new CellError("#NUM!");
      return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    case "MIN":
      return numbers.length ? sorted[0] : 0;
    case "MAX":
      return numbers.length ? sorted[sorted.length - 1] : 0;
  }
  throw new Error(`the model calculation does not know ${name}`);
}

function operate(op: string, av: Value, bv: Value): Scalar {
  const a = Array.isArray(av) ? av[0][0] : av;
  const b = Array.isArray(bv) ? bv[0][0] : bv;
  if (a instanceof CellError) return a;
  if (b instanceof CellError) return b;
  if (op === "&") return `${a ?? ""}${b ?? ""}`;
  if (op === "=") return String(a ?? "").toLowerCase() === String(b ?? "").toLowerCase() && typeof (a ?? "") === typeof (b ?? "");
  const x = a === null ? 0 : a;
  const y = b === null ? 0 : b;
  if (["<", ">", "<=", ">=", "<>"].includes(op)) {
    return { "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y, "<>": x !== y }[op]!;
  }
  if (typeof x !== "number" || typeof y !== "number") return new CellError("#VALUE!");
  if (op === "/" && y === 0) return new CellError("#DIV/0!");
  return { "+": x + y, "-": x - y, "*": x * y, "/": x / y }[op]!;
}
