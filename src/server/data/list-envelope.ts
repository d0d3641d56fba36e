// Lists as the service answers them: a page of records in the contract's list envelope
// (src/contract/list-envelope.ts), as an object or as JSON text.
import { MAX_OFFSET, type Page } from "../../contract/paging";
import type { ListEnvelope } from "../../contract/list-envelope";
import type { SnapshotRef } from "../../contract/snapshot-ref";
import { JsonText } from "./json-text";

/**
 * Whether a route's answer is a list that matched nothing (`total_count` 0): such an answer is
 * free (docs/decisions.md, "Credits"). A page past the end of a non-empty result is not: it
 * still tells how many records match.
 */
export function isEmptyList(result: unknown): boolean {
  if (result instanceof JsonText) return result.totalCount === 0;
  const list = result as Partial<ListEnvelope<unknown>> | null;
  return typeof list === "object" && list !== null && list.object === "list" && list.total_count === 0;
}

/** A page of `data` from `total` matching records, with what the list adds beside them (`extra`). */
export function listEnvelope<T, E extends object = Record<never, never>>(
  data: T[],
  page: Page,
  total: number,
  snapshot: SnapshotRef,
  extra: E = {} as E,
): ListEnvelope<NoInfer<T>, NoInfer<E>> {
  const next = page.offset + data.length;
  const hasMore = next < total;
  return {
    object: "list",
    data,
    limit: page.limit,
    offset: page.offset,
    has_more: hasMore,
    next_offset: hasMore && next <= MAX_OFFSET ? next : null,
    total_count: total,
    snapshot,
    ...extra,
  };
}

/**
 * The same envelope as JSON text, around records already rendered as JSON by SQLite (see
 * property-search.ts): what the schema serialiser would write, without building an object per
 * record and serialising it again.
 */
export function listEnvelopeText(records: string[], page: Page, total: number, snapshot: SnapshotRef): JsonText {
  const { object, data: _records, ...rest } = listEnvelope(records, page, total, snapshot);
  return new JsonText(`{"object":${JSON.stringify(object)},"data":[${records.join(",")}],${JSON.stringify(rest).slice(1)}`, undefined, total);
}
