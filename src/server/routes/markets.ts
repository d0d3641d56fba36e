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
import { MAX_MARKET_BATCH, type MarketBatchResult } from "../../contract/market-batch";
import { ApiProblem, notFound, problemBody } from "../http/problem";
import { OPERATIONS } from "../../contract/operations";
import { defineRoute } from "./route-def";
import type { SnapshotContext } from "../data/snapshot-context";
import { JsonText } from "../data/json-text";
import { etagMatches, isWildcard, weakEtagOf } from "../http/etag";
import { redactKeys } from "../http/request-id";
import { itemQueryCheck } from "./item-query";
import { PLACE_PROBLEMS, queryPlaces } from "./place-params";

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
  tag: "Markets",
  summary: "Market snapshot by geography and asset type",
  description:
    "Inventory, occupancy and vacancy, asking rent, rent growth, cap rate and sales volume of one asset type in the whole " +
    'country, a state, county, metro, city or ZIP code ("US", "TX", "Travis County, TX", "Austin, TX metro", "Austin, TX", ' +
    '"78704"; "United States" is "US" too, the national market, whose `state_code` is null). A geography ' +
    "the snapshot does not hold, or a city name found in several states, is refused free of charge with suggestions.",
  notFound: "The snapshot has no properties of the asset type in the geography",
  badRequest: PLACE_PROBLEMS,
  handler: ({ snapshot, query }) => marketAnswer(answeredMarket(findMarket<MarketRecord>(snapshot, query.geography, query.asset_type))),
});

/** A batch market's inputs, checked as the single endpoint checks its query. */
const checkMarket = itemQueryCheck(QUERIES.getMarketSnapshot);

export const marketBatchRoute = defineRoute(OPERATIONS.getMarketSnapshotBatch, {
  tag: "Markets",
  summary: "Many market snapshots in one request",
  description:
    `Up to ${MAX_MARKET_BATCH} markets, each given as the single endpoint's geography and asset type, answered in the ` +
    "order asked: each market is checked on its own, and its result has the market (status 200) or the problem the single " +
    "endpoint would answer (400 for an unknown asset type or place, 404), so one bad market refuses only itself. A batch " +
    "of the wrong shape (markets not a list, more than the limit, a field of the wrong type) is refused as a whole. " +
    "Costs the single endpoint's credits for each distinct market answered; markets refused cost nothing, and so does a " +
    'market sent with the ETag it has (`if_none_match`) when it is unchanged (status 304, no market); `"*"` is no ETag ' +
    "and refuses its market (400). The credits " +
    "of every market asked are held while the batch runs, so a batch larger than the credits left gets 402.",
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
