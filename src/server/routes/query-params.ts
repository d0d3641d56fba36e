// Server-side checks of query inputs beyond their schemas. The inputs themselves (their
// schemas) are shared with the add-in and live in src/shared/contract/queries.ts.
import { impossibleRange } from "../../shared/contract/queries";
import { ApiProblem } from "../http/problem";

/** A lower bound above its upper bound matches nothing: refused (free) before a query runs. */
export function checkRanges(operation: string, query: Record<string, unknown>): void {
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
