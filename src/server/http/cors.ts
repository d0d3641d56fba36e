// CORS, as wide as the add-in needs and no wider, as @fastify/cors options. The add-in normally
// calls the service it was loaded from (same origin, no CORS at all); when it is hosted on
// another origin (a development server, a company's own host), that origin must be listed in
// CORS_ORIGINS. Only the API is open to those origins: the account pages never are. No cookies
// cross origins (API calls carry a bearer key), so credentials are never allowed. Besides,
// Excel on the web reads the functions' metadata file cross-origin, and may.
import type { FastifyCorsOptions } from "@fastify/cors";
import type { FastifyRequest } from "fastify";
import { CREDIT_HEADERS } from "../../contract/credit-fields";
import { ApiProblem } from "./problem";

/** What a page on an allowed origin may read from an answer. */
export const EXPOSED_HEADERS = [
  "X-Request-Id",
  ...Object.values(CREDIT_HEADERS),
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "ETag",
  "X-Snapshot-Id",
];

const ALLOWED_METHODS = ["GET", "POST"];
const ALLOWED_HEADERS = ["Authorization", "Content-Type", "If-None-Match"];
const PREFLIGHT_MAX_AGE_S = 600;

/** Parses CORS_ORIGINS ("https://a.example, https://localhost:3443"); throws on a non-origin. */
export function parseOrigins(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      let url: URL;
      try {
        url = new URL(s);
      } catch {
        throw new Error(`CORS_ORIGINS: '${s}' is not an origin such as https://localhost:3443`);
      }
      if (url.origin !== s.replace(/\/$/, "") || !/^https?:$/.test(url.protocol)) {
        throw new Error(`CORS_ORIGINS: '${s}' must be a bare origin (scheme://host[:port]), such as ${url.origin}`);
      }
      return url.origin;
    });
}

const refusal = (detail: string) => new ApiProblem(403, "origin_not_allowed", detail, undefined, {}, { Vary: "Origin" });

/** The refusal of a preflight from an origin not in CORS_ORIGINS. */
export function originRefusal(origin: string | undefined): ApiProblem {
  return refusal(
    `Origin '${origin ?? "(none)"}' may not call this API from a browser. The operator lists allowed origins in CORS_ORIGINS.`,
  );
}

/**
 * Why a preflight is refused, or undefined. A browser would refuse these itself once told what
 * is allowed; answering 403 with a problem says why to whoever reads the network log.
 */
function preflightRefusal(req: FastifyRequest, origin: string, allowed: ReadonlySet<string>): ApiProblem | undefined {
  if (!allowed.has(origin)) return originRefusal(origin);
  const method = String(req.headers["access-control-request-method"] ?? "").toUpperCase();
  if (!ALLOWED_METHODS.includes(method)) return refusal(`Method '${method}' is not used by this API.`);
  const lower = ALLOWED_HEADERS.map((h) => h.toLowerCase());
  const extra = String(req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h && !lower.includes(h));
  if (extra.length) return refusal(`Request headers not allowed: ${extra.join(", ")}.`);
  return undefined;
}

/**
 * The API's CORS options: CORS_ORIGINS may call it from a browser. The options are static (an
 * origin test, not a per-request delegator) because they run on every API request and a
 * delegator's per-request option objects cost about a third of a cheap route's throughput
 * (docs/benchmarks.md).
 */
export function apiCors(origins: readonly string[]): FastifyCorsOptions {
  const allowed = new Set(origins);
  return {
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ALLOWED_METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
    strictPreflight: false,
  };
}

/**
 * An onRequest hook to add before the API's CORS: refuses a preflight the browser would refuse
 * anyway (an origin, method or header not allowed) with a 403 problem that says why.
 */
export function preflightGuard(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (req: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
    const origin = req.headers.origin;
    if (req.method !== "OPTIONS" || origin === undefined) return done();
    done(preflightRefusal(req, origin, allowed));
  };
}

/**
 * Excel on the web, which reads the custom functions' metadata (/addin/functions.json) from the
 * add-in's host with a cross-origin request: its pages are served from officeapps.live.com
 * (excel.officeapps.live.com and its regional twins) and cloud.microsoft.
 */
export const OFFICE_WEB_ORIGIN = /^https:\/\/([a-z0-9-]+\.)+(officeapps\.live\.com|cloud\.microsoft)$/;

export const METADATA_PATH = "/addin/functions.json";

/** The add-in files' CORS: only the metadata is shared, with Office's web origins and CORS_ORIGINS. */
export function metadataCors(origins: readonly string[]): FastifyCorsOptions {
  const allowed = [...origins, OFFICE_WEB_ORIGIN];
  return {
    delegator: (req, cb) => {
      const isMetadata = req.url.split("?")[0] === METADATA_PATH;
      cb(null, { origin: isMetadata && req.headers.origin !== undefined ? allowed : false, methods: ["GET"], preflight: false });
    },
  };
}
