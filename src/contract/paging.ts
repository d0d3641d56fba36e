// Paging bounds of every list endpoint (docs/decisions.md, "Records and envelope"): the service validates and
// publishes them, and the add-in pages and checks arguments by the same numbers.
import { Type } from "@sinclair/typebox";
import { WithDefault } from "./schema-helpers";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
export const MAX_OFFSET = 10_000;

/** The paging parameters of every list endpoint, after its own query inputs. */
export const PagingQuery = {
  limit: WithDefault(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, 1..${MAX_LIMIT}.` }), DEFAULT_LIMIT),
  offset: WithDefault(
    Type.Integer({
      minimum: 0,
      maximum: MAX_OFFSET,
      description: `Records to skip, 0..${MAX_OFFSET}. Use next_offset from the previous page.`,
    }),
    0,
  ),
};

/** Which page a request asks for (after validation, both are always present). */
export interface Page {
  limit: number;
  offset: number;
}
