// A route of the public API, described once. The same description registers the Fastify
// route (whose schemas validate requests and serialise responses) and generates the OpenAPI
// document, so the two cannot drift apart. Its method, path and cost are its operation's in
// the contract (src/contract/operations.ts, credit-costs.ts), which the add-in calls by.
import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { CREDIT_COSTS, type OperationName } from "../../contract/credit-costs";
import { OPERATIONS } from "../../contract/operations";
import { PagingQuery, type Page } from "../../contract/paging";
import { QueryObject } from "../../contract/queries";
import { SNAPSHOT_SELECTORS, type KeptSnapshot } from "../../contract/snapshot-select";
import type { SnapshotContext } from "../data/snapshot-context";
import type { JsonText } from "../data/json-text";

/**
 * What a handler is given: the snapshot that answers (the latest, or the one the call named with
 * `snapshot` or `as_of`), and the request's parts as its schemas describe them (the query without
 * those two selectors).
 */
export interface HandlerContext<Params = unknown, Query = unknown, Body = unknown> {
  snapshot: SnapshotContext;
  /** Every snapshot the service keeps, newest first (coverage lists them). */
  kept: () => KeptSnapshot[];
  params: Params;
  query: Query;
  body: Body;
  request: FastifyRequest;
}

/** A route as it is registered and published. */
export interface RouteDef {
  operationId: OperationName;
  method: "GET" | "POST";
  /** Fastify path syntax (`:name`); the OpenAPI path uses `{name}`. */
  url: string;
  tag: string;
  summary: string;
  description: string;
  /** Credits a successful call costs (published in the catalog and the docs); per unit with `units`. */
  cost: number;
  /**
   * A call billed per unit answered: the most units its body can be charged for. Its credits
   * are held once the body has been validated, and the handler sets `request.chargedCredits`.
   */
  units?: (body: unknown) => number;
  /**
   * When the route answers 404 (`not_found`): something the caller names (a record, an asset
   * type, a geography) is not in the snapshot. Routes that name nothing have none, and the
   * OpenAPI document declares 404 only for routes that have it.
   */
  notFound?: string;
  /** What a 400 can mean for this route besides a request that fails its schemas (`validation_failed`). */
  badRequest?: string;
  params?: TObject;
  querystring: TObject;
  body?: TObject;
  response: TSchema;
  handler: (ctx: HandlerContext) => unknown;
}

/** An operation's query once validated: its inputs, defaults filled in, and a list operation's page. */
export type QueryOf<Op extends OperationName, Q extends TObject> = Static<Q> &
  ((typeof OPERATIONS)[Op]["paged"] extends true ? Page : unknown);

type BodyOf<B extends TObject | undefined> = B extends TObject ? Static<B> : undefined;

/** How a route is described to people: in the OpenAPI document and the catalog. */
type RouteWords = Pick<RouteDef, "tag" | "summary" | "description" | "notFound" | "badRequest">;

/** What a route module states: its operation, its words, its schemas and its handler. */
export interface RouteSpec<
  Op extends OperationName,
  P extends TObject,
  Q extends TObject,
  B extends TObject | undefined,
  R extends TSchema,
> extends RouteWords {
  operationId: Op;
  units?: (body: BodyOf<B>) => number;
  params?: P;
  /** The query inputs other than paging; none when absent (an unknown parameter is refused, as everywhere). */
  querystring?: Q;
  body?: B;
  response: R;
  handler: (ctx: HandlerContext<Static<P>, QueryOf<Op, Q>, BodyOf<B>>) => Static<R> | JsonText;
}

/**
 * A route of the operation named, its handler typed from its own schemas. Fastify validates
 * the path, query and body against exactly these schemas (defaults filled in) before the
 * handler runs, which is what lets the registered route take them as `unknown`.
 */
export function defineRoute<
  Op extends OperationName,
  P extends TObject = TObject<Record<never, never>>,
  Q extends TObject = TObject<Record<never, never>>,
  B extends TObject | undefined = undefined,
  R extends TSchema = TSchema,
>(spec: RouteSpec<Op, P, Q, B, R>): RouteDef {
  const operation = OPERATIONS[spec.operationId];
  const query = spec.querystring ?? QueryObject({});
  return {
    ...spec,
    method: operation.method,
    url: fastifyPath(operation.path),
    cost: CREDIT_COSTS[spec.operationId],
    querystring: selectable(operation.paged ? paged(query) : query),
    units: spec.units as RouteDef["units"],
    handler: spec.handler as RouteDef["handler"],
  };
}

/** A list operation's query: its own inputs, optional or not as they are, then `limit` and `offset`. */
function paged(query: TObject): TObject {
  return Type.Object(
    { ...query.properties, limit: Type.Optional(PagingQuery.limit), offset: Type.Optional(PagingQuery.offset) },
    { additionalProperties: query.additionalProperties },
  );
}

/**
 * Every operation answers from a snapshot, so every one takes the selectors `snapshot` and
 * `as_of` (api-route.ts applies them before the handler runs). Added here, once, rather than to
 * each operation's query: the queries refuse unknown parameters.
 */
function selectable(query: TObject): TObject {
  return Type.Object(
    { ...query.properties, snapshot: Type.Optional(SNAPSHOT_SELECTORS.snapshot), as_of: Type.Optional(SNAPSHOT_SELECTORS.as_of) },
    { additionalProperties: query.additionalProperties },
  );
}

/** Drops `$id`s: the same record schema appears in many routes, and Ajv rejects duplicate ids. */
export function inline<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema, (k, v) => (k === "$id" ? undefined : v)));
}

export function openApiPath(url: string): string {
  return url.replace(/:([a-z_]+)/g, "{$1}");
}

function fastifyPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ":$1");
}
