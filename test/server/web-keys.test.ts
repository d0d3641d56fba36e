// The API keys page: a key shown once, the list, the cap, revocation, and one account never
// seeing or touching another's keys or usage.
import { MAX_ACTIVE_KEYS } from "../../src/server/auth/ports";
import { parseKey } from "../../src/contract/api-key-format";
import { PASSWORD, csrfOf, shownKey, startWebService, type WebClient } from "./web-client";

let svc: Awaited<ReturnType<typeof startWebService>>;
beforeEach(async () => {
  svc = await startWebService();
});
afterEach(() => svc.app.close());

async function signedUp(email: string): Promise<WebClient> {
  const c = svc.client();
  expect((await c.signUp(email, PASSWORD)).statusCode).toBe(303);
  return c;
}
const accountId = (email: string) => svc.accounts.findByEmail(email)!.id;

describe("creating a key", () => {
  test("the key is shown once, after a redirect, and works; a reload shows it no more", async () => {
    const c = await signedUp("me@example.com");
    const page = await c.get("/account");
    const res = await c.post("/account/keys", { csrf: csrfOf(page.body), name: "Underwriting model" });
    expect(res.statusCode).toBe(303);
    expect(res.body).not.toContain("propi_");
    // Until it is displayed, the key waits sealed: not readable from the database.
    const row = JSON.stringify(svc.accountsDb.prepare("SELECT reveal_sealed FROM web_sessions").all());
    expect(row).not.toContain("propi_");

    const shown = await c.get("/account");
    expect(shown.headers["cache-control"]).toBe("no-store");
    const key = shownKey(shown.body)!;
    expect(parseKey(key)).not.toBeNull();
    expect(shown.body).toContain("It cannot be shown again");
    expect(shown.body).toMatch(/<button type="button" data-copy-target="new-key-value"[^>]*>Copy<\/button>/);
    expect(shown.body).toMatch(/<script src="\/assets\/copy-key-[0-9a-f]{10}\.js" defer><\/script>/);
    expect(svc.keys.verify(key)?.accountId).toBe(accountId("me@example.com"));
    expect((await svc.api(key)).statusCode).toBe(200);

    const reload = await c.get("/account");
    expect(shownKey(reload.body)).toBeUndefined();
    expect(reload.body).not.toContain(key.slice(24, -4));
    // The list: name, key id, last characters, created, last used; never the secret.
    const { keyId } = parseKey(key)!;
    expect(reload.body).toContain("<td>Underwriting model</td>");
    expect(reload.body).toContain(`<code>${keyId}</code>`);
    expect(reload.body).toContain(`<code>…${key.slice(-4)}</code>`);
    expect(reload.body).toContain("2026-11-10 12:00 UTC"); // created and, after the API call, last used
    expect(reload.body.match(/2026-11-10 12:00 UTC/g)).toHaveLength(2);
    expect(svc.accountsDb.prepare("SELECT count(*) FROM web_sessions WHERE reveal_sealed IS NOT NULL").pluck().get()).toBe(0);
  });

  test("a key waiting for display more than 5 minutes is not shown", async () => {
    const c = await signedUp("me@example.com");
    const page = await c.get("/account");
    await c.post("/account/keys", { csrf: csrfOf(page.body), name: "late" });
    svc.advance(5 * 60 * 1000 + 1);
    expect(shownKey((await c.get("/account")).body)).toBeUndefined();
    expect(svc.keys.listKeys(accountId("me@example.com"))).toHaveLength(1); // created, just not shown
  });

  test("a name is required and at most 100 characters; errors are tied to the field", async () => {
    const c = await signedUp("me@example.com");
    for (const [name, message] of [
      ["   ", "Name the integration this key is for."],
      ["x".repeat(101), "Use at most 100 characters."],
    ]) {
      const res = await c.submit("/account", "/account/keys", { name });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(`<p class="field-error" id="name-error">${message}</p>`);
      expect(res.body).toMatch(/id="name"[^>]*aria-describedby="name-error name-hint"[^>]*aria-invalid="true"/);
    }
    expect(svc.keys.listKeys(accountId("me@example.com"))).toHaveLength(0);
  });

  test(`at most ${MAX_ACTIVE_KEYS} active keys; revoking one makes room`, async () => {
    const c = await signedUp("me@example.com");
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await c.createKey(`key ${i}`);
    const refused = await c.submit("/account", "/account/keys", { name: "one too many" });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain(`This account already has ${MAX_ACTIVE_KEYS} active keys, the most allowed.`);
    expect(refused.body).toContain(`${MAX_ACTIVE_KEYS} of ${MAX_ACTIVE_KEYS} active keys in use.`);
    const first = svc.keys.listKeys(accountId("me@example.com"))[0];
    await c.submit(`/account/keys/${first.key_id}/revoke`, `/account/keys/${first.key_id}/revoke`, {});
    expect(shownKey((await c.get("/account")).body)).toBeUndefined();
    expect(parseKey(await c.createKey("after revoking"))).not.toBeNull();
  });
});

describe("revoking a key", () => {
  test("asks first, then the very next API request with the key gets 401", async () => {
    const c = await signedUp("me@example.com");
    const key = await c.createKey("to revoke");
    const { keyId } = parseKey(key)!;
    expect((await svc.api(key)).statusCode).toBe(200);
    const confirm = await c.get(`/account/keys/${keyId}/revoke`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain("stops working at once");
    const res = await c.post(`/account/keys/${keyId}/revoke`, { csrf: csrfOf(confirm.body) });
    expect(res.statusCode).toBe(303);
    expect((await svc.api(key)).statusCode).toBe(401);
    const list = await c.get(res.headers.location as string);
    expect(list.body).toContain("is revoked. Requests with it are refused from now on.");
    expect(list.body).toMatch(/Revoked 2026-11-10 12:00 UTC/);
    // Revoking twice finds no active key.
    expect((await c.submit("/account", `/account/keys/${keyId}/revoke`, {})).statusCode).toBe(404);
  });
});

describe("two accounts", () => {
  test("one account never sees, revokes or reads the usage of another's keys", async () => {
    const alice = await signedUp("alice@example.com");
    const bob = await signedUp("bob@example.com");
    const aliceKey = await alice.createKey("Alice's secret model");
    const { keyId } = parseKey(aliceKey)!;
    expect((await svc.api(aliceKey, "/v1/commercial/properties?limit=1")).statusCode).toBe(200);

    const bobPage = await bob.get("/account");
    expect(bobPage.body).not.toContain(keyId);
    expect(bobPage.body).not.toContain("Alice");
    expect(bobPage.body).toContain("No keys yet.");
    expect((await bob.get(`/account/keys/${keyId}/revoke`)).statusCode).toBe(404);
    // A forged revoke with Bob's own valid session and CSRF token.
    const forged = await bob.post(`/account/keys/${keyId}/revoke`, { csrf: csrfOf(bobPage.body) });
    expect(forged.statusCode).toBe(404);
    expect(svc.keys.listKeys(accountId("alice@example.com"))[0].revoked_at).toBeNull();
    expect((await svc.api(aliceKey)).statusCode).toBe(200);

    const bobUsage = await bob.get("/account/usage");
    expect(bobUsage.body).toContain("No metered calls yet.");
    expect(bobUsage.body).toMatch(/id="credits-used">0</);
    expect(bobUsage.body).not.toContain(keyId);
    const aliceUsage = await alice.get("/account/usage");
    expect(aliceUsage.body).toMatch(/id="credits-used">1</);
    expect(aliceUsage.body).toContain(keyId);
  });
});

describe("escaping", () => {
  test("names and emails are shown as text, never as markup", async () => {
    const email = `x"><img/src=x/onerror=alert(1)>@example.com`;
    const c = await signedUp(email);
    await c.createKey(`<script>alert("k")</script> & 'co'`);
    for (const url of ["/account", "/account/usage", `/account/keys/${svc.keys.listKeys(accountId(email))[0].key_id}/revoke`]) {
      const body = (await c.get(url)).body;
      expect(body).not.toContain("<img/src=x");
      expect(body).not.toContain("<script>alert");
      expect(body).toContain("x&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;@example.com");
    }
    const keys = (await c.get("/account")).body;
    expect(keys).toContain("&lt;script&gt;alert(&quot;k&quot;)&lt;/script&gt; &amp; &#39;co&#39;");
    // A re-rendered form echoes the typed email escaped too.
    const again = await svc.client().signUp(`a"b<@example.com`, "short");
    expect(again.body).toContain(`value="a&quot;b&lt;@example.com"`);
  });
});

describe("pages", () => {
  test("strict headers; no inline script or style anywhere; account pages are never cached", async () => {
    const c = await signedUp("me@example.com");
    await c.createKey("k");
    const anonymous = svc.client();
    for (const url of ["/", "/docs/api", "/account/signup", "/account/login", "/account", "/account/usage", "/account/nothing-here"]) {
      const signedOutPage = url === "/account/signup" || url === "/account/login"; // signed in, they redirect
      const res = await (signedOutPage ? anonymous : c).get(url);
      expect(res.statusCode).toBe(url.endsWith("nothing-here") ? 404 : 200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("same-origin");
      expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/); // every script is a file
      expect(res.body).not.toMatch(/\sstyle=|<style|\son[a-z]+=/i);
      if (url.startsWith("/account")) {
        expect(res.headers["cache-control"]).toBe("no-store");
        expect(res.headers.etag).toBeUndefined();
      }
    }
    expect((await c.get("/account/nothing-here")).statusCode).toBe(404);
    const css = await c.get(/href="(\/assets\/site-[0-9a-f]+\.css)"/.exec((await c.get("/")).body)![1]);
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.headers["cache-control"]).toContain("immutable");
  });

  test("the API still refuses form bodies with 415 problem+json", async () => {
    const res = await svc.app.inject({
      method: "POST",
      url: "/v1/commercial/properties/compare",
      payload: "property_ids=a",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Bearer ${svc.keys.createKey(svc.accounts.create("k@example.com").id, "k").raw}`,
      },
    });
    expect(res.statusCode).toBe(415);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });
});
