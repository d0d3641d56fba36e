// Server-side checks of query inputs beyond their schemas. The inputs themselves (their
// schemas) are shared with the add-in and live in src/contract/queries.ts.
import {
  DATE_FORMS,
  DATE_INPUT_BOUNDS,
  DateSyntaxError,
  FIXED_DATE_FORMS,
  isRelativeDate,
  parseDateInput,
  resolveDateInput,
} from "../../contract/dates";
import { impossibleRange } from "../../contract/queries";
import { ApiProblem } from "../http/problem";

/** A lower bound above its upper bound matches nothing: refused (free) before a query runs. */
export function checkRanges(operation: string, query: object): void {
  const range = impossibleRange(operation, query);
  if (!range) return;
  throw new ApiProblem(400, "validation_failed", range.detail, [
    { pointer: `/${range.low}`, parameter: range.low, detail: range.detail },
    { pointer: `/${range.high}`, parameter: range.high, detail: range.detail },
  ]);
}

/**
 * A comma-separated list of names, each one of `allowed`, in the order given; a name not
 * allowed, or given twice, is refused (free) naming it and listing the allowed ones.
 */
export function nameList<T extends string>(parameter: string, text: string, allowed: readonly T[]): T[] {
  const names = text.split(",");
  const refuse = (detail: string) => new ApiProblem(400, "validation_failed", detail, [{ pointer: `/${parameter}`, parameter, detail }]);
  const seen = new Set<string>();
  for (const name of names) {
    if (!(allowed as readonly string[]).includes(name))
      throw refuse(`${parameter}: there is no ${parameter === "metrics" ? "metric" : "value"} '${name}'. Allowed: ${allowed.join(", ")}.`);
    if (seen.has(name)) throw refuse(`${parameter}: '${name}' is given twice.`);
    seen.add(name);
  }
  return names as T[];
}

function dateRefusal(parameter: string, detail: string): ApiProblem {
  return new ApiProblem(400, "validation_failed", `${parameter}: ${detail}`, [{ pointer: `/${parameter}`, parameter, detail }]);
}

/**
 * The query with each date input it holds (min_sale_date, max_sale_date, from, to) read with
 * the date grammar and resolved to the day it stands for, YYYY-MM-DD: a year, quarter or month
 * to its first day as a lower bound and its last as an upper one, relative forms counted from
 * `capture` (the capture date of the snapshot answering). A value that is no form is refused
 * (free), naming the forms. `as_of` is resolved before the snapshot is chosen (resolveAsOf).
 */
export function resolveDateParams<Q extends object>(query: Q, capture: string): Q {
  let out = query;
  for (const [name, bound] of Object.entries(DATE_INPUT_BOUNDS)) {
    const raw: unknown = Reflect.get(query, name);
    if (name === "as_of" || raw === undefined) continue;
    try {
      const date = resolveDateInput(parseDateInput(String(raw)), bound, capture);
      if (date !== raw) out = { ...out, [name]: date };
    } catch (err) {
      if (err instanceof DateSyntaxError) throw dateRefusal(name, err.message);
      throw err;
    }
  }
  return out;
}

/**
 * The query with `as_of` as the day it names (its last day: the newest snapshot captured on or
 * before it). A relative form is refused: it would count from a snapshot's capture date while
 * choosing the snapshot, and move with every new one, so a model pinned with it would not stay pinned.
 */
export function resolveAsOf<Q extends { as_of?: string }>(query: Q): Q {
  if (query.as_of === undefined) return query;
  try {
    const input = parseDateInput(String(query.as_of));
    if (isRelativeDate(input)) {
      throw new DateSyntaxError(`"${String(query.as_of)}" counts from a capture date, which as_of chooses; write ${FIXED_DATE_FORMS}.`);
    }
    return { ...query, as_of: resolveDateInput(input, DATE_INPUT_BOUNDS.as_of) };
  } catch (err) {
    // as_of takes the fixed forms only: the refusal names those.
    if (err instanceof DateSyntaxError) throw dateRefusal("as_of", err.message.replace(DATE_FORMS, FIXED_DATE_FORMS));
    throw err;
  }
}
