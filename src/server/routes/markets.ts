// GET /v1/commercial/markets/snapshot: the market figures of one geography and asset type,
// precomputed from the snapshot's properties, sales and leases when it was built; and POST
// /v1/commercial/markets/batch: up to 100 of them in one request, each checked, answered or
// refused on its own. The geography is resolved first, so a place the snapshot does not hold costs nothing.
// The whole country ("US", "United States") is the national market of the asset type.
import { assetTypeOf } from "../../contract/vocabulary";
import { NATIONAL_PLACE, isNational } from "../../contract/places";
import { MarketSnapshot, type MarketRecord } from "../../contract/records";
import { isThin } from "../../contract/market-sample";
import { QUERIES } from "../../contract/queries";
import type { MarketBatchResult } from "../../contract/market-batch";
import { ApiProblem, notFound, problemBody } from "../http/problem";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import type { SnapshotContext } from "../data/snapshot-context";
import { JsonText } from "../data/json-text";
import { etagMatches, isWildcard, weakEtagOf } from "../http/etag";
import { redactKeys } from "../http/request-id";
import { itemQueryCheck } from "./item-query";
import { queryPlaces } from "./place-params";

/** The geography a market is asked for: the nation ("US", "United States"), or one place resolved. */
function marketPlace(snapshot: SnapshotContext, geography: string, operation: "getMarketSnapshot" | "getMarketHistory") {
  if (isNational(geography)) return { kind: "national", code: NATIONAL_PLACE, name: "the United States" };
  const [place] = queryPlaces(snapshot, operation, { geography }, { single: true });
  return { kind: place.kind, code: place.entries[0].code, name: place.entries[0].name };
}

/**
 * The market of one place and asset type (the columns asked, all by default); throws the
 * problem the market endpoints answer.
 */
export function findMarket<T = MarketRecord>(
  snapshot: SnapshotContext,
  geography: string,
  assetType: string,
  operation: "getMarketSnapshot" | "getMarketHistory" = "getMarketSnapshot",
  columns = "*",
): T {
  const { kind, code, name } = marketPlace(snapshot, geography, operation);
  const row = snapshot.get<T>(`SELECT ${columns} FROM markets WHERE geography_type = ? AND geography_id = ? AND asset_type = ?`, [
    kind,
    code,
    assetType,
  ]);
  if (!row) throw notFound(`The snapshot has no ${assetType} properties in ${name}.`);
  return row;
}

/** A stored market as the API answers it: with `thin` beside the property count it follows from. */
export function answeredMarket(row: MarketRecord): MarketSnapshot {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = value;
    if (key === "property_count") out.thin = isThin(row.property_count);
  }
  return out as MarketSnapshot;
}

/**
 * A market's validator: a hash of its figures, leaving out `as_of` (the capture date, which
 * every new snapshot moves), so a market a new snapshot left as it was revalidates free. Weak,
 * since the body it stands for may differ in that date. The single endpoint and the batch give
 * a market the same one, so either revalidates what the other fetched.
 */
export function marketEtag(market: MarketSnapshot): string {
  const { as_of: _asOf, ...figures } = market;
  return weakEtagOf(JSON.stringify(figures));
}

/** A market as the single endpoint's JSON text, with its validator. */
export function marketAnswer(market: MarketSnapshot): JsonText {
  return new JsonText(JSON.stringify(market), marketEtag(market));
}

export const marketSnapshotRoute = defineRoute(OPERATIONS.getMarketSnapshot, {
  handler: ({ snapshot, query }) => marketAnswer(answeredMarket(findMarket<MarketRecord>(snapshot, query.geography, query.asset_type))),
});

/** A batch market's inputs, checked as the single endpoint checks its query. */
const checkMarket = itemQueryCheck(QUERIES.getMarketSnapshot);

export const marketBatchRoute = defineRoute(OPERATIONS.getMarketSnapshotBatch, {
  units: (body) => body.markets.length,
  handler: ({ snapshot, body, request }) => {
    const asked = body.markets;
    const answered = new Set<string>();
    const results = asked.map(({ geography, asset_type: given, if_none_match }): MarketBatchResult => {
      const asset_type = assetTypeOf(given) ?? given;
      // What the caller sent is echoed, never a key pasted into it.
      const echo = { geography: redactKeys(geography), asset_type: redactKeys(given) };
      try {
        const refused = checkMarket({ geography, asset_type });
        if (refused) throw refused;
        if (if_none_match !== undefined && isWildcard(if_none_match)) throw wildcardRefusal();
        const market = answeredMarket(findMarket<MarketRecord>(snapshot, geography, asset_type));
        const etag = marketEtag(market);
        if (if_none_match !== undefined && etagMatches(if_none_match, etag)) {
          return { ...echo, status: 304, market: null, etag, problem: null };
        }
        answered.add(market.id);
        return { ...echo, status: 200, market, etag, problem: null };
      } catch (err) {
        if (!(err instanceof ApiProblem)) throw err;
        const { request_id: _id, errors: _errors, ...problem } = problemBody(request, err);
        return { ...echo, status: err.status, market: null, etag: null, problem };
      }
    });
    const charged = answered.size * OPERATIONS.getMarketSnapshotBatch.cost;
    request.chargedCredits = charged;
    return { object: "market_batch" as const, results, credits_charged: charged, snapshot: snapshot.ref };
  },
});

/** "*" names no held copy of a market: refused for that market, rather than taken as "unchanged". */
function wildcardRefusal(): ApiProblem {
  const detail = 'if_none_match is "*", which is no ETag of a market: send the ETag held for it, or leave it out.';
  return new ApiProblem(400, "validation_failed", detail, [{ pointer: "/if_none_match", detail }], { parameter: "if_none_match" });
}
