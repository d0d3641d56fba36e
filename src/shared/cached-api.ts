// The way the custom functions reach the service: every request goes through the result
// cache (cached-requests.ts), point calls for properties, markets and addresses are batched
// (property-batching.ts, market-batching.ts, match-batching.ts), the snapshot served is tracked from the answers
// (snapshot-tracker.ts), and only refresh() revalidates.
import type { ApiClient, ApiRequest, QueryValue } from "./api-client";
import { ApiError } from "./api-error";
import type { CoverageReport } from "../contract/coverage";
import type { PropertyComparison } from "../contract/responses";
import { fillPath, type AnswerOf, type CallParts, type Operation } from "../contract/operation";
import { ENDPOINTS, endpointPath, type EndpointSpec } from "./endpoints";
import { Batcher } from "./batcher";
import { MAX_MARKET_BATCH } from "../contract/market-batch";
import { MATCH_MAX_ROWS, type PropertyMatch } from "../contract/property-match";
import type { ResultCache } from "./result-cache";
import { cacheKey, normaliseQuery, pinQuery, type SnapshotPin } from "./request-keys";
import { CachedRequests, unwrap, type CallContext } from "./cached-requests";
import { SnapshotTracker, keptOnRefresh } from "./snapshot-tracker";
import { ALL_PROPERTY_FIELDS, COMPARE_BATCH, detailRequest, fetchProperties } from "./property-batching";
import { fetchMarkets, marketKey, marketRequest, type MarketAsk } from "./market-batching";
import { fetchMatches, matchKey, matchRequest, type MatchAsk } from "./match-batching";
import { requestSource } from "./cell-provenance";

export interface RefreshResult {
  /** The coverage report the service answered; its snapshot is the one served now. */
  coverage: CoverageReport;
  snapshotId: string;
  capturedAt: string | null;
  /** True when the service now serves another snapshot than the one results were cached from. */
  changed: boolean;
  /** Cached results that will be revalidated on their next use. */
  staleEntries: number;
}

export interface CachedApiOptions {
  connect: () => Promise<ApiClient>;
  cache: ResultCache;
  /** Resolves once stored results are loaded (OfficeRuntime.storage). */
  ready?: () => Promise<void>;
  batchWindowMs?: number;
}

export class CachedApi {
  private readonly snapshots = new SnapshotTracker();
  private readonly requests: CachedRequests;
  /** Property, market and address batchers, one set per pin: a batch asks one snapshot. */
  private readonly batchers = new Map<string, { properties: Batcher; markets: Batcher; matches: Batcher }>();
  /** The markets the market batchers have been asked for, by pin and market key. */
  private readonly marketAsks = new Map<string, MarketAsk>();
  /** The addresses the match batchers have been asked for, by their key (pin included). */
  private readonly matchAsks = new Map<string, MatchAsk>();

  constructor(private readonly options: CachedApiOptions) {
    this.requests = new CachedRequests(options, this.snapshots);
  }

  private batchersFor(pin: SnapshotPin | undefined) {
    const name = pin ? JSON.stringify(pin) : "";
    let pair = this.batchers.get(name);
    if (!pair) {
      pair = {
        properties: new Batcher({
          fetchBatch: (ids) => fetchProperties(this.requests, ids, pin),
          windowMs: this.options.batchWindowMs,
          maxBatch: COMPARE_BATCH,
        }),
        markets: new Batcher({
          fetchBatch: (keys) => {
            const asks = new Map(keys.map((k) => [k, this.marketAsks.get(k)!]));
            for (const k of keys) this.marketAsks.delete(k);
            return fetchMarkets(this.requests, keys, asks, pin);
          },
          windowMs: this.options.batchWindowMs,
          maxBatch: MAX_MARKET_BATCH,
        }),
        matches: new Batcher({
          fetchBatch: (keys) => {
            const asks = new Map(keys.map((k) => [k, this.matchAsks.get(k)!]));
            for (const k of keys) this.matchAsks.delete(k);
            return fetchMatches(this.requests, keys, asks, pin);
          },
          windowMs: this.options.batchWindowMs,
          maxBatch: MATCH_MAX_ROWS,
        }),
      };
      this.batchers.set(name, pair);
    }
    return pair;
  }

  /** The snapshot the latest answer came from, if any answer named one. */
  currentSnapshot(): string | null {
    return this.snapshots.current;
  }

  /** The service's base URL as the requests use it ("https://…", no trailing slash): links to its pages and records. */
  async serviceUrl(): Promise<string> {
    return (await this.requests.client()).baseUrl;
  }

  /** GET of an endpoint through the cache. */
  async get<T>(
    spec: EndpointSpec,
    pathParams: Record<string, string>,
    query: Record<string, QueryValue>,
    ctx: CallContext = {},
  ): Promise<T> {
    const client = await this.requests.client();
    const request: ApiRequest = {
      method: "GET",
      path: endpointPath(spec, pathParams),
      query: normaliseQuery({ ...query, ...pinQuery(ctx.pin) }),
    };
    const key = cacheKey(client, request);
    return this.traced(ctx, key, request, false, () => this.requests.load<T>(key, client, request, spec.cost > 0, ctx));
  }

  /**
   * A call of one operation through the cache, its parts and answer typed by the operation: the
   * same request, cache key, ETag and billing as `get` (a GET) or `post` (a POST with a body).
   */
  async call<O extends Operation>(operation: O, parts: CallParts<O>, ctx: CallContext = {}): Promise<AnswerOf<O>> {
    const client = await this.requests.client();
    const path = fillPath(operation, (parts.params ?? {}) as Record<string, string>);
    const query = (parts.query ?? {}) as Record<string, QueryValue>;
    const request: ApiRequest =
      operation.method === "POST"
        ? { method: "POST", path, query: normaliseQuery({ ...query, ...pinQuery(ctx.pin) }), body: parts.body }
        : { method: "GET", path, query: normaliseQuery({ ...query, ...pinQuery(ctx.pin) }) };
    const key = cacheKey(client, request);
    return this.traced(ctx, key, request, false, () => this.requests.load<AnswerOf<O>>(key, client, request, operation.cost > 0, ctx));
  }

  /** POST (compare) through the cache: the body is the argument list. */
  async post<T>(spec: EndpointSpec, body: unknown, ctx: CallContext = {}): Promise<T> {
    const client = await this.requests.client();
    const request: ApiRequest = { method: "POST", path: endpointPath(spec), query: pinQuery(ctx.pin), body };
    const key = cacheKey(client, request);
    return this.traced(ctx, key, request, false, () => this.requests.load<T>(key, client, request, spec.cost > 0, ctx));
  }

  /** One commercial property's record, batched with the other properties asked for meanwhile. */
  async property(id: string, ctx: CallContext = {}): Promise<Record<string, unknown>> {
    const client = await this.requests.client();
    const request = detailRequest(id, ctx.pin);
    const key = cacheKey(client, request);
    return this.traced(ctx, key, request, true, () => {
      const entry = this.options.cache.get(key);
      if (entry && !entry.stale) return Promise.resolve(unwrap<Record<string, unknown>>(entry));
      if (ctx.preview) return this.requests.load<Record<string, unknown>>(key, client, request, true, ctx);
      // A stale copy goes in the batch too, with its ETag: unchanged, it costs nothing.
      return this.requests.shared.run(key, (signal) => this.batchersFor(ctx.pin).properties.load(id, signal), ctx.signal);
    });
  }

  /**
   * One market snapshot, cached as the single endpoint's answer and batched with the other
   * markets asked for meanwhile: a grid of =PROP.MARKET cells is a few batch requests.
   */
  async market(geography: string, assetType: string, ctx: CallContext = {}): Promise<Record<string, unknown>> {
    const client = await this.requests.client();
    const ask: MarketAsk = { geography, asset_type: assetType };
    const request = marketRequest(ask, ctx.pin);
    const key = cacheKey(client, request);
    return this.traced(ctx, key, request, true, () => {
      const entry = this.options.cache.get(key);
      if (entry && !entry.stale) return Promise.resolve(unwrap<Record<string, unknown>>(entry));
      if (ctx.preview) return this.requests.load<Record<string, unknown>>(key, client, request, true, ctx);
      // A stale copy goes in the batch too, with its ETag: unchanged, it costs nothing.
      return this.requests.shared.run(
        key,
        (signal) => {
          this.marketAsks.set(marketKey(ask, ctx.pin), ask);
          return this.batchersFor(ctx.pin).markets.load(marketKey(ask, ctx.pin), signal);
        },
        ctx.signal,
      );
    });
  }

  /**
   * One address matched to a property, cached as the single form's answer and batched with the
   * other addresses asked for meanwhile: a column of =PROP.MATCH cells, or one over a range, is a
   * match request per 1,000 distinct addresses. A row the service refuses rejects as its 400.
   */
  async match(ask: MatchAsk, ctx: CallContext = {}): Promise<PropertyMatch> {
    const client = await this.requests.client();
    const request = matchRequest(ask, ctx.pin);
    const key = cacheKey(client, request);
    return this.traced(ctx, key, request, true, () => {
      const entry = this.options.cache.get(key);
      if (entry && !entry.stale) return Promise.resolve(unwrap<PropertyMatch>(entry));
      if (ctx.preview) return this.requests.load<PropertyMatch>(key, client, request, true, ctx);
      const name = matchKey(ask, ctx.pin);
      return this.requests.shared.run(
        key,
        async (signal) => {
          this.matchAsks.set(name, ask);
          return (await this.batchersFor(ctx.pin).matches.load(name, signal)) as unknown as PropertyMatch;
        },
        ctx.signal,
      );
    });
  }

  /**
   * POST compare for 2..25 ids, through the cache. The records it returns also answer later
   * point calls for those properties (=PROP.PROPERTY beside a =PROP.COMPARE costs nothing).
   */
  async compare(ids: string[], ctx: CallContext = {}): Promise<PropertyComparison> {
    const client = await this.requests.client();
    const request: ApiRequest = {
      method: "POST",
      path: ENDPOINTS.compareProperties.path,
      query: pinQuery(ctx.pin),
      body: { property_ids: ids, fields: ALL_PROPERTY_FIELDS },
    };
    const compareKey = cacheKey(client, request);
    const body = await this.traced(ctx, compareKey, request, false, () =>
      this.requests.load<PropertyComparison>(compareKey, client, request, true, ctx),
    );
    const snapshotId = body.snapshot?.id ?? this.snapshots.current;
    // A comparison asked without ETags has every record in full; one listed in `not_modified` would be its id only.
    const unchanged = new Set(body.not_modified ?? []);
    for (const record of body.properties ?? []) {
      if (unchanged.has(String(record.id))) continue;
      const key = cacheKey(client, detailRequest(String(record.id), ctx.pin));
      const held = this.options.cache.peek(key);
      if (!held || held.stale) this.options.cache.set(key, { value: record, etag: body.etags?.[String(record.id)] ?? null, snapshotId });
    }
    return body;
  }

  /**
   * Runs `run`, the answer to `request` (cached under `key`), and notes in the call's trace
   * (when it has one) where the answer came from: the one place every function's provenance
   * is recorded (cell-provenance.ts). A request that fails is not noted: the cell shows the error.
   */
  async traced<T>(ctx: CallContext, key: string, request: ApiRequest, batched: boolean, run: () => Promise<T>): Promise<T> {
    const trace = ctx.trace;
    if (!trace || ctx.preview) return run();
    const own = this.options.cache.peek(key);
    const fresh = own !== undefined && !own.stale && own.value !== undefined;
    // A fresh copy answers at once; only a miss looks further (another pin's copy), as load does.
    const probe = { held: fresh ? own : this.requests.heldCopy(key), fresh, joined: this.requests.shared.has(key) };
    const body = await run();
    const capturedAt = (id: string) => this.snapshots.capturedAtOf(id);
    trace.add(requestSource(request, probe, this.options.cache.peek(key), body, capturedAt, batched));
    return body;
  }

  /**
   * A free request (coverage, revalidated with its ETag) whose only purpose is the credit
   * headers every authenticated answer carries: PROP.CREDITS uses it before any other call.
   */
  async checkCredits(ctx: CallContext = {}): Promise<void> {
    const client = await this.requests.client();
    const request: ApiRequest = { method: "GET", path: ENDPOINTS.getCoverage.path };
    const key = cacheKey(client, request);
    await this.requests.fetch(key, client, { ...request, signal: ctx.signal }, this.options.cache.peek(key));
  }

  /**
   * Explicit refresh (the pane's and the ribbon's "Refresh workbook"). Asks the free coverage
   * endpoint which snapshot the service serves now. Results from that snapshot stay valid
   * (the data of a snapshot never changes), so an unchanged snapshot costs no credits and no
   * further requests; results from another snapshot are marked stale and revalidate with
   * If-None-Match when next used.
   */
  async refresh(): Promise<RefreshResult> {
    const client = await this.requests.client();
    const request: ApiRequest = { method: "GET", path: ENDPOINTS.getCoverage.path };
    const key = cacheKey(client, request);
    const entry = this.options.cache.peek(key);
    const response = await client.send<CoverageReport>({ ...request, etag: entry?.value ? entry.etag : null });
    const body = response.status === 304 ? (entry!.value as typeof response.body) : response.body;
    this.snapshots.note(body);
    const snapshotId = body?.snapshot?.id;
    if (!snapshotId) throw new ApiError(response.status, "invalid_response", "The coverage report names no snapshot.");
    const previous = entry?.snapshotId ?? this.snapshots.current;
    this.snapshots.current = snapshotId;
    this.options.cache.set(key, { value: body, etag: response.etag ?? entry?.etag ?? null, snapshotId });
    // Pinned results stay as they are while their pin names the same kept snapshot, or none (snapshot-tracker.ts).
    const before = (entry?.value as CoverageReport | undefined)?.snapshots;
    const staleEntries = this.options.cache.markStaleUnless(snapshotId, (held) => keptOnRefresh(held, before, body.snapshots));
    return {
      coverage: body,
      snapshotId,
      capturedAt: body.snapshot.captured_at ?? null,
      changed: previous !== null && previous !== snapshotId,
      staleEntries,
    };
  }
}
