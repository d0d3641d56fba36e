// Where a PROP cell's value came from: the requests its call answered from, each with what the
// service said it understood (the place, asset type, record), the snapshot and when it was
// fetched, whether the cache answered, and what it cost. The cached API notes each request a
// call makes into the call's trace (CallContext.trace), one place for every function; the
// call's outcome (cell-outcomes.ts) keeps the trace under the cell's address, so the pane's
// "Explain" and "Freeze as values" tell the same story.
//
// Bounded: a call keeps at most MAX_SOURCES requests (a long list is many pages), and of each
// answer only a few facts, never the body.
import { OPERATION_LIST } from "../contract/operations";
import { isLowConfidence, namesProperty, type MatchKind, type MatchStatus } from "../contract/property-match";
import type { ApiRequest } from "./api-client";
import type { CacheEntry } from "./result-cache";

/** How a request was answered: a fresh cached copy, a free 304, a new answer, or another cell's request under way. */
export type SourceOrigin = "cache" | "revalidated" | "fetched" | "joined";

/** What an answer says about what it holds (the facts an explanation names), as far as it says them. */
export interface AnswerFacts {
  /** The record's id (a property, a market: `mkt_…`). */
  id?: string;
  name?: string;
  address?: string;
  /** The place as the service resolved it ("Austin, TX") and its kind ("city"). */
  place?: string;
  placeKind?: string;
  assetType?: string;
  /** Properties behind a market's figures. */
  propertyCount?: number;
  /** A list's records over all pages. */
  totalCount?: number;
  /** The date a market's figures describe. */
  asOf?: string;
  /** A match's answer (PROP.MATCH): how the address or parcel number matched, or why not. */
  match?: MatchFacts;
}

/** What a match answer says of itself; its property (matched) is the answer's `id` and `address`. */
export interface MatchFacts {
  status: MatchStatus;
  score: number | null;
  kind: MatchKind | null;
  lowConfidence: boolean;
  /** Why it is not a match, and what would make it one (ambiguous, unmatched). */
  detail: string | null;
  /** How many candidates an ambiguous answer names. */
  candidates: number;
  /** Whether the answer names a property (matched, or candidates): what a match charges for. */
  names: boolean;
}

export interface RequestSource {
  /** The operation's name in the API reference ("getMarketSnapshot"). */
  operation: string;
  method: "GET" | "POST";
  path: string;
  /** The inputs sent, as the service received them (paging left out). */
  query: Record<string, string>;
  answer: AnswerFacts;
  origin: SourceOrigin;
  snapshotId: string | null;
  capturedAt: string | null;
  /** Epoch ms of the fetch or last free revalidation of the copy that answered. */
  fetchedAt: number | null;
  /** Credits this request cost the cell: the operation's published cost when fetched, else 0. */
  credits: number;
  /** Fetched together with other cells' asks (one batch request), so the cost is at most `credits`. */
  batched: boolean;
}

/** The sources of one call, and how many more it used than are kept. */
export interface CellProvenance {
  sources: RequestSource[];
  /** Requests beyond `sources` (pages of a long list), and the credits they cost. */
  more: number;
  moreCredits: number;
}

export const MAX_SOURCES = 6;

/** Collects the requests of one call. */
export class RequestTrace {
  private readonly sources: RequestSource[] = [];
  private more = 0;
  private moreCredits = 0;

  add(source: RequestSource): void {
    if (this.sources.length < MAX_SOURCES) this.sources.push(source);
    else {
      this.more++;
      this.moreCredits += source.credits;
    }
  }

  get empty(): boolean {
    return this.sources.length === 0;
  }

  provenance(): CellProvenance {
    return { sources: [...this.sources], more: this.more, moreCredits: this.moreCredits };
  }
}

/**
 * The operation a request calls, by method and path: a path written out first, then one with a
 * path parameter matching any segment (GET .../properties/match is matchProperty, not getProperty
 * of a property "match").
 */
export function operationOf(method: string, path: string): (typeof OPERATION_LIST)[number] | undefined {
  const bare = path.replace(/\?.*$/, "");
  return (
    OPERATION_LIST.find((o) => o.method === method && o.path === bare) ??
    OPERATION_LIST.find((o) => o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(bare))
  );
}

const PAGING = new Set(["limit", "offset"]);

/** What the call's trace needs from the cache around one request. */
export interface TraceProbe {
  /** The copy held before the request, if any (own or another pin's). */
  held: CacheEntry | undefined;
  /** A fresh copy answered at once. */
  fresh: boolean;
  /** The same request was already under way for another cell. */
  joined: boolean;
}

/**
 * The source a request was answered from, once it was: `after` is the cache entry it left (or
 * confirmed), `body` the answer the call got.
 */
export function requestSource(
  request: ApiRequest,
  probe: TraceProbe,
  after: CacheEntry | undefined,
  body: unknown,
  capturedAt: (snapshotId: string) => string | null,
  batched = false,
): RequestSource {
  const method = request.method ?? "GET";
  const operation = operationOf(method, request.path);
  const answer = answerFacts(body);
  const origin: SourceOrigin = probe.fresh
    ? "cache"
    : probe.joined
      ? "joined"
      : probe.held?.etag && after?.etag === probe.held.etag
        ? "revalidated"
        : "fetched";
  // A list that matches nothing is free, and so is a match that names no property; every other new answer costs the operation's price.
  const credits = origin === "fetched" && answer.totalCount !== 0 && answer.match?.names !== false ? (operation?.cost ?? 0) : 0;
  const snapshotId = after?.snapshotId ?? snapshotIdOf(body);
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.query ?? {}))
    if (!PAGING.has(name) && value !== null && value !== undefined && value !== "") query[name] = String(value);
  return {
    operation: operation?.name ?? `${method} ${request.path}`,
    method,
    path: request.path,
    query,
    answer,
    origin,
    snapshotId,
    capturedAt: snapshotId ? capturedAt(snapshotId) : null,
    fetchedAt: after?.fetchedAt ?? null,
    credits,
    batched: batched && origin === "fetched",
  };
}

function snapshotIdOf(body: unknown): string | null {
  const id = (body as { snapshot?: { id?: unknown } } | null)?.snapshot?.id;
  return typeof id === "string" ? id : null;
}

/** The facts an answer states about itself: a record's id and name, a market's place and count, a list's total. */
export function answerFacts(body: unknown): AnswerFacts {
  if (!body || typeof body !== "object" || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  const facts: AnswerFacts = {};
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v.slice(0, 120) : undefined);
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  if (b.object === "list") {
    facts.totalCount = count(b.total_count);
    return strip(facts);
  }
  if (b.object === "property_match") return strip({ id: text(b.property_id), address: text(b.matched_address), match: matchFacts(b) });
  facts.id = text(b.id);
  facts.name = text(b.name) ?? text(b.property_name);
  const street = text(b.address);
  facts.address = street && [street, text(b.city), text(b.state_code)].filter(Boolean).join(", ");
  facts.place = text(b.geography_name);
  facts.placeKind = text(b.geography_type);
  facts.assetType = text(b.asset_type);
  facts.propertyCount = count(b.property_count);
  facts.asOf = text(b.as_of);
  return strip(facts);
}

/** A match answer's facts (its detail cut to 300 characters). */
function matchFacts(b: Record<string, unknown>): MatchFacts {
  const answer = {
    status: b.status as MatchStatus,
    score: typeof b.score === "number" ? b.score : null,
    match: typeof b.match === "string" ? (b.match as MatchKind) : null,
    property_id: typeof b.property_id === "string" ? b.property_id : null,
    candidates: Array.isArray(b.candidates) ? (b.candidates as unknown[]) : [],
  };
  return {
    status: answer.status,
    score: answer.score,
    kind: answer.match,
    lowConfidence: isLowConfidence(answer),
    detail: typeof b.detail === "string" && b.detail !== "" ? b.detail.slice(0, 300) : null,
    candidates: answer.candidates.length,
    names: namesProperty(answer),
  };
}

function strip<T extends object>(facts: T): T {
  for (const key of Object.keys(facts) as (keyof T)[]) if (facts[key] === undefined) delete facts[key];
  return facts;
}
