// The way the custom functions reach the service: every request goes through the result
// cache, identical concurrent requests share one, point calls for properties and markets are
// batched, formula-edit previews never make a metered call, and only refresh() revalidates.
import type { ApiClient, ApiRequest, QueryValue } from "./api-client";
import { ApiError } from "./api-error";
import { CommercialProperty } from "../contract/records";
import type { CoverageReport } from "../contract/coverage";
import type { ListEnvelope } from "../contract/list-envelope";
import type { PropertyComparison } from "../contract/responses";
import { ENDPOINTS, endpointPath, type EndpointSpec } from "./endpoints";
import { Batcher, type BatchOutcome } from "./batcher";
import { MAX_MARKET_BATCH, type MarketBatch } from "../contract/market-batch";
import type { CacheEntry, CachedError, ResultCache } from "./result-cache";
import { SharedRequests } from "./shared-requests";
import { cacheKey, isPinned, isPinnedById, normaliseQuery, pinQuery, unpinnedKey, type SnapshotPin } from "./request-keys";

/** What a custom function knows about its own invocation. */
export interface CallContext {
  /** Excel is previewing the formula while it is edited: no metered call may be made. */
  preview?: boolean;
  /** Aborted when Excel cancels the call. */
  signal?: AbortSignal;
  /** The snapshot every request of the call names (the as_of option); none: the newest. */
  pin?: SnapshotPin;
}

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

/** Every field of a property, so one batched answer serves any field any cell asks for. */
const ALL_PROPERTY_FIELDS = Object.keys(CommercialProperty.properties).filter((f) => f !== "id");

/** Most ids one compare request takes (the endpoint's limit). */
export const COMPARE_BATCH = 25;

/** A market as the batcher keys it: "industrial in Austin, TX". */
interface MarketAsk {
  geography: string;
  asset_type: string;
}
const marketKey = (m: MarketAsk, pin?: SnapshotPin) => `${m.asset_type} in ${m.geography}${pin ? ` ${JSON.stringify(pin)}` : ""}`;

export class CachedApi {
  private readonly requests = new SharedRequests();
  /** Property and market batchers, one pair per pin: a batch asks one snapshot. */
  private readonly batchers = new Map<string, { properties: Batcher; markets: Batcher }>();
  /** The markets the market batchers have been asked for, by pin and market key. */
  private readonly marketAsks = new Map<string, MarketAsk>();
  private snapshotId: string | null = null;
  /** Capture times of the snapshots seen (answers' refs, coverage's kept list), by id. */
  private readonly capturedAt = new Map<string, string>();

  constructor(private readonly options: CachedApiOptions) {}

  private batchersFor(pin: SnapshotPin | undefined) {
    const name = pin ? JSON.stringify(pin) : "";
    let pair = this.batchers.get(name);
    if (!pair) {
      pair = {
        properties: new Batcher({
          fetchBatch: (ids) => this.fetchProperties(ids, pin),
          windowMs: this.options.batchWindowMs,
          maxBatch: COMPARE_BATCH,
        }),
        markets: new Batcher({
          fetchBatch: (keys) => this.fetchMarkets(keys, pin),
          windowMs: this.options.batchWindowMs,
          maxBatch: MAX_MARKET_BATCH,
        }),
      };
      this.batchers.set(name, pair);
    }
    return pair;
  }

  /** The snapshot the latest answer came from, if any answer named one. */
  currentSnapshot(): string | null {
    return this.snapshotId;
  }

  /** GET of an endpoint through the cache. */
  async get<T>(
    spec: EndpointSpec,
    pathParams: Record<string, string>,
    query: Record<string, QueryValue>,
    ctx: CallContext = {},
  ): Promise<T> {
    const client = await this.client();
    const request: ApiRequest = {
      method: "GET",
      path: endpointPath(spec, pathParams),
      query: normaliseQuery({ ...query, ...pinQuery(ctx.pin) }),
    };
    return this.load<T>(cacheKey(client, request), client, request, spec.cost > 0, ctx);
  }

  /** POST (compare) through the cache: the body is the argument list. */
  async post<T>(spec: EndpointSpec, body: unknown, ctx: CallContext = {}): Promise<T> {
    const client = await this.client();
    const request: ApiRequest = { method: "POST", path: endpointPath(spec), query: pinQuery(ctx.pin), body };
    return this.load<T>(cacheKey(client, request), client, request, spec.cost > 0, ctx);
  }

  /** One commercial property's record, batched with the other properties asked for meanwhile. */
  async property(id: string, ctx: CallContext = {}): Promise<Record<string, unknown>> {
    const client = await this.client();
    const request = detailRequest(id, ctx.pin);
    const key = cacheKey(client, request);
    const entry = this.options.cache.get(key);
    if (entry && !entry.stale) return unwrap(entry);
    if (ctx.preview) return this.load(key, client, request, true, ctx);
    // A stale copy goes in the batch too, with its ETag: unchanged, it costs nothing.
    return this.requests.run(key, (signal) => this.batchersFor(ctx.pin).properties.load(id, signal), ctx.signal);
  }

  /**
   * One market snapshot, cached as the single endpoint's answer and batched with the other
   * markets asked for meanwhile: a grid of =PROP.MARKET cells is a few batch requests.
   */
  async market(geography: string, assetType: string, ctx: CallContext = {}): Promise<Record<string, unknown>> {
    const client = await this.client();
    const ask: MarketAsk = { geography, asset_type: assetType };
    const request = marketRequest(ask, ctx.pin);
    const key = cacheKey(client, request);
    const entry = this.options.cache.get(key);
    if (entry && !entry.stale) return unwrap(entry);
    if (ctx.preview) return this.load(key, client, request, true, ctx);
    // A stale copy goes in the batch too, with its ETag: unchanged, it costs nothing.
    return this.requests.run(
      key,
      (signal) => {
        this.marketAsks.set(marketKey(ask, ctx.pin), ask);
        return this.batchersFor(ctx.pin).markets.load(marketKey(ask, ctx.pin), signal);
      },
      ctx.signal,
    );
  }

  /**
   * POST compare for 2..25 ids, through the cache. The records it returns also answer later
   * point calls for those properties (=PROP.PROPERTY beside a =PROP.COMPARE costs nothing).
   */
  async compare(ids: string[], ctx: CallContext = {}): Promise<PropertyComparison> {
    const client = await this.client();
    const request: ApiRequest = {
      method: "POST",
      path: ENDPOINTS.compareProperties.path,
      query: pinQuery(ctx.pin),
      body: { property_ids: ids, fields: ALL_PROPERTY_FIELDS },
    };
    const body = await this.load<PropertyComparison>(cacheKey(client, request), client, request, true, ctx);
    const snapshotId = body.snapshot?.id ?? this.snapshotId;
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
   * A free request (coverage, revalidated with its ETag) whose only purpose is the credit
   * headers every authenticated answer carries: PROP.CREDITS uses it before any other call.
   */
  async checkCredits(ctx: CallContext = {}): Promise<void> {
    const client = await this.client();
    const request: ApiRequest = { method: "GET", path: ENDPOINTS.getCoverage.path };
    const key = cacheKey(client, request);
    await this.fetch(key, client, { ...request, signal: ctx.signal }, this.options.cache.peek(key));
  }

  /**
   * Explicit refresh (the pane's and the ribbon's "Refresh workbook"). Asks the free coverage
   * endpoint which snapshot the service serves now. Results from that snapshot stay valid
   * (the data of a snapshot never changes), so an unchanged snapshot costs no credits and no
   * further requests; results from another snapshot are marked stale and revalidate with
   * If-None-Match when next used.
   */
  async refresh(): Promise<RefreshResult> {
    const client = await this.client();
    const request: ApiRequest = { method: "GET", path: ENDPOINTS.getCoverage.path };
    const key = cacheKey(client, request);
    const entry = this.options.cache.peek(key);
    const response = await client.send<CoverageReport>({ ...request, etag: entry?.value ? entry.etag : null });
    const body = response.status === 304 ? (entry!.value as typeof response.body) : response.body;
    this.noteCaptures(body);
    const snapshotId = body?.snapshot?.id;
    if (!snapshotId) throw new ApiError(response.status, "invalid_response", "The coverage report names no snapshot.");
    const previous = entry?.snapshotId ?? this.snapshotId;
    this.snapshotId = snapshotId;
    this.options.cache.set(key, { value: body, etag: response.etag ?? entry?.etag ?? null, snapshotId });
    // Results pinned to a snapshot by its id are that snapshot's for good.
    const staleEntries = this.options.cache.markStaleUnless(snapshotId, (entry) => isPinnedById(entry.key));
    return {
      coverage: body,
      snapshotId,
      capturedAt: body.snapshot.captured_at ?? null,
      changed: previous !== null && previous !== snapshotId,
      staleEntries,
    };
  }

  private async client(): Promise<ApiClient> {
    const [client] = await Promise.all([this.options.connect(), this.options.ready?.()]);
    return client;
  }

  private load<T>(key: string, client: ApiClient, request: ApiRequest, metered: boolean, ctx: CallContext): Promise<T> {
    const entry = this.options.cache.get(key);
    if (entry && !entry.stale) return Promise.resolve(unwrap(entry) as T);
    if (ctx.preview && metered) {
      // A preview may wait for a request already running, or show what we have; never start one.
      const joined = this.requests.join<T>(key, ctx.signal);
      if (joined) return joined;
      if (entry) return Promise.resolve(unwrap(entry) as T);
      return Promise.reject(
        new ApiError(0, "preview_not_fetched", "Not fetched in the formula preview (it would cost credits); press Enter to get the value."),
      );
    }
    return this.requests.run(key, (signal) => this.fetch<T>(key, client, { ...request, signal }, entry ?? this.sibling(key)), ctx.signal);
  }

  private async fetch<T>(key: string, client: ApiClient, request: ApiRequest, entry: CacheEntry | undefined): Promise<T> {
    const { cache } = this.options;
    const pinned = isPinned(request);
    try {
      const response = await client.send<T>({ ...request, etag: entry?.value !== undefined ? entry.etag : null });
      if (response.status === 304 && entry) {
        return this.confirm(key, entry, response.snapshotId ?? (pinned ? null : this.snapshotId)) as T;
      }
      this.noteCaptures(response.body);
      const snapshotId = snapshotOf(response.body) ?? (pinned ? null : this.snapshotId);
      // A pinned answer names its own snapshot, not the one the service serves now.
      if (snapshotOf(response.body) && !pinned) this.snapshotId = snapshotId;
      cache.set(key, { value: response.body, etag: response.etag, snapshotId });
      return response.body as T;
    } catch (err) {
      // "Does not exist" (404) and "no such place" (400) are answers too: remembering them keeps a
      // typo from making a request on every recalculation. A refresh revalidates them like any
      // other result.
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
        cache.set(key, { error: cachedError(err), snapshotId: this.snapshotId });
      }
      throw err;
    }
  }

  /** The batcher's fetch: one compare call for 2..25 ids (detail for a lone id). */
  private async fetchProperties(ids: string[], pin: SnapshotPin | undefined): Promise<Map<string, BatchOutcome>> {
    const client = await this.client();
    const outcomes = new Map<string, BatchOutcome>();
    let remaining = ids;
    // Unknown ids fail a compare call as a whole (404 naming them): remember them as not
    // found and ask again for the rest, once.
    for (let round = 0; round < 2 && remaining.length > 0; round++) {
      if (remaining.length === 1) {
        await this.fetchOne(client, remaining[0], pin, outcomes);
        return outcomes;
      }
      try {
        // The ETags of the copies held (stale ones, after a new snapshot): a property still as
        // held comes back as its id only (`not_modified`), and when none changed the comparison
        // costs nothing.
        const copies = new Map<string, CacheEntry>();
        const held: Record<string, string> = {};
        for (const id of remaining) {
          const entry = this.heldCopy(cacheKey(client, detailRequest(id, pin)));
          if (entry?.etag && entry.value !== undefined) {
            copies.set(id, entry);
            held[id] = entry.etag;
          }
        }
        const response = await client.send<PropertyComparison>({
          method: "POST",
          path: ENDPOINTS.compareProperties.path,
          query: pinQuery(pin),
          body: {
            property_ids: remaining,
            fields: ALL_PROPERTY_FIELDS,
            ...(Object.keys(held).length > 0 ? { if_none_match: held } : {}),
          },
        });
        this.noteCaptures(response.body);
        const snapshotId = response.body?.snapshot?.id ?? this.snapshotId;
        if (!pin) this.snapshotId = snapshotId;
        const etags = response.body?.etags ?? {};
        const unchanged = new Set(response.body?.not_modified ?? []);
        for (const record of response.body?.properties ?? []) {
          const id = String(record.id);
          const key = cacheKey(client, detailRequest(id, pin));
          const copy = copies.get(id);
          if (unchanged.has(id) && copy) {
            // Confirmed unchanged, as a 304 confirms: the copy held stays, stamped with this snapshot.
            outcomes.set(id, { record: this.confirm(key, copy, snapshotId) as Record<string, unknown> });
          } else if (!unchanged.has(id)) {
            this.options.cache.set(key, { value: record, etag: etags[id] ?? null, snapshotId });
            outcomes.set(id, { record });
          }
        }
        return outcomes;
      } catch (err) {
        const unknown = err instanceof ApiError && err.status === 404 ? unknownIds(err, remaining) : [];
        if (unknown.length === 0) throw err;
        for (const id of unknown) {
          const error = new ApiError(
            404,
            "not_found",
            `There is no commercial property '${id}' in this snapshot.`,
            (err as ApiError).requestId,
          );
          this.options.cache.set(cacheKey(client, detailRequest(id, pin)), {
            error: { status: 404, code: "not_found", message: error.message, requestId: error.requestId },
            snapshotId: this.snapshotId,
          });
          outcomes.set(id, { error });
        }
        remaining = remaining.filter((id) => !unknown.includes(id));
      }
    }
    return outcomes;
  }

  /**
   * The market batcher's fetch: one batch request for up to 100 markets. Each answer (a market,
   * or the refusal of an unknown place) is cached as the single endpoint's would be. When the
   * credits left cannot cover the whole batch, the markets they cover are asked for again and
   * the rest get the 402.
   */
  private async fetchMarkets(keys: string[], pin: SnapshotPin | undefined): Promise<Map<string, BatchOutcome>> {
    const client = await this.client();
    const outcomes = new Map<string, BatchOutcome>();
    const asks = new Map(keys.map((k) => [k, this.marketAsks.get(k)!]));
    for (const k of keys) this.marketAsks.delete(k);
    let asked = keys;
    const keyOf = (ask: MarketAsk) => cacheKey(client, marketRequest(ask, pin));
    for (;;) {
      const markets = asked.map((k) => asks.get(k)!);
      // A market held from an older snapshot is sent with its ETag: unchanged, it costs nothing.
      const held = markets.map((ask) => this.heldCopy(keyOf(ask)));
      const request = {
        markets: markets.map((ask, i) => {
          const entry = held[i];
          return entry?.etag && entry.value !== undefined ? { ...ask, if_none_match: entry.etag } : ask;
        }),
      };
      try {
        const response = await client.send<MarketBatch>({
          method: "POST",
          path: ENDPOINTS.getMarketSnapshotBatch.path,
          query: pinQuery(pin),
          body: request,
        });
        const body = response.body!;
        this.noteCaptures(body);
        const snapshotId = body.snapshot?.id ?? this.snapshotId;
        if (!pin) this.snapshotId = snapshotId;
        body.results.forEach((result, i) => {
          const key = keyOf(markets[i]);
          if (result.status === 304 && held[i]?.value !== undefined) {
            outcomes.set(asked[i], { record: this.confirm(key, held[i]!, snapshotId) as Record<string, unknown> });
          } else if (result.market) {
            this.options.cache.set(key, { value: result.market, etag: result.etag, snapshotId });
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
                extensions: { suggestions: problem?.suggestions ?? [] },
              },
            );
            this.options.cache.set(key, { error: cachedError(error), snapshotId });
            outcomes.set(asked[i], { error });
          }
        });
        return outcomes;
      } catch (err) {
        const left = err instanceof ApiError ? (err.shortfall?.remaining ?? 0) : 0;
        if (!(left > 0 && left < asked.length)) throw err;
        for (const k of asked.slice(left)) outcomes.set(k, { error: err as ApiError });
        asked = asked.slice(0, left);
      }
    }
  }

  /** The copy held for `key` to revalidate with: its own, else the same request's for another snapshot. */
  private heldCopy(key: string): CacheEntry | undefined {
    const own = this.options.cache.peek(key);
    return own?.value !== undefined ? own : (this.sibling(key) ?? own);
  }

  /**
   * The newest copy of the same request pinned otherwise (to another snapshot, or to none):
   * ETags validate content whatever snapshot it came from, so pinning a workbook, or moving it
   * to the latest, revalidates what it holds instead of fetching it again.
   */
  private sibling(key: string): CacheEntry | undefined {
    const base = unpinnedKey(key);
    let best: CacheEntry | undefined;
    for (const entry of this.options.cache.list()) {
      if (entry.key === key || entry.value === undefined || !entry.etag || unpinnedKey(entry.key) !== base) continue;
      if (!best || entry.fetchedAt > best.fetchedAt) best = entry;
    }
    return best;
  }

  /**
   * A 304 for `held` from snapshot `snapshotId`: the content is the same, so the copy is kept
   * (or copied to `key`, when it was another pin's), restamped with that snapshot where the
   * answer names one: a list's `snapshot`, a market's `as_of` (the date its figures describe).
   * Returns the value now held.
   */
  private confirm(key: string, held: CacheEntry, snapshotId: string | null): unknown {
    const captured = snapshotId ? this.capturedAt.get(snapshotId) : undefined;
    const value = captured ? restamp(held.value, snapshotId!, captured) : held.value;
    if (held.key === key && value === held.value) this.options.cache.revalidated(key, snapshotId);
    else this.options.cache.set(key, { value, etag: held.etag, snapshotId });
    return value;
  }

  /** Remembers the capture times an answer names (its snapshot ref; coverage's kept snapshots). */
  private noteCaptures(body: unknown): void {
    const b = body as { snapshot?: { id?: unknown; captured_at?: unknown }; snapshots?: { id: string; captured_at: string }[] } | null;
    if (typeof b?.snapshot?.id === "string" && typeof b.snapshot.captured_at === "string")
      this.capturedAt.set(b.snapshot.id, b.snapshot.captured_at);
    for (const kept of Array.isArray(b?.snapshots) ? b.snapshots : []) this.capturedAt.set(kept.id, kept.captured_at);
  }

  private async fetchOne(client: ApiClient, id: string, pin: SnapshotPin | undefined, outcomes: Map<string, BatchOutcome>): Promise<void> {
    const request = detailRequest(id, pin);
    const key = cacheKey(client, request);
    try {
      // With the copy held, if any: unchanged, it is a free 304.
      outcomes.set(id, { record: await this.fetch<Record<string, unknown>>(key, client, request, this.heldCopy(key)) });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcomes.set(id, { error: err });
    }
  }
}

function detailRequest(id: string, pin?: SnapshotPin): ApiRequest {
  return { method: "GET", path: endpointPath(ENDPOINTS.getProperty, { property_id: id }), query: pinQuery(pin) };
}

function marketRequest(ask: MarketAsk, pin?: SnapshotPin): ApiRequest {
  return { method: "GET", path: ENDPOINTS.getMarketSnapshot.path, query: { ...ask, ...pinQuery(pin) } };
}

/** A refusal as the cache keeps it: enough to give the same answer again, suggestions included. */
function cachedError(err: ApiError): CachedError {
  const suggestions = err.extensions.suggestions;
  const kept: CachedError = { status: err.status, code: err.code, message: err.message, requestId: err.requestId };
  if (Array.isArray(suggestions) && suggestions.length > 0) kept.suggestions = suggestions.map(String);
  return kept;
}

/**
 * A value confirmed unchanged by snapshot `id` (captured at `capturedAt`), stamped with it: the
 * `snapshot` a list or comparison names, and a market's `as_of`, which is the capture date of
 * the snapshot its figures describe. Anything else is returned as it is.
 */
function restamp(value: unknown, id: string, capturedAt: string): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  if (v.object === "market_snapshot") return { ...v, as_of: capturedAt.slice(0, 10) };
  if (v.snapshot && typeof v.snapshot === "object") return { ...v, snapshot: { id, captured_at: capturedAt } };
  return value;
}

function unwrap<T>(entry: CacheEntry): T {
  const e = entry.error;
  if (e)
    throw new ApiError(e.status, e.code, e.message, e.requestId, [], e.suggestions ? { extensions: { suggestions: e.suggestions } } : {});
  return entry.value as T;
}

function snapshotOf(body: unknown): string | null {
  const id = (body as Partial<Pick<ListEnvelope, "snapshot">> | null)?.snapshot?.id;
  return typeof id === "string" ? id : null;
}

/** The ids a compare 404 names: `unknown_ids`, else the `/property_ids/<i>` pointers. */
function unknownIds(err: ApiError, asked: string[]): string[] {
  const named = err.extensions.unknown_ids;
  if (Array.isArray(named)) return asked.filter((id) => named.includes(id));
  const indexes = err.errors.map((e) => /^\/property_ids\/(\d+)$/.exec(e.pointer)?.[1]).filter((i): i is string => i !== undefined);
  return indexes.map((i) => asked[Number(i)]).filter((id): id is string => id !== undefined);
}
