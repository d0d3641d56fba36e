// The headers of every page and file of the account area.
//
// Security headers come from helmet: a strict Content-Security-Policy (scripts and styles only
// from files of this service, no inline script or style, no framing, forms post only here, no
// fetches), X-Frame-Options DENY for browsers without frame-ancestors, and HSTS when the service
// is reached over HTTPS. A route may widen the policy for itself only (the API reference page
// fetches the OpenAPI document: see pageCsp).
//
// Caching: a page is never stored (pages carry CSRF tokens, and once a new API key); the
// pages' own files are cached for a year under names that change with their content.
import type { FastifyHelmetOptions } from "@fastify/helmet";
import type { FastifyReply, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** "immutable": the answer never changes under this URL (a content-hashed asset). */
    cache?: "immutable";
  }
}

const DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/** The Content-Security-Policy of the pages, with `extra` sources for one route's own needs. */
export function pageCsp(extra: Partial<Record<keyof typeof DIRECTIVES | "connectSrc", string[]>> = {}) {
  return { useDefaults: false, directives: { ...DIRECTIVES, ...extra } };
}

export function helmetOptions(secure: boolean): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: pageCsp(),
    xFrameOptions: { action: "deny" },
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on form
    // posts, which the CSRF check (rightly) refuses.
    referrerPolicy: { policy: "same-origin" },
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    strictTransportSecurity: secure ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  };
}

/** What helmet does not set: the browser features no page uses, and caching (onSend hook). */
export function pageHeaders(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) {
  reply.header("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (req.routeOptions.config?.cache === "immutable") {
    reply.header("Cache-Control", "public, max-age=31536000, immutable");
  } else if (String(reply.getHeader("content-type") ?? "").startsWith("text/html")) {
    reply.header("Cache-Control", "no-store");
  }
  done(null, payload);
}
