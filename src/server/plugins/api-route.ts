// Registers one RouteDef on the API plugin: its schemas (which validate the request and
// serialise the answer), its credit gate, and a handler that runs the route's query on the
// snapshot the request took when it arrived.
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { type MeteringDeps, holdUnits, meteredRoute } from "../credits/metering";
import { JsonText } from "../data/json-text";
import { ApiProblem } from "../http/problem";
import { inline, openApiPath, type RouteDef } from "../routes/route-def";
import { checkRanges } from "../routes/query-params";
import type { SnapshotSelector } from "../data/live-snapshot";
import { SNAPSHOT_SELECTORS } from "../../shared/contract/snapshot-select";

const JSON_UTF8 = "application/json; charset=utf-8";

/**
 * The snapshot a request names, read from its query string before the schemas validate it (the
 * snapshot is taken when the request arrives); a malformed one is refused as the schema would.
 */
function selectorOf(query: unknown): SnapshotSelector | undefined {
  const { snapshot, as_of } = (query ?? {}) as Record<string, unknown>;
  if (snapshot === undefined && as_of === undefined) return undefined;
  for (const [name, value, pattern] of [
    ["snapshot", snapshot, SNAPSHOT_ID],
    ["as_of", as_of, ISO_DATE],
  ] as const) {
    if (value !== undefined && (typeof value !== "string" || !pattern.test(value))) {
      const detail = name === "as_of" ? "must be a date, YYYY-MM-DD" : "must be a snapshot id, as answers name it";
      throw new ApiProblem(400, "validation_failed", `${name} ${detail}.`, [{ pointer: `/${name}`, parameter: name, detail }]);
    }
  }
  return { snapshot: snapshot as string | undefined, as_of: as_of as string | undefined };
}

const SNAPSHOT_ID = new RegExp(SNAPSHOT_SELECTORS.snapshot.pattern!);
const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** `prefix` is the plugin's (RouteDef urls are whole paths, as the OpenAPI document lists them). */
export function registerRoute(api: FastifyInstance, route: RouteDef, prefix: string, metering: MeteringDeps) {
  if (!route.url.startsWith(`${prefix}/`)) throw new Error(`${route.operationId}: ${route.url} is not under ${prefix}`);
  const live = api.liveSnapshot;
  const gate = meteredRoute(metering, route.cost, `${route.method} ${openApiPath(route.url)}`, route.units !== undefined);
  // The request's parts are typed from the route's schemas (Fastify validates them against those).
  api.withTypeProvider<TypeBoxTypeProvider>().route({
    method: route.method,
    url: route.url.slice(prefix.length),
    schema: {
      ...(route.params ? { params: inline(route.params) } : {}),
      querystring: inline(route.querystring),
      ...(route.body ? { body: inline(route.body) } : {}),
      response: { 200: inline(route.response) },
    },
    // The request takes the current snapshot first, so one that arrives before a rollout is
    // answered from the snapshot it arrived under; the API's onSend and onRequestAbort hooks
    // give it back (plugins/v1-api.ts).
    onRequest: (request, reply, done) => {
      // A call naming a snapshot the service does not keep is refused here, before any credits are held.
      try {
        request.snapshot = live.acquire(selectorOf(request.query));
      } catch (err) {
        done(err as Error);
        return;
      }
      gate(request, reply, done);
    },
    ...(route.units ? { preHandler: holdUnits(metering, route.cost, route.units) } : {}),
    // Not async: a synchronous handler saves a promise per request. Fastify catches what it
    // throws and hands it to the error handler.
    handler: (request, reply) => {
      checkRanges(route.operationId, request.query);
      // A request abandoned while a store answered has given its snapshot back (onRequestAbort);
      // it takes the current one again, which onSend gives back.
      request.snapshot ??= live.acquire(selectorOf(request.query));
      const result = route.handler({
        snapshot: request.snapshot,
        query: request.query,
        params: request.params,
        body: request.body,
        request,
      });
      if (result === undefined) throw new ApiProblem(500, "internal", "No result.");
      if (result instanceof JsonText) {
        if (result.etag) reply.header("ETag", result.etag);
        return reply.type(JSON_UTF8).send(result.text);
      }
      return reply.send(result);
    },
  });
}
