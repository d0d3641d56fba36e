// The `from` and `to` of PROP.MARKETHISTORY as the YYYY-MM-DD dates the service takes. An
// analyst writes a bound the way the model holds it: a date cell (a serial number), date text,
// a quarter ("2016-Q1", "Q1 2016") or a year (2016, or "2016"). A quarter or a year stands for
// its first day as `from` and its last day as `to`, so "2016-Q1" to "2020-Q4" is every quarter
// of those five years at either interval. Anything else is #VALUE! before any request.
import { InputError } from "./excel-errors";
import { isBlank } from "./argument-parsers";
import { checkDate } from "./param-values";

export type Bound = "from" | "to";

/** A whole number in this range is read as a year, not as a date serial (serial 2016 is 1905-07-08). */
const YEARS = { min: 1900, max: 2199 };

const QUARTER_PATTERNS = [/^(\d{4})\s*-?\s*q([1-4])$/i, /^q([1-4])\s*-?\s*(\d{4})$/i];

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** The first or last day of a quarter (1..4) or, with quarter null, of the year. */
function edge(year: number, quarter: number | null, bound: Bound): string {
  const firstMonth = quarter === null ? 1 : (quarter - 1) * 3 + 1;
  const lastMonth = quarter === null ? 12 : firstMonth + 2;
  if (bound === "from") return `${year}-${pad(firstMonth)}-01`;
  const lastDay = new Date(Date.UTC(year, lastMonth, 0)).getUTCDate();
  return `${year}-${pad(lastMonth)}-${pad(lastDay)}`;
}

/** One bound of a series as YYYY-MM-DD, or null when the argument is left out. */
export function periodBoundArg(raw: unknown, bound: Bound): string | null {
  if (isBlank(raw)) return null;
  if (typeof raw === "boolean") throw new InputError(`${bound} cannot be TRUE or FALSE: give a date, a quarter ("2016-Q1") or a year.`);
  const text = String(raw).trim();
  if (/^\d{4}$/.test(text) && Number(text) >= YEARS.min && Number(text) <= YEARS.max) return edge(Number(text), null, bound);
  for (const [i, pattern] of QUARTER_PATTERNS.entries()) {
    const m = pattern.exec(text);
    if (m) return edge(Number(i === 0 ? m[1] : m[2]), Number(i === 0 ? m[2] : m[1]), bound);
  }
  if (/q/i.test(text) && /\d{4}/.test(text)) {
    throw new InputError(`${bound}: "${text}" is not a quarter; write it as 2016-Q1 (quarters are Q1 to Q4).`);
  }
  if (typeof raw === "number" && (!Number.isFinite(raw) || raw < 1)) throw new InputError(`${bound}: ${text} is not a date.`);
  try {
    return checkDate(raw, bound);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(`${err.message.replace(/\.$/, "")}, a quarter such as 2016-Q1, or a year.`);
  }
}

/** Both bounds; a `from` after `to` can match nothing and is refused here, free. */
export function periodRange(from: unknown, to: unknown): { from?: string; to?: string } {
  const start = periodBoundArg(from, "from");
  const end = periodBoundArg(to, "to");
  if (start && end && start > end) throw new InputError(`from (${start}) is after to (${end}): no period can match.`);
  return { ...(start ? { from: start } : {}), ...(end ? { to: end } : {}) };
}
