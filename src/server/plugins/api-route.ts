// Registers one RouteDef on the API plugin: its schemas (which validate the request and
// serialise the answer), its credit gate, and a handler that runs the route's query on the
// snapshot the request took when it arrived, or on the kept snapshot the call names
// (`snapshot=` or `as_of=`).
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { type MeteringDeps, holdUnits, meteredRoute } from "../credits/metering";
import { JsonText } from "../data/json-text";
import { isEmptyList } from "../data/list-envelope";
import { ApiProblem } from "../http/problem";
import { inline, openApiPath, type RouteDef } from "../routes/route-def";
import { checkRanges, resolveAsOf, resolveDateParams } from "../routes/query-params";
import { canonicalNames, hasNameInputs } from "../routes/name-inputs";
import { selects } from "../data/snapshot-select";

const JSON_UTF8 = "application/json; charset=utf-8";

/** `prefix` is the plugin's (RouteDef urls are whole paths, as the OpenAPI document lists them). */
export function registerRoute(api: FastifyInstance, route: RouteDef, prefix: string, metering: MeteringDeps) {
  if (!route.url.startsWith(`${prefix}/`)) throw new Error(`${route.operationId}: ${route.url} is not under ${prefix}`);
  const live = api.liveSnapshot;
  const kept = () => live.keptList();
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
      request.snapshot = live.acquire();
      gate(request, reply, done);
    },
    // Names in any of their spellings, in their canonical form before the schemas check them
    // (a step only the routes that take names run, so property detail's path stays as short).
    ...(hasNameInputs(route.querystring) || hasNameInputs(route.params)
      ? {
          preValidation: (request: FastifyRequest, _reply: unknown, done: () => void) => {
            canonicalNames(route.querystring, request.query);
            canonicalNames(route.params, request.params);
            done();
          },
        }
      : {}),
    ...(route.units ? { preHandler: holdUnits(metering, route.cost, route.units) } : {}),
    // Not async: a synchronous handler saves a promise per request. Fastify catches what it
    // throws and hands it to the error handler.
    handler: (request, reply) => {
      let query = resolveAsOf(request.query as Record<string, unknown>);
      // A request abandoned while a store answered has given its snapshot back (onRequestAbort);
      // it takes the current one again, which onSend gives back.
      request.snapshot ??= live.acquire();
      if (selects(query)) {
        // The call names a kept snapshot: it answers everything about the call (body, ETag,
        // X-Snapshot-Id). A refusal leaves the latest with the request, given back as usual.
        request.snapshot = live.reselect(request.snapshot, query);
        const { snapshot: _id, as_of: _date, ...rest } = query;
        query = rest;
      }
      // Dates are days from here on: relative ones counted from the capture date of the snapshot answering.
      query = resolveDateParams(query, request.snapshot.asOf);
      checkRanges(route.operationId, query);
      const result = route.handler({
        snapshot: request.snapshot,
        kept,
        query,
        params: request.params,
        body: request.body,
        request,
      });
      if (result === undefined) throw new ApiProblem(500, "internal", "No result.");
      // A list that matches nothing is answered (200, an empty list) and costs nothing.
      if (isEmptyList(result)) request.chargedCredits = 0;
      if (result instanceof JsonText) {
        if (result.etag) reply.header("ETag", result.etag);
        return reply.type(JSON_UTF8).send(result.text);
      }
      return reply.send(result);
    },
  });
}
