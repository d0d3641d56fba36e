// Registers one RouteDef on the API plugin: its schemas (which validate the request and
// serialise the answer), its credit gate, and a handler that runs the route's query on the
// snapshot the request took when it arrived, or on the kept snapshot the call names
// (`snapshot=` or `as_of=`).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Static } from "@sinclair/typebox";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Operation } from "../../contract/operation";
import { type MeteringDeps, holdPriced, holdUnits, meteredRoute, takeWeight } from "../credits/metering";
import { JsonText } from "../data/json-text";
import { isEmptyList } from "../data/list-envelope";
import { ApiProblem } from "../http/problem";
import { fastifyPath, routeSchema, type Part, type QueryOf, type RouteDef } from "../routes/route-def";
import { checkRanges, resolveAsOf, resolveDateParams } from "../routes/query-params";
import { canonicalNames, hasNameInputs } from "../routes/name-inputs";
import { selects } from "../data/snapshot-select";

const JSON_UTF8 = "application/json; charset=utf-8";

/**
 * The request's parts as the handler of `O` takes them. Fastify has validated each against the
 * operation's schema (defaults filled in) before the handler runs; the query, without the
 * snapshot selectors, is then the operation's inputs and page (contract/operation.ts,
 * FullQuery). TypeScript cannot work this out for an operation not yet known, so it is said
 * here, once.
 */
function validatedQuery<O extends Operation>(query: Static<O["query"]>, selected: boolean): QueryOf<O> {
  if (!selected) return query as QueryOf<O>;
  const { snapshot: _id, as_of: _date, ...rest } = query;
  return rest as QueryOf<O>;
}

/** A path or body the operation's schema `S` has validated (see validatedQuery). */
function validated<S>(part: unknown): Part<S> {
  return part as Part<S>;
}

/** `prefix` is the plugin's (operation paths are whole paths, as the OpenAPI document lists them). */
export function registerRoute<O extends Operation>(api: FastifyInstance, route: RouteDef<O>, prefix: string, metering: MeteringDeps) {
  const { operation } = route;
  if (!operation.path.startsWith(`${prefix}/`)) throw new Error(`${operation.name}: ${operation.path} is not under ${prefix}`);
  const live = api.liveSnapshot;
  const kept = () => live.keptList();
  const priced = route.priced === true;
  const gate = meteredRoute(metering, operation.cost, `${operation.method} ${operation.path}`, route.units !== undefined || priced);
  const units = route.units;
  const weight = route.weight;
  type Context = Parameters<typeof route.handler>[0];
  /** What the route's handler is given for a validated request: the snapshot the call names and the request's parts. */
  const contextOf = (request: FastifyRequest): Context => {
    // Fastify has validated the query against the operation's (see validatedQuery).
    const selection = resolveAsOf(request.query as Static<O["query"]>);
    // A request abandoned while a store answered has given its snapshot back (onRequestAbort);
    // it takes the current one again, which onSend gives back.
    request.snapshot ??= live.acquire();
    // A call that names a kept snapshot is answered from it: everything about the call (body,
    // ETag, X-Snapshot-Id). A refusal leaves the latest with the request, given back as usual.
    const selected = selects(selection);
    if (selected) request.snapshot = live.reselect(request.snapshot, selection);
    // Dates are days from here on: relative ones counted from the capture date of the snapshot answering.
    const query = resolveDateParams(validatedQuery<O>(selection, selected), request.snapshot.asOf);
    checkRanges(operation.name, query);
    const params = validated<O["params"]>(request.params);
    const body = validated<O["body"]>(request.body);
    return { snapshot: request.snapshot, kept, query, params, body, request };
  };
  /** The route's answer to a validated request: what its handler returns on the snapshot the call names. */
  const answer = (ctx: Context): ReturnType<typeof route.handler> => {
    const { request } = ctx;
    const result = route.handler(ctx);
    if (result === undefined) throw new ApiProblem(500, "internal", "No result.");
    // A list that matches nothing is answered (200, an empty list) and costs nothing.
    if (isEmptyList(result)) request.chargedCredits = 0;
    return result;
  };
  /** Answers of routes priced by their answer, worked out in preHandler and sent by the handler. */
  const answered = new WeakMap<FastifyRequest, ReturnType<typeof route.handler>>();
  const prepare = route.prepare;
  const preHandler = priced
    ? (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
        const priceAndHold = (ctx: Context | undefined, failed?: unknown) => {
          let refusal = failed as Error | undefined;
          if (ctx && !refusal) {
            try {
              answered.set(request, answer(ctx));
            } catch (err) {
              refusal = err as Error;
            }
          }
          if (refusal) {
            // Refused (400, or a snapshot that cannot answer): free, and held as such, so the
            // refusal carries the credit headers like every other answer of a held call.
            request.chargedCredits = 0;
            request.rowCredits = undefined;
          }
          holdPriced(metering, request, reply, refusal ? (err) => done(err ?? refusal) : done);
        };
        takeWeight(metering, request, reply, weight ? weight(validated<O["body"]>(request.body)) : 1, done, () => {
          let ctx: Context;
          try {
            ctx = contextOf(request);
          } catch (err) {
            return priceAndHold(undefined, err);
          }
          if (!prepare) return priceAndHold(ctx);
          prepare(ctx).then(
            () => priceAndHold(ctx),
            (err: unknown) => priceAndHold(undefined, err),
          );
        });
      }
    : units
      ? holdUnits(metering, operation.cost, (body) => units(validated<O["body"]>(body)))
      : undefined;
  // The request's parts are typed from the operation's schemas (Fastify validates them against those).
  api.withTypeProvider<TypeBoxTypeProvider>().route({
    method: operation.method,
    url: fastifyPath(operation.path).slice(prefix.length),
    schema: routeSchema(operation),
    ...(operation.bodyLimit ? { bodyLimit: operation.bodyLimit } : {}),
    // What the OpenAPI document says of the route beyond its schemas (openapi/openapi-document.ts).
    config: { apiDoc: operation },
    // The request takes the current snapshot first, so one that arrives before a rollout is
    // answered from the snapshot it arrived under; the API's onSend and onRequestAbort hooks
    // give it back (plugins/v1-api.ts).
    onRequest: (request, reply, done) => {
      request.snapshot = live.acquire();
      gate(request, reply, done);
    },
    // Names in any of their spellings, in their canonical form before the schemas check them
    // (a step only the routes that take names run, so property detail's path stays as short).
    ...(hasNameInputs(operation.query) || hasNameInputs(operation.params)
      ? {
          preValidation: (request: FastifyRequest, _reply: unknown, done: () => void) => {
            canonicalNames(operation.query, request.query);
            canonicalNames(operation.params, request.params);
            done();
          },
        }
      : {}),
    ...(preHandler ? { preHandler } : {}),
    // Not async: a synchronous handler saves a promise per request. Fastify catches what it
    // throws and hands it to the error handler.
    handler: (request, reply) => {
      const result = answered.get(request) ?? answer(contextOf(request));
      if (result instanceof JsonText) {
        if (result.etag) reply.header("ETag", result.etag);
        return reply.type(JSON_UTF8).send(result.text);
      }
      return reply.send(result);
    },
  });
}
