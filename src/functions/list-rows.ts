// Fetches the rows a list function asked for: `limit` rows from `offset`, one page of at
// most 100 at a time (the service's page size), following next_offset. Each page is its own
// cached request, so a recalculation fetches none of them again.
import type { QueryValue } from "../shared/api-client";
import { type EndpointSpec } from "../shared/endpoints";
import { MAX_LIMIT } from "../contract/paging";
import type { ListEnvelope } from "../contract/list-envelope";
import type { FunctionContext } from "./call-context";

export interface FetchedRows {
  rows: Record<string, unknown>[];
  /** Matching records over all pages. */
  total: number;
  /** The first page's envelope (for summaries it carries, e.g. the owner of a portfolio). */
  first: ListEnvelope;
}

export async function fetchRows(
  ctx: FunctionContext,
  spec: EndpointSpec,
  pathParams: Record<string, string>,
  query: Record<string, QueryValue>,
  paging: { limit: number; offset: number },
): Promise<FetchedRows> {
  const rows: Record<string, unknown>[] = [];
  let offset = paging.offset;
  let first: ListEnvelope | null = null;
  for (;;) {
    const size = Math.min(MAX_LIMIT, paging.limit - rows.length);
    const page = await ctx.session.api.get<ListEnvelope>(spec, pathParams, { ...query, limit: size, offset }, ctx);
    first ??= page;
    rows.push(...page.data);
    if (rows.length >= paging.limit || !page.has_more || page.next_offset === null || page.data.length === 0) break;
    offset = page.next_offset;
  }
  return { rows: rows.slice(0, paging.limit), total: first.total_count, first };
}
