// Many market snapshots in one request (POST /v1/commercial/markets/batch): what a grid of
// =PROP.MARKET cells needs, one request instead of one per market, so a workbook stays within
// the plan's rate limit. Each market is answered or refused on its own, its inputs checked as
// the single endpoint checks them (a batch of the wrong shape is refused as a whole); only the
// markets answered cost credits (the single endpoint's cost each, a market asked twice once).
import { Type, type Static } from "@sinclair/typebox";
import { MarketSnapshot } from "./records";
import { Problem } from "./problem";
import { SnapshotRef } from "./snapshot-ref";
import { Ref } from "./schema-helpers";

/** Most markets one batch asks for. */
export const MAX_MARKET_BATCH = 100;

export const MarketBatchRequest = Type.Object(
  {
    markets: Type.Array(
      Type.Object(
        {
          geography: Type.String({
            description:
              "The single endpoint's `geography`. Checked for this market alone: a value that endpoint refuses refuses this market only.",
          }),
          asset_type: Type.String({
            description:
              "The single endpoint's `asset_type`. Checked for this market alone: an unknown asset type gives this market the " +
              "single endpoint's 400 `validation_failed`, free.",
          }),
          if_none_match: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              description:
                "The ETag held for this market (from a batch or the single endpoint): while it is unchanged the result is " +
                'status 304 with no market, and costs nothing. `"*"` is no ETag of a market: it refuses the market (400).',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: MAX_MARKET_BATCH,
        description: `1 to ${MAX_MARKET_BATCH} markets, each as the single endpoint's inputs, with the ETag already held if any.`,
      },
    ),
  },
  { additionalProperties: false },
);
export type MarketBatchRequest = Static<typeof MarketBatchRequest>;

/**
 * The problem a refused market gets: the single endpoint's answer for it (a place it cannot
 * resolve, no market there, an input it refuses), without the request id (the batch has one)
 * and field errors (the market's inputs are named beside it).
 */
const { type, title, status, detail, parameter, place, suggestions, accepted_kinds, match_count } = Problem.properties;
const ItemProblem = Type.Object({
  type,
  title,
  status,
  detail,
  code: Type.String({
    description:
      "unknown_place, ambiguous_place, unsupported_place, not_found (no properties of the type there), validation_failed (an input the " +
      'single endpoint refuses, or `if_none_match` "*").',
  }),
  parameter,
  place,
  suggestions,
  accepted_kinds,
  match_count,
});

export const MarketBatchResult = Type.Object({
  geography: Type.String({ description: "As asked (anything shaped like an API key redacted)." }),
  asset_type: Type.String({ description: "As asked (anything shaped like an API key redacted)." }),
  status: Type.Integer({
    description:
      "200; 304 when if_none_match named the market as it is (no market, no credits); or the status the single endpoint would answer (400, 404).",
  }),
  market: Type.Union([Ref(MarketSnapshot), Type.Null()], { description: "The market snapshot (status 200), else null." }),
  etag: Type.Union([Type.String(), Type.Null()], {
    description:
      "The ETag the single endpoint gives this market: send it as If-None-Match there to revalidate it alone (free while unchanged).",
  }),
  problem: Type.Union([ItemProblem, Type.Null()], { description: "Why there is no market (status 400 or 404), else null." }),
});
export type MarketBatchResult = Static<typeof MarketBatchResult>;

export const MarketBatch = Type.Object(
  {
    object: Type.Literal("market_batch"),
    results: Type.Array(MarketBatchResult, { description: "One per market asked, in the order asked." }),
    credits_charged: Type.Integer({
      minimum: 0,
      description: "Credits this batch cost: one per distinct market answered (status 200); unchanged (304) and refused markets are free.",
    }),
    snapshot: SnapshotRef,
  },
  { $id: "MarketBatch", title: "Market snapshot batch" },
);
export type MarketBatch = Static<typeof MarketBatch>;
