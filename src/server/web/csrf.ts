// CSRF protection for every form, two independent checks:
// 1. A synchronizer token in each form: an HMAC of the session id (or, before log-in, of a
//    random pre-session cookie), so a page on another site cannot know it.
// 2. The browser's own word on where a POST came from: `Sec-Fetch-Site` must say same-origin
//    or, from browsers that do not send it, `Origin` must name this host. The host is compared, not the
//    scheme, so a TLS-terminating proxy in front of the service does not break the forms.
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";

export class CsrfGuard {
  private readonly secret: Buffer;

  constructor(pepper: Buffer) {
    // Derived, so the key-hash pepper itself is never used for a second purpose.
    this.secret = crypto.createHmac("sha256", pepper).update("propintel web csrf v1").digest();
  }

  token(binding: string): string {
    return crypto.createHmac("sha256", this.secret).update(binding).digest("base64url");
  }

  /** True when the POST carries the token for `binding` and comes from this site. */
  check(req: FastifyRequest, binding: string | undefined, submitted: unknown): boolean {
    if (!binding || typeof submitted !== "string" || !sameSite(req)) return false;
    const expected = Buffer.from(this.token(binding));
    const given = Buffer.from(submitted);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
}

function sameSite(req: FastifyRequest): boolean {
  // Sec-Fetch-Site is set by the browser and cannot be forged by a page: when present it decides.
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin" || site === "none";
  const origin = req.headers.origin;
  if (origin === undefined) return true; // older browsers and non-browser clients: the token decides
  try {
    // Parsed with the origin's scheme, so "localhost:80" and "http://localhost" agree.
    const from = new URL(origin);
    return from.host === new URL(`${from.protocol}//${req.headers.host}`).host;
  } catch {
    return false; // "null" (sandboxed frames, some redirects) and anything unparsable
  }
}

export const sessionBinding = (sessionId: string) => `session:${sessionId}`;
export const preSessionBinding = (nonce: string) => `pre:${nonce}`;
