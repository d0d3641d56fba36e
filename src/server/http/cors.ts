// CORS for the API, as wide as the add-in needs and no wider. The add-in normally calls the
// service it was loaded from (same origin, no CORS at all); when it is hosted on another
// origin (a development server, a company's own host), that origin must be listed in
// CORS_ORIGINS. Only /v1/ is open to those origins: the account pages never are. No cookies
// cross origins (API calls carry a bearer key), so credentials are never allowed. Besides,
// Excel on the web reads the functions' metadata file cross-origin, and may.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiProblem, sendProblem } from "./problem";

/** What a page on an allowed origin may read from an answer. */
export const EXPOSED_HEADERS = [
  "X-Request-Id",
  "X-Credits-Plan",
  "X-Credits-Limit",
  "X-Credits-Remaining",
  "X-Credits-Charged",
  "X-Credits-Reset",
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "ETag",
].join(", ");

const ALLOWED_METHODS = ["GET", "POST"];
const ALLOWED_HEADERS = ["authorization", "content-type", "if-none-match"];
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

/** Adds the CORS headers to an answer; call it for every request (it is a no-op without Origin). */
export function corsResponder(origins: readonly string[]) {
  const allowed = new Set(origins);
  return function applyCors(req: FastifyRequest, reply: FastifyReply): void {
    const origin = req.headers.origin;
    if (origin === undefined || !req.url.startsWith("/v1/")) return;
    reply.header("Vary", "Origin");
    if (allowed.has(origin)) {
      reply.header("Access-Control-Allow-Origin", origin);
      reply.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
  };
}

/**
 * Excel on the web, which reads the custom functions' metadata (/addin/functions.json) from the
 * add-in's host with a cross-origin request: its pages are served from officeapps.live.com
 * (excel.officeapps.live.com and its regional twins) and cloud.microsoft.
 */
export const OFFICE_WEB_ORIGIN = /^https:\/\/([a-z0-9-]+\.)+(officeapps\.live\.com|cloud\.microsoft)$/;

/** The one add-in file another origin must read: the metadata, to Office's web origins and CORS_ORIGINS. */
export function metadataCorsResponder(origins: readonly string[]) {
  const allowed = new Set(origins);
  return function applyMetadataCors(req: FastifyRequest, reply: FastifyReply): void {
    const origin = req.headers.origin;
    if (origin === undefined || req.url.split("?")[0] !== "/addin/functions.json") return;
    reply.header("Vary", "Origin");
    if (allowed.has(origin) || OFFICE_WEB_ORIGIN.test(origin)) reply.header("Access-Control-Allow-Origin", origin);
  };
}

/** Preflights: a browser asks before sending Authorization or a JSON body cross-origin. */
export function registerPreflight(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins);
  app.options("/v1/*", (req, reply) => {
    const origin = req.headers.origin;
    const method = String(req.headers["access-control-request-method"] ?? "").toUpperCase();
    const wanted = String(req.headers["access-control-request-headers"] ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    const refuse = (detail: string) =>
      sendProblem(req, reply, new ApiProblem(403, "origin_not_allowed", detail, undefined, {}, { Vary: "Origin" }));
    if (typeof origin !== "string" || !allowed.has(origin)) {
      return refuse(`Origin '${origin ?? "(none)"}' may not call this API from a browser. The operator lists allowed origins in CORS_ORIGINS.`);
    }
    if (!ALLOWED_METHODS.includes(method)) return refuse(`Method '${method}' is not used by this API.`);
    const extra = wanted.filter((h) => !ALLOWED_HEADERS.includes(h));
    if (extra.length) return refuse(`Request headers not allowed: ${extra.join(", ")}.`);
    return reply
      .code(204)
      .header("Access-Control-Allow-Origin", origin)
      .header("Access-Control-Allow-Methods", ALLOWED_METHODS.join(", "))
      .header("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match")
      .header("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_S))
      .header("Vary", "Origin")
      .send();
  });
}
