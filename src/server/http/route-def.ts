// A route of the public API, described once. The same description registers the Fastify
// route (whose schemas validate requests and serialise responses) and generates the OpenAPI
// document, so the two cannot drift apart.
import type { TObject, TSchema } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { SnapshotContext } from "../data/snapshot-context";

export interface HandlerContext {
  snapshot: SnapshotContext;
  query: Record<string, any>;
  params: Record<string, any>;
  body: any;
  request: FastifyRequest;
}

export interface RouteDef {
  method: "GET" | "POST";
  /** Fastify path syntax (`:name`); the OpenAPI path uses `{name}`. */
  url: string;
  operationId: string;
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
  querystring?: TObject;
  body?: TObject;
  response: TSchema;
  handler: (ctx: HandlerContext) => unknown;
}

/** Drops `$id`s: the same record schema appears in many routes, and Ajv rejects duplicate ids. */
export function inline<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema, (k, v) => (k === "$id" ? undefined : v)));
}

export function openApiPath(url: string): string {
  return url.replace(/:([a-z_]+)/g, "{$1}");
}
