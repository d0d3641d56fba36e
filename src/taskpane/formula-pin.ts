// "Pin this workbook to a snapshot" and "move it to the latest": the pin lives in the formulas
// themselves, as the as_of option of every PROP call, so it travels with the file, shows in the
// formula bar, and holds without the pane. Pinning rewrites each PROP call's options argument:
// a text literal gets `as_of=<id>` at its front (any earlier as_of replaced), a missing one is
// added (empty arguments fill the optional ones before it), and any other expression becomes
// `"as_of=<id>; "&(expression)`. Moving to the latest takes the option out again.

/** The position (0-based) of each PROP function's options argument. A test holds it to the built metadata. */
export const OPTIONS_ARGUMENT: Record<string, number> = {
  PROPERTY: 2,
  DETAILS: 1,
  MATCH: 4,
  COMPARE: 1,
  SALECOMPS: 2,
  MARKET: 3,
  MARKETHISTORY: 5,
  HISTORY: 1,
  ANALYSIS: 2,
  SEARCH: 2,
  ASSETSEARCH: 2,
  PARCELS: 1,
  LISTINGS: 2,
  COMPANIES: 2,
  PORTFOLIO: 1,
  FOOTPRINT: 1,
  DILIGENCE: 2,
  COVERAGE: 1,
  CATALOG: 1,
  CARD: 1,
};

const CALL = /PROP\.([A-Za-z]+)\(/iy;
const AS_OF_PART = /^\s*as_of\s*=/i;
/** What pinning wraps around an options expression: `"as_of=<id>; "&(` … `)`. */
const WRAPPED = /^"as_of=[^"]*; "&\(([\s\S]*)\)$/;

/** `formula` with every PROP call pinned to `snapshotId`, or unpinned when it is null. */
export function repinFormula(formula: string, snapshotId: string | null): string {
  return rewrite(formula, snapshotId);
}

function rewrite(text: string, pin: string | null): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    CALL.lastIndex = i;
    const call = /[A-Za-z0-9_.]/.test(text[i - 1] ?? "") ? null : CALL.exec(text);
    if (!call) {
      out += text[i++];
      continue;
    }
    const { args, end } = splitArguments(text, i + call[0].length);
    const pinned = args.map((arg) => rewrite(arg, pin));
    const at = OPTIONS_ARGUMENT[call[1].toUpperCase()];
    out += `${call[0]}${(at === undefined ? pinned : withOptions(pinned, at, pin)).join(",")})`;
    i = end;
  }
  return out;
}

/** The index after the text literal starting at `start` ("" inside one is a quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '"') {
      if (text[i + 1] === '"') i += 2;
      else return i + 1;
    } else i++;
  }
  return text.length;
}

/** The arguments of a call whose "(" ends just before `start`, as written, and the index after its ")". */
function splitArguments(text: string, start: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let from = start;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === "(" || c === "{") depth++;
    else if ((c === ")" || c === "}") && depth > 0) depth--;
    else if (c === ")" && depth === 0) {
      // A call with no arguments at all has none, not one empty one.
      if (args.length > 0 || i > from) args.push(text.slice(from, i));
      return { args, end: i + 1 };
    } else if (c === "," && depth === 0) {
      args.push(text.slice(from, i));
      from = i + 1;
    }
    i++;
  }
  args.push(text.slice(from));
  return { args, end: text.length };
}

function withOptions(args: string[], at: number, pin: string | null): string[] {
  const out = [...args];
  const current = (out[at] ?? "").trim();
  const next = pinnedOptions(current, pin);
  if (next === null) {
    // Nothing left to say: drop it, and the trailing empty arguments (an omitted optional one says the same).
    if (at < out.length) out[at] = "";
    while (out.length > 0 && out[out.length - 1].trim() === "") out.pop();
    return out;
  }
  while (out.length < at) out.push("");
  out[at] = next;
  return out;
}

/** The options argument with the pin applied; null when it ends up saying nothing. */
function pinnedOptions(current: string, pin: string | null): string | null {
  const wrapped = WRAPPED.exec(current);
  if (wrapped) return pinnedOptions(wrapped[1].trim(), pin);
  if (current === "") return pin ? quote(`as_of=${pin}`) : null;
  if (current.startsWith('"') && stringEnd(current, 0) === current.length) {
    const parts = unquote(current)
      .split(";")
      .filter((part) => part.trim() !== "" && !AS_OF_PART.test(part))
      .map((part) => part.trim());
    if (pin) parts.unshift(`as_of=${pin}`);
    return parts.length > 0 ? quote(parts.join("; ")) : null;
  }
  return pin ? `${quote(`as_of=${pin}; `)}&(${current})` : current;
}

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
const unquote = (literal: string) => literal.slice(1, -1).replace(/""/g, '"');
