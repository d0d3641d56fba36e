// Headers of every web page: a strict Content-Security-Policy (no inline script or style, no
// framing, forms post only here), and caching that never keeps a page with a key or a CSRF
// token: the account pages are no-store.
import type { FastifyReply, FastifyRequest } from "fastify";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function pageHeaders(secure: boolean) {
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    reply.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    reply.header("X-Frame-Options", "DENY");
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on form
    // posts, which the CSRF check (rightly) refuses.
    reply.header("Referrer-Policy", "same-origin");
    reply.header("Cross-Origin-Opener-Policy", "same-origin");
    reply.header("Cross-Origin-Resource-Policy", "same-origin");
    reply.header("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (secure) reply.header("Strict-Transport-Security", "max-age=31536000");
    const cache = (req.routeOptions.config as { cache?: string } | undefined)?.cache;
    if (cache === "immutable") {
      reply.header("Cache-Control", "public, max-age=31536000, immutable");
    } else if (req.url.startsWith("/account")) {
      // Set after the app-wide ETag hook, which marks every GET "private, no-cache".
      reply.header("Cache-Control", "no-store");
      reply.removeHeader("ETag");
    }
    done(null, payload);
  };
}
