// The web account area in one registration: sign-up, log-in and log-out, the API keys page,
// the usage page, the home page and the readable API reference. Server-rendered HTML, one
// stylesheet, one small script.
import type Database from "better-sqlite3";
import type { FastifyError, FastifyInstance } from "fastify";
import type { KeyStore } from "../auth/key-store";
import { registerAccountRoutes } from "./account-routes";
import { authLimiters } from "./attempt-limiter";
import { registerAuthRoutes } from "./auth-routes";
import { CsrfGuard } from "./csrf";
import { messagePage } from "./message-page";
import { registerPublicPages } from "./public-pages";
import { prepareDummyHash } from "./passwords";
import { pageHeaders } from "./security-headers";
import { SessionStore } from "./sessions";
import { registerAssets } from "./static-assets";
import type { UsageSource, WebContext } from "./web-context";

export interface AccountAreaOptions {
  keys: KeyStore;
  accountsDb: Database.Database;
  /** The CreditLedger that charges API calls (the same instance, so usage is exact). */
  ledger: UsageSource;
  /** The server secret; the CSRF key is derived from it. */
  pepper: Buffer;
  /** The OpenAPI document, rendered as the readable API reference. */
  openapi: Record<string, any>;
  now?: () => Date;
  /** Mark cookies Secure (and use __Host- names): set when users reach the service over HTTPS. */
  secureCookies?: boolean;
  /** The documentation folder, for the function reference page (/docs/functions). */
  docsDir?: string;
}

/** Form bodies: small, and the first value of a repeated field wins. */
const FORM_LIMIT = 16 * 1024;
function parseForm(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(body)) if (!(k in out)) out[k] = v;
  return out;
}

export function registerAccountArea(app: FastifyInstance, opts: AccountAreaOptions): void {
  const now = opts.now ?? (() => new Date());
  const ctx: WebContext = {
    keys: opts.keys,
    accounts: opts.keys.accounts,
    sessions: new SessionStore(opts.accountsDb, now),
    csrf: new CsrfGuard(opts.pepper),
    limiters: authLimiters(() => now().getTime()),
    ledger: opts.ledger,
    secureCookies: opts.secureCookies ?? false,
  };

  // Encapsulated: the form parser, headers and HTML error pages apply to these pages only; the
  // API keeps answering problem+json and refusing non-JSON bodies.
  app.register(async (web) => {
    web.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: FORM_LIMIT }, (_req, body, done) =>
      done(null, parseForm(body as string)),
    );
    web.addHook("onSend", pageHeaders(ctx.secureCookies));
    web.addHook("onReady", prepareDummyHash);
    web.setErrorHandler((err: FastifyError, req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 500) req.log.error({ err }, "web page failed");
      const [title, message] =
        status === 500
          ? ["Something went wrong", "Something went wrong on our side. Please try again in a moment."]
          : status === 413
            ? ["Form too large", "That form was larger than we accept."]
            : ["Request not understood", "The form could not be read. Go back, reload the page and try again."];
      return reply.code(status).type("text/html; charset=utf-8").send(messagePage(title, message, undefined, String(req.id)));
    });
    web.register(async (account) => {
      account.setNotFoundHandler((req, reply) =>
        reply.code(404).type("text/html; charset=utf-8").send(messagePage("Page not found", "There is no page at this address.")),
      );
    }, { prefix: "/account" });

    registerAssets(web);
    registerPublicPages(web, ctx, opts.openapi, opts.docsDir);
    registerAuthRoutes(web, ctx);
    web.register(async (signedIn) => registerAccountRoutes(signedIn, ctx));
  });
}
