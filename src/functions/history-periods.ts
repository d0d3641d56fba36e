// The `from` and `to` of PROP.MARKETHISTORY as the service takes them. An analyst writes a
// bound the way the model holds it, in the date grammar (src/contract/dates.ts) every
// date input takes: a date cell, date text, a year (2016), a quarter ("2016-Q1", "Q1 2016"), a
// month ("2016-03"), or a relative form (-8Q, LQ, YTD) the service counts from its capture
// date. A year, quarter or month stands for its first day as `from` and its last day as `to`,
// so "2016-Q1" to "2020-Q4" is every quarter of those five years at either interval. Anything
// else is #VALUE! before any request.
import { isIsoDate } from "../contract/dates";
import { InputError } from "./excel-errors";
import { isBlank } from "./argument-parsers";
import { checkDate } from "./param-values";

export type Bound = "from" | "to";

/** One bound of a series as the service takes it (a day, or a relative form), or null when the argument is left out. */
export function periodBoundArg(raw: unknown, bound: Bound): string | null {
  if (isBlank(raw)) return null;
  return checkDate(raw, bound, bound === "from" ? "start" : "end");
}

/** Both bounds; a `from` after `to` can match nothing and is refused here, free (relative ones by the service). */
export function periodRange(from: unknown, to: unknown): { from?: string; to?: string } {
  const start = periodBoundArg(from, "from");
  const end = periodBoundArg(to, "to");
  if (isIsoDate(start) && isIsoDate(end) && start > end) throw new InputError(`from (${start}) is after to (${end}): no period can match.`);
  return { ...(start ? { from: start } : {}), ...(end ? { to: end } : {}) };
}
