// The list envelope (docs/decisions.md, "Records and envelope"), its schema, and the paging parameters that go
// with it. Every endpoint that returns many records uses these, so paging works one way.
import { Type, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";
import type { SnapshotRef } from "../data/snapshot-context";
import { JsonText } from "../data/json-text";
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from "../../shared/contract/paging";

export const PagingQuery = {
  limit: Type.Integer({
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `Page size, 1..${MAX_LIMIT}.`,
  }),
  offset: Type.Integer({
    minimum: 0,
    maximum: MAX_OFFSET,
    default: 0,
    description: `Records to skip, 0..${MAX_OFFSET}. Use next_offset from the previous page.`,
  }),
};

export const SnapshotRefSchema = Type.Object(
  {
    id: Type.String({ description: "Snapshot identifier." }),
    captured_at: Type.String({ format: "date-time", description: "When the data was captured." }),
  },
  { description: "The snapshot the data came from." },
);

/** Schema of a list of `item`, with optional extra envelope fields (e.g. a summary). */
export function ListOf(item: TSchema, extra: TProperties = {}): TObject {
  return Type.Object({
    object: Type.Literal("list"),
    data: Type.Array(item),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
    next_offset: Type.Union([Type.Integer(), Type.Null()], { description: "Offset of the next page, or null." }),
    total_count: Type.Integer({ description: "Records matching the request, over all pages." }),
    snapshot: SnapshotRefSchema,
    ...extra,
  });
}

export interface Page {
  limit: number;
  offset: number;
}

export function listEnvelope<T>(data: T[], page: Page, total: number, snapshot: SnapshotRef, extra = {}) {
  const next = page.offset + data.length;
  const hasMore = next < total;
  return {
    object: "list" as const,
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
