// The account area as one encapsulated Fastify plugin: the home page, sign-up, log-in and
// log-out, the API keys and usage pages, the function reference and the interactive API
// reference. Server-rendered HTML, one stylesheet, two small scripts.
//
// Its hooks apply to these pages only: cookies (@fastify/cookie), security headers
// (@fastify/helmet), form bodies (@fastify/formbody), the visitor's session, and HTML error
// pages. The API keeps answering problem+json and refusing form bodies.
//
// Kept by hand, because they do more than a plugin would:
// - sessions.ts: only a SHA-256 of each session id is stored, so a copy of the database logs
//   no one in (@fastify/session stores the id itself), and a new key waits sealed for its one display;
// - csrf.ts: a token bound to the session or the pre-session cookie AND the browser's own
//   Sec-Fetch-Site/Origin, checked on every form post (@fastify/csrf-protection checks a token only);
// - attempt-limiter.ts: limits per IP and per email with a reset on success, on the forms
//   only (@fastify/rate-limit counts requests per route and key, not failed log-ins per email).
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import helmet from "@fastify/helmet";
import type { FastifyPluginCallback } from "fastify";
import type { Accounts, ApiKeys, AuthLimits, Sessions } from "../auth/ports";
import { type UsageSource, accountRoutes } from "./account-routes";
import { apiReferencePage } from "./api-reference-page";
import { authRoutes } from "./auth-routes";
import { CsrfGuard } from "./csrf";
import { htmlErrorPages } from "./error-pages";
import { helmetOptions, pageHeaders } from "./page-headers";
import { prepareDummyHash } from "./passwords";
import { publicPages } from "./public-pages";
import { staticAssets } from "./static-assets";
import { type Visitor, Visitors } from "./visitors";

declare module "fastify" {
  // Decorated on the account area's instance only.
  interface FastifyInstance {
    sessions: Sessions;
    visitors: Visitors;
    authLimiters: AuthLimits;
  }
  interface FastifyRequest {
    /** The signed-in visitor of a page, or null (set by the account area's preHandler hook). */
    visitor: Visitor | null;
  }
}

export interface AccountAreaOptions {
  /** The accounts, for sign-up, log-in and the pages' owner. */
  accounts: Accounts;
  /** The API keys (the same store instance the API checks keys with). */
  keys: ApiKeys;
  /** The CreditLedger that charges API calls (the same instance, so usage is exact). */
  ledger: UsageSource;
  /** Log-in sessions, in the accounts store. */
  sessions: Sessions;
  /** The sign-up and log-in attempt limits. */
  authLimits: AuthLimits;
  /** The server secret; the CSRF key is derived from it. */
  pepper: Buffer;
  /** Mark cookies Secure (and use __Host- names), and send HSTS: set when users reach the service over HTTPS. */
  secureCookies?: boolean;
  /** The documentation folder, for the function reference page (/docs/functions). */
  docsDir?: string;
}

/** Form bodies are small: two fields and a token. */
const FORM_BODY_LIMIT = 16 * 1024;

export const accountArea: FastifyPluginCallback<AccountAreaOptions> = (web, opts, done) => {
  const secure = opts.secureCookies ?? false;
  web.decorate("sessions", opts.sessions);
  web.decorate("visitors", new Visitors(opts.sessions, opts.accounts, new CsrfGuard(opts.pepper), secure));
  web.decorate("authLimiters", opts.authLimits);
  web.decorateRequest("visitor", null);

  web.register(cookie);
  web.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
  web.register(helmet, helmetOptions(secure));
  web.addHook("onSend", pageHeaders);
  web.addHook("onReady", prepareDummyHash);
  web.addHook("preHandler", async (req) => {
    if (!req.url.startsWith("/assets/")) req.visitor = await web.visitors.find(req);
  });
  htmlErrorPages(web);

  web.register(staticAssets);
  web.register(publicPages, { docsDir: opts.docsDir });
  web.register(apiReferencePage);
  web.register(authRoutes, { accounts: opts.accounts });
  web.register(accountRoutes, { keys: opts.keys, ledger: opts.ledger });
  done();
};
