// The pieces the starter model's template (model-template.ts) is written with: A1 references,
// and PROP calls that carry, beside their formula text, the request their first calculation
// makes. The template's cost (modelCost) is priced from those requests, so the formulas and
// the estimate the pane shows come from the same calls and cannot drift apart.
import { OPERATIONS, type OperationName } from "./operations";

/** The request a PROP call makes: two calls with the same key are one request (a batch, or the same answer). */
export interface ModelRequest {
  operation: OperationName;
  /** What the add-in shares one request by: the operation and its inputs, as the formula writes them (cell references included). */
  key: string;
}

/** A formula cell ("=..."), with the request it makes when it is a PROP call. */
export interface ModelFormula {
  formula: string;
  request?: ModelRequest;
}

/** "A", "B", …, "Z", "AA" for a zero-based column. */
export function columnName(column: number): string {
  let n = column + 1;
  let name = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** "B4" for zero-based row 3, column 1; "$B$4" when absolute. */
export function a1(row: number, column: number, absolute = false): string {
  const d = absolute ? "$" : "";
  return `${d}${columnName(column)}${d}${row + 1}`;
}

/** "'Model - Profile'!$B$4": a reference with its sheet, quoted as Excel quotes sheet names. */
export function onSheet(sheet: string, ref: string): string {
  return `'${sheet.replace(/'/g, "''")}'!${ref}`;
}

/** A text argument of a formula: "Austin, TX" with its quotes doubled. */
export function text(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

/** One argument of a PROP call: a text, a cell reference, or left out (an empty argument). */
export type Arg = { text: string } | { ref: string } | null;

function argText(arg: Arg): string {
  if (arg === null) return "";
  return "text" in arg ? text(arg.text) : arg.ref;
}

/**
 * `=PROP.NAME(args)` on `sheet`, with its request. Trailing left-out arguments are dropped, as
 * Excel's autocomplete writes them. `keyArgs` are the arguments the request depends on (the
 * add-in batches point calls of one property or market whatever the field asked); in the key,
 * a reference is written with its sheet, so the same cell named from two sheets is one key.
 */
export function propCall(sheet: string, name: string, args: Arg[], operation: OperationName, keyArgs: Arg[] = args): ModelFormula {
  const written = [...args];
  while (written.length > 0 && written[written.length - 1] === null) written.pop();
  const keyText = (arg: Arg) => (arg !== null && "ref" in arg && !arg.ref.includes("!") ? onSheet(sheet, arg.ref) : argText(arg));
  return {
    formula: `=PROP.${name}(${written.map(argText).join(",")})`,
    request: { operation, key: `${operation}(${keyArgs.map(keyText).join(",")})` },
  };
}

/** A plain Excel formula (arithmetic, statistics, a place put together from the subject's fields): no request. */
export function excel(formula: string): ModelFormula {
  return { formula: formula.startsWith("=") ? formula : `=${formula}` };
}

/** The first calculation's requests of some formulas, one per key, each with its published cost. */
export function requestsOf(formulas: Iterable<ModelFormula>): Array<ModelRequest & { credits: number }> {
  const byKey = new Map<string, ModelRequest & { credits: number }>();
  for (const f of formulas) {
    if (f.request && !byKey.has(f.request.key)) byKey.set(f.request.key, { ...f.request, credits: OPERATIONS[f.request.operation].cost });
  }
  return [...byKey.values()];
}
