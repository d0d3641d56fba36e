// Server-side helpers for query inputs. The inputs themselves (their schemas) are shared with
// the add-in and live in src/shared/contract/queries.ts.
import type { TObject } from "@sinclair/typebox";
import { QueryObject, impossibleRange } from "../../shared/contract/queries";
import { PagingQuery } from "../http/list-envelope";
import { ApiProblem } from "../http/problem";

/** An endpoint's query inputs with the paging parameters (`limit`, `offset`) after them. */
export function Paged(query: TObject): TObject {
  return QueryObject({ ...query.properties, ...PagingQuery }, query.required ?? []);
}

/** A lower bound above its upper bound matches nothing: refused (free) before any query runs. */
export function checkRanges(operation: string, query: Record<string, unknown>): void {
  const range = impossibleRange(operation, query);
  if (!range) return;
  throw new ApiProblem(400, "validation_failed", range.detail, [
    { pointer: `/${range.low}`, parameter: range.low, detail: range.detail },
    { pointer: `/${range.high}`, parameter: range.high, detail: range.detail },
  ]);
}
