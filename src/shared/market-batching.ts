// Point calls for market snapshots, batched: the markets asked for within one window go to the
// service as one batch request, and each answer (a market, or the refusal of an unknown place)
// is cached as the single endpoint's answer to those inputs would be.
import type { ApiRequest } from "./api-client";
import { ApiError } from "./api-error";
import { type BatchOutcome, withinCreditsLeft } from "./batcher";
import type { MarketBatch } from "../contract/market-batch";
import { ENDPOINTS } from "./endpoints";
import { cacheKey, pinQuery, type SnapshotPin } from "./request-keys";
import { cachedError, type CachedRequests } from "./cached-requests";

/** A market as the batcher keys it: "industrial in Austin, TX". */
export interface MarketAsk {
  geography: string;
  asset_type: string;
}

export const marketKey = (m: MarketAsk, pin?: SnapshotPin) => `${m.asset_type} in ${m.geography}${pin ? ` ${JSON.stringify(pin)}` : ""}`;

/** The single endpoint's request for one market: the cache key its answer is held under. */
export function marketRequest(ask: MarketAsk, pin?: SnapshotPin): ApiRequest {
  return { method: "GET", path: ENDPOINTS.getMarketSnapshot.path, query: { ...ask, ...pinQuery(pin) } };
}

/**
 * The market batcher's fetch: one batch request for up to 100 markets, named by their batcher
 * keys (`asks` holds each key's market). When the credits left cannot cover the whole batch,
 * the markets they cover are asked for again and the rest get the 402.
 */
export async function fetchMarkets(
  requests: CachedRequests,
  keys: string[],
  asks: Map<string, MarketAsk>,
  pin: SnapshotPin | undefined,
): Promise<Map<string, BatchOutcome>> {
  const client = await requests.client();
  const { cache, snapshots } = requests;
  const keyOf = (ask: MarketAsk) => cacheKey(client, marketRequest(ask, pin));
  return withinCreditsLeft(keys, async (asked) => {
    const outcomes = new Map<string, BatchOutcome>();
    const markets = asked.map((k) => asks.get(k)!);
    // A market held from an older snapshot is sent with its ETag: unchanged, it costs nothing.
    const held = markets.map((ask) => requests.heldCopy(keyOf(ask)));
    const request = {
      markets: markets.map((ask, i) => {
        const entry = held[i];
        return entry?.etag && entry.value !== undefined ? { ...ask, if_none_match: entry.etag } : ask;
      }),
    };
    const response = await client.send<MarketBatch>({
      method: "POST",
      path: ENDPOINTS.getMarketSnapshotBatch.path,
      query: pinQuery(pin),
      body: request,
    });
    const body = response.body!;
    snapshots.note(body);
    const snapshotId = body.snapshot?.id ?? snapshots.current;
    if (!pin) snapshots.current = snapshotId;
    body.results.forEach((result, i) => {
      const key = keyOf(markets[i]);
      if (result.status === 304 && held[i]?.value !== undefined) {
        outcomes.set(asked[i], { record: requests.confirm(key, held[i]!, snapshotId) as Record<string, unknown> });
      } else if (result.market) {
        cache.set(key, { value: result.market, etag: result.etag, snapshotId });
        outcomes.set(asked[i], { record: result.market as unknown as Record<string, unknown> });
      } else {
        const problem = result.problem;
        const error = new ApiError(
          result.status,
          problem?.code ?? "not_found",
          problem?.detail ?? `No market for ${asked[i]}.`,
          response.requestId,
          [],
          {
            extensions: {
              parameter: problem?.parameter,
              place: problem?.place,
              accepted_kinds: problem?.accepted_kinds,
              match_count: problem?.match_count,
              suggestions: problem?.suggestions ?? [],
            },
          },
        );
        cache.set(key, { error: cachedError(error), snapshotId });
        outcomes.set(asked[i], { error });
      }
    });
    return outcomes;
  });
}
