// The signed-in pages: keys (create, list, revoke) and usage. Every query is scoped to the
// visitor's own account id, taken from the session, never from the request: a key id from
// another account is simply not found.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from "fastify";
import { type ApiKeys, KeyLimitError, MAX_ACTIVE_KEYS } from "../auth/ports";
import type { Credits } from "../credits/ports";
import { FORM_EXPIRED } from "./auth-routes";
import { formText } from "./form-fields";
import { keysPage, revokePage } from "./keys-page";
import { sendPage } from "./layout";
import { messagePage } from "./message-page";
import { usagePage } from "./usage-page";
import type { Visitor } from "./visitors";

/** What the usage page reads: the credits store's usage (the same instance that charges calls). */
export type UsageSource = Pick<Credits, "usage">;

export interface AccountRoutesOptions {
  keys: ApiKeys;
  ledger: UsageSource;
}

type KeyParams = { Params: { keyId: string } };

export const accountRoutes: FastifyPluginCallback<AccountRoutesOptions> = (app, { keys, ledger }, done) => {
  const { visitors, sessions } = app;
  const signedIn = (v: Visitor) => ({ email: v.account.email, csrf: v.csrf });
  const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

  // Every route here needs a session; POSTs also need the session's CSRF token.
  app.addHook("preHandler", async (req, reply) => {
    const v = req.visitor;
    if (!v) {
      await visitors.signOut(reply);
      const back = req.method === "GET" && (req.url === "/account/usage" || req.url === "/account") ? `?next=${req.url}` : "";
      return reply.redirect(`/account/login${back}`, 303);
    }
    if (req.method === "POST" && !visitors.checkSessionToken(req, v)) {
      return sendPage(reply.code(403), messagePage("Form expired", FORM_EXPIRED, signedIn(v)));
    }
  });

  const renderKeys = async (req: FastifyRequest, v: Visitor, extra: Partial<Parameters<typeof keysPage>[0]> = {}) =>
    keysPage({
      signedIn: signedIn(v),
      keys: await keys.listKeys(v.account.id),
      maxActive: MAX_ACTIVE_KEYS,
      origin: origin(req),
      ...extra,
    });

  app.get("/account", async (req: FastifyRequest<{ Querystring: { revoked?: string } }>, reply) => {
    const v = req.visitor!;
    const listed = await keys.listKeys(v.account.id);
    const reveal = await sessions.takeReveal(v.session);
    const created = reveal && { rawKey: reveal.rawKey, summary: listed.find((k) => k.key_id === reveal.keyId) };
    const revoked = listed.find((k) => k.key_id === req.query.revoked && k.revoked_at);
    return sendPage(reply, await renderKeys(req, v, { created, revoked }));
  });

  app.post("/account/keys", async (req, reply) => {
    const v = req.visitor!;
    const name = formText(req.body, "name").trim().replace(/\s+/g, " ");
    const again = async (status: number, nameError: string) =>
      sendPage(reply.code(status), await renderKeys(req, v, { nameValue: name, nameError }));
    if (!name) return again(400, "Name the integration this key is for.");
    if ([...name].length > 100) return again(400, "Use at most 100 characters.");
    let created;
    try {
      created = await keys.createKey(v.account.id, name);
    } catch (err) {
      if (err instanceof KeyLimitError) return again(409, err.message);
      throw err;
    }
    // Post/redirect/get: the key waits, sealed, for the one page view that shows it.
    await sessions.holdReveal(v.session, created.summary.key_id, created.raw);
    return reply.redirect("/account#new-key", 303);
  });

  const activeKey = async (v: Visitor, keyId: string) =>
    (await keys.listKeys(v.account.id)).find((k) => k.key_id === keyId && !k.revoked_at);
  const noSuchKey = (reply: FastifyReply, v: Visitor) =>
    sendPage(reply.code(404), messagePage("No such key", "This account has no active key with that id.", signedIn(v)));

  app.get("/account/keys/:keyId/revoke", async (req: FastifyRequest<KeyParams>, reply) => {
    const v = req.visitor!;
    const key = await activeKey(v, req.params.keyId);
    return key ? sendPage(reply, revokePage(signedIn(v), key)) : noSuchKey(reply, v);
  });

  app.post("/account/keys/:keyId/revoke", async (req: FastifyRequest<KeyParams>, reply) => {
    const v = req.visitor!;
    // revokeKey matches on key id AND account id: another account's key id changes nothing.
    if (!(await keys.revokeKey(v.account.id, req.params.keyId))) return noSuchKey(reply, v);
    return reply.redirect(`/account?revoked=${encodeURIComponent(req.params.keyId)}`, 303);
  });

  app.get("/account/usage", async (req, reply) => {
    const v = req.visitor!;
    return sendPage(reply, usagePage(signedIn(v), await ledger.usage(v.account.id, 25), await keys.listKeys(v.account.id)));
  });
  done();
};
