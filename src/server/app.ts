// Builds the service as a Fastify app without listening (main.ts listens; tests `inject`).
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from "fastify";
import fastifyStatic from "@fastify/static";
import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type Database from "better-sqlite3";
import { KeyStore } from "./auth/key-store";
import { CreditLedger } from "./credits/credit-ledger";
import { type MeteringDeps, holdUnits, meteredRoute, releaseCredits, settleCredits } from "./credits/metering";
import { RateLimiter } from "./credits/rate-limiter";
import { corsResponder, metadataCorsResponder, registerPreflight } from "./http/cors";
import { SnapshotContext } from "./data/snapshot-context";
import { JsonText } from "./data/json-text";
import { conditionalGet } from "./http/etag";
import { ApiProblem, PROBLEM_BASE, notFound, sendProblem, toProblem } from "./http/problem";
import { inline, openApiPath, type RouteDef } from "./routes/route-def";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { newRequestId, redactKeys } from "./http/request-id";
import { API_ROUTES } from "./routes";
import { checkRanges } from "./routes/query-params";
import { buildOpenApi } from "./openapi";
import { registerAccountArea } from "./web";

declare module "fastify" {
  interface FastifyInstance {
    /** "METHOD /path" of every route, for the test that holds routes and OpenAPI equal. */
    registeredRoutes: string[];
  }
}

export interface AppOptions {
  snapshotDb: Database.Database;
  accountsDb: Database.Database;
  pepper: Buffer;
  /** Built add-in files to serve under /addin/ (optional). */
  addinDir?: string;
  /** The documentation folder: docs/functions.md is served at /docs/functions, where the functions' help links point (optional). */
  docsDir?: string;
  logger?: FastifyServerOptions["logger"];
  now?: () => Date;
  /** Origins (besides the service's own) whose pages may call /v1/ from a browser. */
  corsOrigins?: string[];
  /** How long a client may take to send a whole request (default 10 s). */
  requestTimeoutMs?: number;
  /** Web account pages: Secure cookies, for a service users reach over HTTPS (see docs/account.md). */
  secureCookies?: boolean;
  /** Serve HTTPS with this certificate (Office requires HTTPS for add-ins outside localhost tests). */
  tls?: { key: Buffer; cert: Buffer };
}

export function buildApp(opts: AppOptions): FastifyInstance {
  const requestTimeoutMs = opts.requestTimeoutMs ?? 10_000;
  const serverOptions = { headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs / 2) };
  const app = Fastify({
    logger: opts.logger ?? false,
    genReqId: newRequestId,
    requestIdHeader: false,
    exposeHeadRoutes: false,
    bodyLimit: 64 * 1024,
    // Slow clients cannot hold a connection: the whole request must arrive in time, and
    // Node checks for late ones every second (its default is every 30 s).
    requestTimeout: requestTimeoutMs,
    ...(opts.tls ? { https: { ...opts.tls, ...serverOptions } } : { http: serverOptions }),
    connectionTimeout: 30_000,
    keepAliveTimeout: 5_000,
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: "array", useDefaults: true } },
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (a malformed %-escape, a path segment over its length limit)
    // are problems like every other answer: with a request id, and never quoting the URL,
    // which may hold a key.
    frameworkErrors: (error, req, reply) => {
      reply.header("X-Request-Id", req.id);
      const detail = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? "A part of the path is longer than this service accepts." : "The URL is not valid: it has a malformed %-escape.";
      return sendProblem(req, reply, new ApiProblem(400, "validation_failed", detail));
    },
    // Node's own refusals of a request it cannot read (headers too large, a malformed request,
    // one too slow to arrive) are problems too, where the connection can still take an answer.
    clientErrorHandler: answerClientError,
  });
  // Only JSON bodies: Fastify's default text/plain parser would turn a wrong content type
  // into a confusing validation error instead of 415.
  app.removeContentTypeParser("text/plain");
  const registered: string[] = [];
  app.addHook("onRoute", (r) => {
    for (const m of ([] as string[]).concat(r.method)) registered.push(`${m} ${r.url}`);
  });
  app.decorate("registeredRoutes", registered);
  // Declared up front so every request object has the same shape (V8 keeps routes fast).
  app.decorateRequest("apiKey", undefined);
  app.decorateRequest("creditHold", undefined);
  app.decorateRequest("meteredEndpoint", undefined);
  app.decorateRequest("chargedCredits", undefined);
  const snapshot = new SnapshotContext(opts.snapshotDb);
  const keys = new KeyStore(opts.accountsDb, opts.pepper, opts.now);
  const ledger = new CreditLedger(opts.accountsDb, opts.now, (err) => app.log.error({ err }, "writing credits failed"));
  const now = opts.now;
  const metering: MeteringDeps = { keys, ledger, limiter: new RateLimiter(now ? () => now().getTime() : Date.now) };
  const applyCors = corsResponder(opts.corsOrigins ?? []);
  const applyMetadataCors = metadataCorsResponder(opts.corsOrigins ?? []);

  // Callback-style hooks: they run on every request, and async ones cost a promise each.
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("X-Request-Id", req.id);
    reply.header("X-Content-Type-Options", "nosniff");
    applyCors(req, reply);
    applyMetadataCors(req, reply);
    done();
  });
  app.addHook("onSend", (req, reply, payload, done) => {
    const body = conditionalGet(req, reply, payload); // may turn a 200 into a free 304
    settleCredits(ledger, req, reply);
    done(null, body);
  });
  app.addHook("onRequestAbort", (req, done) => {
    releaseCredits(ledger, req);
    done();
  });
  app.addHook("onClose", (_app, done) => {
    ledger.flush();
    done();
  });
  registerPreflight(app, opts.corsOrigins ?? []);

  app.setErrorHandler((err, req, reply) => {
    const problem = toProblem(err as FastifyError);
    if (problem.status >= 500) req.log.error({ err }, "request failed");
    return sendProblem(req, reply, problem);
  });
  app.setNotFoundHandler((req, reply) =>
    sendProblem(req, reply, notFound(`There is no ${req.method} ${redactKeys(req.url.split("?")[0])}.`)),
  );

  for (const route of API_ROUTES) registerRoute(app, route, snapshot, metering);

  const openapi = buildOpenApi(API_ROUTES);
  app.get("/v1/openapi.json", async () => openapi);
  app.get("/healthz", async () => ({ status: "ok" }));
  registerAccountArea(app, { keys, ledger, accountsDb: opts.accountsDb, pepper: opts.pepper, openapi, now: opts.now, secureCookies: opts.secureCookies, docsDir: opts.docsDir });

  if (opts.addinDir && fs.existsSync(opts.addinDir)) {
    // Source maps stay on disk for whoever debugs the build; the service does not hand them out.
    app.register(fastifyStatic, { root: opts.addinDir, prefix: "/addin/", index: ["taskpane.html"], allowedPath: (file) => !file.endsWith(".map") });
  }
  return app;
}

const JSON_UTF8 = "application/json; charset=utf-8";

/** The status of a request Node could not read: 431 for headers too large, 408 for one too slow, else 400. */
function clientErrorStatus(err: NodeJS.ErrnoException): number {
  if (err.code === "HPE_HEADER_OVERFLOW") return 431;
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

const CLIENT_ERROR_DETAIL: Record<number, string> = {
  400: "The request could not be read as HTTP.",
  408: "The request did not arrive in time.",
  431: "The request's headers are larger than this service accepts.",
};

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(err);
  const id = newRequestId();
  const body = JSON.stringify({
    type: `${PROBLEM_BASE}${status === 400 ? "validation_failed" : status === 408 ? "request_timeout" : "headers_too_large"}`,
    title: STATUS_CODES[status],
    status,
    detail: CLIENT_ERROR_DETAIL[status],
    code: status === 400 ? "validation_failed" : status === 408 ? "request_timeout" : "headers_too_large",
    request_id: id,
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function registerRoute(
  app: FastifyInstance,
  route: RouteDef,
  snapshot: SnapshotContext,
  metering: MeteringDeps,
) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    method: route.method,
    url: route.url,
    schema: {
      ...(route.params ? { params: inline(route.params) } : {}),
      querystring: inline(route.querystring),
      ...(route.body ? { body: inline(route.body) } : {}),
      response: { 200: inline(route.response) },
    },
    onRequest: meteredRoute(metering, route.cost, `${route.method} ${openApiPath(route.url)}`, route.units !== undefined),
    ...(route.units ? { preHandler: holdUnits(metering, route.cost, route.units) } : {}),
    // Not async: a synchronous handler saves a promise per request. Fastify catches what it
    // throws and hands it to the error handler.
    handler: (request, reply) => {
      checkRanges(route.operationId, request.query);
      const result = route.handler({ snapshot, query: request.query, params: request.params, body: request.body, request });
      if (result === undefined) throw new ApiProblem(500, "internal", "No result.");
      if (result instanceof JsonText) {
        if (result.etag) reply.header("ETag", result.etag);
        return reply.type(JSON_UTF8).send(result.text);
      }
      return reply.send(result);
    },
  });
}
