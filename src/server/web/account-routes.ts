// The signed-in pages: keys (create, list, revoke) and usage. Every query is scoped to the
// visitor's own account id, taken from the session, never from the request: a key id from
// another account is simply not found.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { KeyLimitError, MAX_ACTIVE_KEYS } from "../auth/key-store";
import { keysPage, revokePage } from "./keys-page";
import { messagePage } from "./message-page";
import { usagePage } from "./usage-page";
import { type Visitor, type WebContext, checkSessionCsrf, clearSessionCookie, text, visitor } from "./web-context";
import { FORM_EXPIRED } from "./auth-routes";

declare module "fastify" {
  interface FastifyRequest {
    webVisitor?: Visitor;
  }
}

type KeyParams = { Params: { keyId: string } };

export function registerAccountRoutes(app: FastifyInstance, ctx: WebContext): void {
  app.decorateRequest("webVisitor", undefined);
  const send = (reply: FastifyReply, body: string) => reply.type("text/html; charset=utf-8").send(body);
  const signedIn = (v: Visitor) => ({ email: v.account.email, csrf: v.csrf });
  const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

  // Every route here needs a session; POSTs also need the session's CSRF token.
  app.addHook("preHandler", (req, reply, done) => {
    const v = visitor(ctx, req);
    if (!v) {
      clearSessionCookie(ctx, reply);
      const next = req.method === "GET" && (req.url === "/account/usage" || req.url === "/account") ? `?next=${req.url}` : "";
      reply.redirect(`/account/login${next}`, 303);
      return done();
    }
    if (req.method === "POST" && !checkSessionCsrf(ctx, req, v)) {
      send(reply.code(403), messagePage("Form expired", FORM_EXPIRED, signedIn(v)));
      return done();
    }
    req.webVisitor = v;
    done();
  });

  const renderKeys = (req: FastifyRequest, v: Visitor, extra: Partial<Parameters<typeof keysPage>[0]> = {}) =>
    keysPage({
      signedIn: signedIn(v),
      keys: ctx.keys.listKeys(v.account.id),
      maxActive: MAX_ACTIVE_KEYS,
      origin: origin(req),
      ...extra,
    });

  app.get("/account", (req: FastifyRequest<{ Querystring: { revoked?: string } }>, reply) => {
    const v = req.webVisitor!;
    const keys = ctx.keys.listKeys(v.account.id);
    const reveal = ctx.sessions.takeReveal(v.session);
    const created = reveal && { rawKey: reveal.rawKey, summary: keys.find((k) => k.key_id === reveal.keyId) };
    const revoked = keys.find((k) => k.key_id === req.query.revoked && k.revoked_at);
    return send(reply, renderKeys(req, v, { created, revoked }));
  });

  app.post("/account/keys", (req, reply) => {
    const v = req.webVisitor!;
    const name = text(req.body, "name").trim().replace(/\s+/g, " ");
    const again = (status: number, nameError: string) => send(reply.code(status), renderKeys(req, v, { nameValue: name, nameError }));
    if (!name) return again(400, "Name the integration this key is for.");
    if ([...name].length > 100) return again(400, "Use at most 100 characters.");
    let created;
    try {
      created = ctx.keys.createKey(v.account.id, name);
    } catch (err) {
      if (err instanceof KeyLimitError) return again(409, err.message);
      throw err;
    }
    // Post/redirect/get: the key waits, sealed, for the one page view that shows it.
    ctx.sessions.holdReveal(v.session, created.summary.key_id, created.raw);
    return reply.redirect("/account#new-key", 303);
  });

  const activeKey = (v: Visitor, keyId: string) =>
    ctx.keys.listKeys(v.account.id).find((k) => k.key_id === keyId && !k.revoked_at);
  const noSuchKey = (reply: FastifyReply, v: Visitor) =>
    send(reply.code(404), messagePage("No such key", "This account has no active key with that id.", signedIn(v)));

  app.get("/account/keys/:keyId/revoke", (req: FastifyRequest<KeyParams>, reply) => {
    const v = req.webVisitor!;
    const key = activeKey(v, req.params.keyId);
    return key ? send(reply, revokePage(signedIn(v), key)) : noSuchKey(reply, v);
  });

  app.post("/account/keys/:keyId/revoke", (req: FastifyRequest<KeyParams>, reply) => {
    const v = req.webVisitor!;
    // revokeKey matches on key id AND account id: another account's key id changes nothing.
    if (!ctx.keys.revokeKey(v.account.id, req.params.keyId)) return noSuchKey(reply, v);
    return reply.redirect(`/account?revoked=${encodeURIComponent(req.params.keyId)}`, 303);
  });

  app.get("/account/usage", (req, reply) => {
    const v = req.webVisitor!;
    return send(reply, usagePage(signedIn(v), ctx.ledger.usage(v.account.id, 25), ctx.keys.listKeys(v.account.id)));
  });
}
