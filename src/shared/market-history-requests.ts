// PROP.MARKETHISTORY's requests. A series costs per call, not per metric, and a model often
// asks for one market's history in several cells, one metric each (rent in one column, vacancy
// in the next). Cells asking the same market, interval and dates within the batching window
// are sent as one request with the union of their metrics; each cell's own answer (its
// metrics, in its order) is then cached under its own request, so recalculating any one of
// them later costs nothing. A lone cell sends exactly its own request, so the pane's preview
// and the formula it inserts share one cached answer.
// Built on CachedApi's public get and the result cache, so the cache's rules (previews,
// refresh, revalidation with an ETag) stay in one place.
import type { ApiClient } from "./api-client";
import { ApiError } from "./api-error";
import { Batcher, type BatchOutcome } from "./batcher";
import type { CachedApi } from "./cached-api";
import { cachedError, type CallContext } from "./cached-requests";
import { MARKET_HISTORY_METRIC_NAMES, type MarketHistory } from "../contract/history";
import { ENDPOINTS } from "./endpoints";
import type { ResultCache } from "./result-cache";
import { cacheKey, pinQuery } from "./request-keys";
import { SharedRequests } from "./shared-requests";

export interface MarketHistoryRequestsOptions {
  api: CachedApi;
  cache: ResultCache;
  connect: () => Promise<ApiClient>;
  /** Resolves once stored results are loaded. */
  ready?: () => Promise<void>;
  batchWindowMs?: number;
}

/** A series query as the service takes it: geography, asset_type, metrics (comma-separated), from, to, interval. */
export type SeriesQuery = Record<string, string> & { metrics: string };

/** Distinct cell requests collected in one window before they are sent. */
const MAX_COLLECTED = 100;

const SPEC = ENDPOINTS.getMarketHistory;

/** A query as one stable text, its inputs in name order: the batcher's key. */
function keyOf(query: Record<string, string>): string {
  return JSON.stringify(Object.entries(query).sort(([a], [b]) => a.localeCompare(b)));
}

/** The metrics of several asks together, each once, in the contract's order. */
function unionOf(asks: readonly SeriesQuery[]): string {
  const asked = new Set(asks.flatMap((a) => a.metrics.split(",")));
  return MARKET_HISTORY_METRIC_NAMES.filter((m) => asked.has(m)).join(",");
}

/** The part of a union's answer one cell asked for: its metrics, in its order. */
export function seriesOf(body: MarketHistory, metrics: readonly string[]): MarketHistory {
  const pick = <T>(values: Record<string, T>) => Object.fromEntries(metrics.filter((m) => m in values).map((m) => [m, values[m]]));
  return {
    ...body,
    metrics: [...metrics],
    units: pick(body.units),
    periods: body.periods.map((p) => ({ ...p, values: pick(p.values) })),
  };
}

export class MarketHistoryRequests {
  private readonly requests = new SharedRequests();
  private readonly batcher: Batcher;
  /** Series requests sent for collected cells (for tests and the benchmark). */
  requestsSent = 0;

  constructor(private readonly options: MarketHistoryRequestsOptions) {
    this.batcher = new Batcher({ fetchBatch: (keys) => this.fetchGroups(keys), windowMs: options.batchWindowMs, maxBatch: MAX_COLLECTED });
  }

  /** One cell's series: from the cache, else collected with the other cells asking the same market meanwhile. */
  async series(query: SeriesQuery, ctx: CallContext = {}): Promise<MarketHistory> {
    const client = await this.client();
    // A pinned call (as_of) names its snapshot in the query: only cells of the same pin go together.
    const asked: SeriesQuery = { ...query, ...pinQuery(ctx.pin) };
    const key = cacheKey(client, { method: "GET", path: SPEC.path, query: asked });
    const entry = this.options.cache.peek(key);
    // A preview never starts a metered request: it may wait for this cell's request already on its way.
    const joined = ctx.preview ? this.requests.join<MarketHistory>(key, ctx.signal) : undefined;
    if (joined) return joined;
    // A current answer or refusal, a stale copy that revalidates alone with its ETag (a 304 is
    // free), and a preview go the usual way.
    if ((entry && !entry.stale) || entry?.etag || ctx.preview) return this.options.api.get<MarketHistory>(SPEC, {}, query, ctx);
    // Noted in the call's trace as the cell's own request, batched with the other cells' asks.
    return this.options.api.traced(
      ctx,
      key,
      { method: "GET", path: SPEC.path, query: asked },
      true,
      () =>
        this.requests.run(
          key,
          (signal) => this.batcher.load(keyOf(asked), signal),
          ctx.signal,
        ) as Promise<unknown> as Promise<MarketHistory>,
    );
  }

  private async client(): Promise<ApiClient> {
    const [client] = await Promise.all([this.options.connect(), this.options.ready?.()]);
    return client;
  }

  /** The batcher's fetch: one request per market, interval, dates and pin, for every cell that asked it. */
  private async fetchGroups(keys: string[]): Promise<Map<string, BatchOutcome>> {
    const client = await this.client();
    const groups = new Map<string, { key: string; ask: SeriesQuery }[]>();
    for (const key of keys) {
      const ask = Object.fromEntries(JSON.parse(key) as [string, string][]) as SeriesQuery;
      const { metrics: _metrics, ...rest } = ask;
      const group = keyOf(rest);
      groups.set(group, [...(groups.get(group) ?? []), { key, ask }]);
    }
    const outcomes = new Map<string, BatchOutcome>();
    await Promise.all([...groups.values()].map((members) => this.fetchGroup(client, members, outcomes)));
    return outcomes;
  }

  private async fetchGroup(client: ApiClient, members: { key: string; ask: SeriesQuery }[], outcomes: Map<string, BatchOutcome>) {
    const metrics = members.length === 1 ? members[0].ask.metrics : unionOf(members.map((m) => m.ask));
    const query = { ...members[0].ask, metrics };
    const ownKey = (ask: SeriesQuery) => cacheKey(client, { method: "GET", path: SPEC.path, query: ask });
    this.requestsSent++;
    try {
      const body = await this.options.api.get<MarketHistory>(SPEC, {}, query);
      const snapshotId = body.snapshot?.id ?? this.options.api.currentSnapshot();
      for (const { key, ask } of members) {
        if (ask.metrics === metrics) {
          outcomes.set(key, { record: body as unknown as Record<string, unknown> });
          continue;
        }
        // No ETag of its own (the union's is not this request's): after a new snapshot it is asked again through here.
        const own = seriesOf(body, ask.metrics.split(","));
        this.options.cache.set(ownKey(ask), { value: own, snapshotId });
        outcomes.set(key, { record: own as unknown as Record<string, unknown> });
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // A refusal of the place or asset type (400, 404) is every member's, and remembered like any other.
      const kept = cachedError(err);
      for (const { key, ask } of members) {
        if ((err.status === 400 || err.status === 404) && ask.metrics !== metrics) {
          this.options.cache.set(ownKey(ask), { error: kept, snapshotId: this.options.api.currentSnapshot() });
        }
        outcomes.set(key, { error: err });
      }
    }
  }
}
