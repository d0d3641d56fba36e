// Lists as the service answers them: a page of records in the contract's list envelope
// (src/shared/contract/list-envelope.ts), as an object or as JSON text.
import { MAX_OFFSET, type Page } from "../../shared/contract/paging";
import type { ListEnvelope } from "../../shared/contract/list-envelope";
import type { SnapshotRef } from "../../shared/contract/snapshot-ref";
import { JsonText } from "./json-text";

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
  return new JsonText(`{"object":${JSON.stringify(object)},"data":[${records.join(",")}],${JSON.stringify(rest).slice(1)}`);
}
