// The list envelope (docs/decisions.md, "Records and envelope"): every endpoint that returns
// many records answers `{"object":"list","data":[...],...}` with these members, so paging works
// one way. The service serialises lists with ListOf; the add-in reads them as ListEnvelope.
import { Type, type Static, type TProperties, type TSchema } from "@sinclair/typebox";
import { SnapshotRef } from "./snapshot-ref";

/** The members of every list besides `data`. */
const ListMembers = Type.Object({
  object: Type.Literal("list"),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean(),
  next_offset: Type.Union([Type.Integer(), Type.Null()], { description: "Offset of the next page, or null." }),
  total_count: Type.Integer({ description: "Records matching the request, over all pages." }),
  snapshot: SnapshotRef,
});

/** Schema of a list of `item`, with extra envelope members beside `data` (a summary, say). */
export function ListOf<T extends TSchema, E extends TProperties = Record<never, never>>(item: T, extra: E = {} as E) {
  const { object, ...rest } = ListMembers.properties;
  return Type.Object({ object, data: Type.Array(item), ...rest, ...extra });
}

/** A list as received: records of type T, and what some lists add beside them (`E`). */
export type ListEnvelope<T = Record<string, unknown>, E = Record<never, never>> = Static<typeof ListMembers> & { data: T[] } & E;
