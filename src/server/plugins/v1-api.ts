// The public API under /v1, as one encapsulated plugin: CORS for the origins that may call it
// from a browser, the credit gate on every route, ETags and free 304s (refusals are problem+json,
// by the app's error handler), giving back each request's snapshot once it is answered, and the
// OpenAPI document @fastify/swagger builds from the registered routes.
import cors from "@fastify/cors";
import swagger from "@fastify/swagger";
import type { FastifyPluginCallback, FastifyRequest } from "fastify";
import { type MeteringDeps, releaseCredits, settleCredits } from "../credits/metering";
import { apiCors, originRefusal, preflightGuard } from "../http/cors";
import { conditionalGet } from "../http/etag";
import { openApiOptions } from "../openapi/openapi-document";
import { SHARED_SCHEMAS } from "../../contract/shared-schemas";
import { API_ROUTES } from "../routes";
import { registerRoute } from "./api-route";

export interface V1ApiOptions {
  /** Origins (besides the service's own) whose pages may call the API from a browser. */
  corsOrigins: string[];
}

export const V1_PREFIX = "/v1";

export const v1Api: FastifyPluginCallback<V1ApiOptions> = (api, opts, done) => {
  const live = api.liveSnapshot;
  /** Gives back the snapshot an API route's request took (api-route.ts); once, whichever hook comes first. */
  const releaseSnapshot = (req: FastifyRequest) => {
    const s = req.snapshot;
    if (s !== undefined) {
      req.snapshot = undefined;
      live.release(s);
    }
  };
  const metering: MeteringDeps = { keys: api.keys, ledger: api.ledger, limiter: api.rateLimits };
  // Only JSON bodies: the default text/plain parser would turn a wrong content type into a
  // confusing validation error instead of 415.
  api.removeContentTypeParser("text/plain");
  if (opts.corsOrigins.length) {
    api.addHook("onRequest", preflightGuard(opts.corsOrigins));
    api.register(cors, apiCors(opts.corsOrigins));
  } else {
    // No origin may call the API from a browser (the add-in calls it from its own origin), so
    // no CORS hook runs on its requests; a preflight is refused saying why.
    api.options("*", (req) => {
      throw originRefusal(req.headers.origin);
    });
  }

  // Callback-style hooks: they run on every request, and async ones cost a promise each.
  api.addHook("onSend", (req, reply, payload, hookDone) => {
    const body = conditionalGet(req, reply, payload); // may turn a 200 into a free 304
    const settled = settleCredits(api.ledger, req, reply);
    if (req.snapshot) reply.header("X-Snapshot-Id", req.snapshot.ref.id); // which snapshot answered
    releaseSnapshot(req); // the answer is written: the request needs its snapshot no more
    if (settled instanceof Promise) settled.then(() => hookDone(null, body), hookDone);
    else hookDone(null, body);
  });
  api.addHook("onRequestAbort", (req, hookDone) => {
    releaseCredits(api.ledger, req);
    releaseSnapshot(req);
    hookDone();
  });

  // The shared records, once each: the routes' schemas refer to them by `$id`.
  for (const schema of SHARED_SCHEMAS) api.addSchema(schema);
  // Registered before the routes, so it sees each of them (it hears of routes as they are added).
  api.register(swagger, openApiOptions());
  api.register((routes, _opts, routesDone) => {
    for (const route of API_ROUTES) registerRoute(routes, route, V1_PREFIX, metering);
    routesDone();
  });
  api.get("/openapi.json", (_req, reply) => reply.send(api.swagger()));
  done();
};
