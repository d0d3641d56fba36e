// A route of the public API: an operation of the contract (src/contract/operations.ts: its
// method, path, schemas, cost and what the documentation says of it) and its handler, typed
// from the operation's schemas. plugins/api-route.ts registers it with Fastify through the
// TypeBox type provider; @fastify/swagger builds the OpenAPI document from the registered routes.
import type { Static, TObject } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { Operation } from "../../contract/operation";
import type { Page } from "../../contract/paging";
import type { KeptSnapshot } from "../../contract/snapshot-select";
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

/** A request part as a handler takes it: the static type of its schema, or undefined where the operation has none. */
export type Part<S> = S extends TObject ? Static<S> : undefined;

/** An operation's query once validated: its inputs, defaults filled in, and a list operation's page. */
export type QueryOf<O extends Operation> = Static<O["inputs"]> & (O["paged"] extends true ? Page : unknown);

/** A route as a route module states it and api-route.ts registers it. */
export interface RouteDef<O extends Operation = Operation> {
  operation: O;
  /**
   * A call billed per unit answered: the most units its body can be charged for. Its credits
   * are held once the body has been validated, and the handler sets `request.chargedCredits`.
   */
  units?(body: Part<O["body"]>): number;
  /**
   * A call priced by its answer: the handler runs before any credit is held (once the body is
   * validated), sets `request.chargedCredits` to what its answer costs (and `request.rowCredits`,
   * a call priced per row), and exactly that is held, so a call the credits left pay for is
   * never refused (credits/metering.ts, holdPriced).
   */
  priced?: boolean;
  /**
   * Work a call priced by its answer does before its handler, in steps that let other requests
   * run between them (a match request's rows, a slice at a time), so a long request delays no
   * other by more than a step; the handler then reads what it left (routes/property-match.ts).
   */
  prepare?(ctx: HandlerContext<Part<O["params"]>, QueryOf<O>, Part<O["body"]>>): Promise<void>;
  /**
   * How many calls of its account's rate limit a call weighs, from its body (1 unless given):
   * the gate takes one when it arrives and the rest before the handler runs.
   */
  weight?(body: Part<O["body"]>): number;
  /** Declared as a method, so a route of one operation is a route of any (RouteDef's default). */
  handler(ctx: HandlerContext<Part<O["params"]>, QueryOf<O>, Part<O["body"]>>): Static<O["response"]> | JsonText;
}

/** A route of `operation`, its handler typed from the operation's schemas. */
export function defineRoute<O extends Operation>(operation: O, route: Omit<RouteDef<O>, "operation">): RouteDef<O> {
  return { operation, ...route };
}

/** Fastify's path syntax (`:name`) for an OpenAPI path (`{name}`). */
export function fastifyPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ":$1");
}

/**
 * The schemas Fastify validates a route's request and serialises its answer with; only the parts
 * the operation has (Fastify warns of a schema key given as undefined). Shared records are
 * referenced by `$id` (contract/shared-schemas.ts, registered once on the API plugin).
 */
export function routeSchema<O extends Operation>(operation: O) {
  return {
    ...(operation.params ? { params: operation.params as Exclude<O["params"], undefined> } : {}),
    querystring: operation.query,
    ...(operation.body ? { body: operation.body as Exclude<O["body"], undefined> } : {}),
    response: operation.responses,
  };
}
