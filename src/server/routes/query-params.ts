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
