// Builds the service as a Fastify app without listening (main.ts listens; tests `inject`). It
// only assembles: the stores arrive open (open-stores.ts) and stay the opener's to close. The app
// holds what every area shares, as decorators (the live snapshot, the key store, the credits),
// and registers the areas as encapsulated plugins: the API under /v1, the account pages, and the
// add-in's files under /addin/.
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyBaseLogger,
  type FastifyServerOptions,
} from "fastify";
import fs from "node:fs";
import type Database from "better-sqlite3";
import type { ApiKeys } from "./auth/ports";
import type { Credits, RateLimits } from "./credits/ports";
import { SnapshotContext } from "./data/snapshot-context";
import { LiveSnapshot } from "./data/live-snapshot";
import { DEFAULT_SNAPSHOTS_RETAIN_MONTHS } from "./config";
import { answerClientError, answerRouterError } from "./http/client-errors";
import { notFound, sendProblem, serviceUnavailable, toProblem, validationProblem } from "./http/problem";
import { OUTAGE_RETRY_AFTER_S, type StoreHealth, isStoreOutage, outageCause } from "./db/store-outage";
import { newRequestId, redactKeys } from "./http/request-id";
import { REQUEST_VALIDATION } from "./http/request-validation";
import { validatorKey } from "./http/etag";
import { addinFiles } from "./plugins/addin-files";
import { modelTemplateRoute } from "./plugins/model-template";
import { v1Api } from "./plugins/v1-api";
import type { ServiceStores } from "./stores/service-stores";
import { accountArea } from "./web";
import { DEFAULT_BODY_LIMIT } from "../contract/operation";

declare module "fastify" {
  interface FastifyInstance {
    /** "METHOD /path" of every route, for the test that holds routes and OpenAPI equal. */
    registeredRoutes: string[];
    /** The snapshot requests arriving now are answered from (`liveSnapshot.current`). */
    readonly snapshot: SnapshotContext;
    /** The current snapshot, the requests holding each open one, and rollouts to a new file (data/live-snapshot.ts). */
    liveSnapshot: LiveSnapshot;
    /** API keys. */
    keys: ApiKeys;
    /** Credits held, charged and reported, shared by the API (which charges) and the usage page. */
    ledger: Credits;
    /** The accounts' rate limits. */
    rateLimits: RateLimits;
    /** The key of validators no client can compute (http/etag.ts, keyedEtagOf), derived from the server secret. */
    validatorKey: Buffer;
  }
  interface FastifyRequest {
    /** The snapshot an API request is answered from, held from its arrival until its answer is sent (plugins/api-route.ts). */
    snapshot?: SnapshotContext;
  }
}

export interface AppOptions {
  /**
   * What the app serves, one of two: the store of snapshots at this path (the service: its newest
   * version is the latest, the older ones retained are served to calls that name them, and a
   * SIGHUP refresh serves what it holds then), or `snapshotDb`.
   */
  snapshotStore?: string;
  /** One snapshot file's open database, as the latest (tests and scripts); `olderSnapshots` beside it. */
  snapshotDb?: Database.Database;
  /** Snapshots served beside `snapshotDb` to calls that name them. */
  olderSnapshots?: SnapshotContext[];
  /** How often, at most, a store's newest snapshot renews its read, in ms (live-snapshot.ts; tests make it 0). */
  renewReadMs?: number;
  /** How many months after its capture an older snapshot stays served (SNAPSHOTS_RETAIN_MONTHS; DEFAULT_SNAPSHOTS_RETAIN_MONTHS unless given). */
  snapshotsRetainMonths?: number;
  /** Accounts, keys, sessions, credits and limits, open (open-stores.ts); the caller closes them after the app. */
  stores: ServiceStores;
  /** The server secret: API keys are stored as HMACs with it, and the CSRF key is derived from it. */
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
  /**
   * Which proxies in front of the service to believe about the client's address and protocol
   * (X-Forwarded-For, -Proto, -Host): Fastify's `trustProxy` (see config.ts, TRUST_PROXY).
   */
  trustProxy?: FastifyServerOptions["trustProxy"];
}

export function buildApp(opts: AppOptions): FastifyInstance {
  const requestTimeoutMs = opts.requestTimeoutMs ?? 10_000;
  const serverOptions = { headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs / 2) };
  const corsOrigins = opts.corsOrigins ?? [];
  const app = Fastify({
    logger: opts.logger ?? false,
    genReqId: newRequestId,
    requestIdHeader: false,
    exposeHeadRoutes: false,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: opts.trustProxy ?? false,
    // Slow clients cannot hold a connection: the whole request must arrive in time, and
    // Node checks for late ones every second (its default is every 30 s).
    requestTimeout: requestTimeoutMs,
    ...(opts.tls ? { https: { ...opts.tls, ...serverOptions } } : { http: serverOptions }),
    connectionTimeout: 30_000,
    keepAliveTimeout: 5_000,
    ajv: { customOptions: REQUEST_VALIDATION },
    // A request that fails its schema is refused with its problem, built from Ajv's errors.
    schemaErrorFormatter: validationProblem,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: answerRouterError,
    clientErrorHandler: answerClientError,
  });
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
  app.decorateRequest("rowCredits", undefined);
  app.decorateRequest("snapshot", undefined);

  const stores = opts.stores;
  const live = openLiveSnapshot(opts, app.log);
  app.decorate("liveSnapshot", live);
  app.decorate("snapshot", { getter: () => live.current });
  app.decorate("keys", stores.keys);
  app.decorate("ledger", stores.credits);
  app.decorate("rateLimits", stores.rateLimits);
  app.decorate("validatorKey", validatorKey(opts.pepper));
  // Writes the last charges; the stores themselves are the caller's to close. The snapshots
  // opened from a store are the app's (a snapshot file given it stays the caller's).
  app.addHook("onClose", async () => {
    live.stop();
    await stores.credits.flush();
  });

  // Every answer, from every area, names its request and is not to be sniffed.
  app.addHook("onRequest", (req, reply, done) => {
    reply.header("X-Request-Id", req.id);
    reply.header("X-Content-Type-Options", "nosniff");
    done();
  });
  // Outside the areas that answer otherwise (the account pages answer HTML), a failure is a problem.
  app.setErrorHandler((err, req, reply) => {
    if (isStoreOutage(err)) {
      // The database restarting, stopped or hung: not a bug, and the client may try again.
      req.log.warn({ cause: outageCause(err) }, "store unavailable: answered 503");
      return sendProblem(req, reply, serviceUnavailable(OUTAGE_RETRY_AFTER_S));
    }
    const problem = toProblem(err as FastifyError);
    if (problem.status >= 500) req.log.error({ err }, "request failed");
    return sendProblem(req, reply, problem);
  });
  app.setNotFoundHandler((req, reply) =>
    sendProblem(req, reply, notFound(`There is no ${req.method} ${redactKeys(req.url.split("?")[0])}.`)),
  );

  app.register(v1Api, { prefix: "/v1", corsOrigins });
  app.get("/healthz", healthCheck(stores, app));
  app.register(modelTemplateRoute);
  app.register(accountArea, {
    accounts: stores.accounts,
    keys: stores.keys,
    ledger: stores.credits,
    sessions: stores.sessions,
    authLimits: stores.authLimits,
    pepper: opts.pepper,
    secureCookies: opts.secureCookies,
    docsDir: opts.docsDir,
  });
  if (opts.addinDir && fs.existsSync(opts.addinDir)) app.register(addinFiles, { root: opts.addinDir, corsOrigins });
  return app;
}

/** How long one store check answers /healthz: load balancers may poll it often, and the store is asked at most this often. */
const HEALTH_TTL_MS = 1000;

/**
 * GET /healthz: 200 `{ status: "ok" }`; with a store that can be out of reach (PostgreSQL), also
 * the store's state, and 503 with Retry-After while it cannot be reached. One check at a time,
 * its answer reused for HEALTH_TTL_MS; each is bounded by the store's connect and query timeouts.
 */
function healthCheck(stores: ServiceStores, app: FastifyInstance) {
  const check = stores.health?.bind(stores);
  if (!check) return (_req: FastifyRequest, reply: FastifyReply) => reply.send({ status: "ok" });
  let last: { at: number; health: Promise<StoreHealth> } | undefined;
  const current = () => {
    const now = Date.now();
    if (!last || now - last.at >= HEALTH_TTL_MS) {
      const health = check().then((h) => {
        if (h.state !== "ok") app.log.warn({ cause: h.cause }, "store unavailable: /healthz answered 503");
        return h;
      });
      last = { at: now, health };
    }
    return last.health;
  };
  return async (_req: FastifyRequest, reply: FastifyReply) => {
    const { kind, state } = await current();
    if (state === "ok") return reply.send({ status: "ok", store: { kind, state } });
    return reply.code(503).header("Retry-After", String(OUTAGE_RETRY_AFTER_S)).send({ status: "unavailable", store: { kind, state } });
  };
}

/** The snapshots the app serves: the store's, or the one file's given (exactly one of the two). */
function openLiveSnapshot(opts: AppOptions, log: FastifyBaseLogger): LiveSnapshot {
  const retainMonths = opts.snapshotsRetainMonths ?? DEFAULT_SNAPSHOTS_RETAIN_MONTHS;
  if ((opts.snapshotStore === undefined) === (opts.snapshotDb === undefined)) {
    throw new Error("buildApp serves either a snapshot store or one snapshot file: give snapshotStore or snapshotDb");
  }
  if (opts.snapshotStore !== undefined) {
    return LiveSnapshot.fromStore(opts.snapshotStore, log, opts.now, { retainMonths, renewReadMs: opts.renewReadMs });
  }
  return new LiveSnapshot(new SnapshotContext(opts.snapshotDb!), log, opts.now, { retainMonths, older: opts.olderSnapshots });
}
