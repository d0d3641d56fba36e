// Parses the formulas the stand-in can calculate: one function call, =PROP.NAME(arg, …), whose
// arguments are text ("warehouse", with "" for a quote), numbers, TRUE/FALSE, left out
// (=PROP.SEARCH("x",,"limit=5")), or references to cells and ranges, on this or another sheet
// (B2, $B$2:C9, Comps!A1, 'Rent roll'!A1:B3). Anything else is a #NAME? for the stand-in.
import { type Rect, parseRect } from "./addresses";
import type { Scalar } from "./workbook-model";

export type Argument = { kind: "value"; value: Scalar | null } | { kind: "ref"; sheet: string | null; rect: Rect };

export interface FunctionCall {
  /** As written, e.g. "PROP.SEARCH". */
  name: string;
  args: Argument[];
}

export class FormulaSyntaxError extends Error {}

export function parseFormula(formula: string): FunctionCall {
  const text = formula.trim();
  const head = /^=\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(/.exec(text);
  if (!head || !text.endsWith(")")) throw new FormulaSyntaxError(`the stand-in calculates only =NAME(arguments), not ${formula}`);
  const body = text.slice(head[0].length, -1);
  return { name: head[1], args: splitArguments(body).map(parseArgument) };
}

/** Splits on top-level commas, leaving commas inside "text" and 'sheet names' alone. */
function splitArguments(body: string): string[] {
  if (body.trim() === "") return [];
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quote) {
      current += ch;
      if (ch === quote) {
        // A doubled quote is an escaped one, not the end.
        if (body[i + 1] === quote) current += body[++i];
        else quote = null;
      }
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === ",") {
      parts.push(current);
      current = "";
    } else if (ch === "(" || ch === ")") {
      throw new FormulaSyntaxError("the stand-in does not calculate nested function calls");
    } else current += ch;
  }
  if (quote) throw new FormulaSyntaxError("a text argument has no closing quote");
  parts.push(current);
  return parts;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const REFERENCE = /^(?:('(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)$/;

function parseArgument(raw: string): Argument {
  const text = raw.trim();
  if (text === "") return { kind: "value", value: null };
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new FormulaSyntaxError(`bad text argument ${text}`);
    return { kind: "value", value: text.slice(1, -1).replace(/""/g, '"') };
  }
  if (NUMBER.test(text)) return { kind: "value", value: Number(text) };
  if (/^(true|false)$/i.test(text)) return { kind: "value", value: text.toLowerCase() === "true" };
  const ref = REFERENCE.exec(text);
  if (ref) {
    const sheet = ref[1] === undefined ? null : ref[1].startsWith("'") ? ref[1].slice(1, -1).replace(/''/g, "'") : ref[1];
    return { kind: "ref", sheet, rect: parseRect(ref[2]) };
  }
  throw new FormulaSyntaxError(`the stand-in cannot read the argument ${text}`);
}
