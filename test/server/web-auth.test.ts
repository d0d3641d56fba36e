// Sign-up, log-in, log-out, sessions, CSRF and the sign-up/log-in rate limits of the web pages.
import { WRONG_CREDENTIALS } from "../../src/server/web/auth-routes";
import { PASSWORD, csrfOf, startWebService } from "./web-client";

let svc: Awaited<ReturnType<typeof startWebService>>;
beforeEach(async () => {
  svc = await startWebService();
});
afterEach(() => svc.app.close());

const HOUR = 60 * 60 * 1000;
const fieldError = (body: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(body)?.[1];

describe("sign-up", () => {
  test("creates an Explorer account, logs in with an HttpOnly SameSite cookie, stores only a scrypt hash", async () => {
    const c = svc.client();
    const form = await c.get("/account/signup");
    expect(form.statusCode).toBe(200);
    expect(form.body).toMatch(/<label for="email">Email<\/label>/);
    expect(form.body).toMatch(/<label for="password">Password<\/label>/);
    expect(form.body).toContain("No card needed");
    const res = await c.post("/account/signup", { csrf: csrfOf(form.body), email: "New.User@Example.com", password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/account");
    const cookie = ([] as string[]).concat(res.headers["set-cookie"] as string[]).find((s) => s.startsWith("pi_session="))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP by default; secureCookies turns it on

    const page = await c.get("/account");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("New.User@Example.com");
    const account = svc.accounts.findByEmail("new.user@example.com")!;
    expect(account.plan).toBe("explorer");
    const stored = svc.accountsDb.prepare("SELECT hash FROM account_passwords WHERE account_id = ?").pluck().get(account.id) as string;
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(JSON.stringify(svc.accountsDb.prepare("SELECT * FROM account_passwords").all())).not.toContain("horse");
    // The session id is stored as a hash only.
    const sessionId = c.cookies.get("pi_session")!;
    const dump = svc.accountsDb.prepare("SELECT hex(id_hash) h FROM web_sessions").pluck().all().join();
    expect(dump).not.toContain(Buffer.from(sessionId).toString("hex").toUpperCase());
    expect(svc.accountsDb.prepare("SELECT count(*) FROM web_sessions").pluck().get()).toBe(1);
  });

  test("two sign-ups with one password get different salts", async () => {
    await svc.client().signUp("a@example.com", PASSWORD);
    await svc.client().signUp("b@example.com", PASSWORD);
    const hashes = svc.accountsDb.prepare("SELECT hash FROM account_passwords").pluck().all() as string[];
    expect(hashes).toHaveLength(2);
    expect(hashes[0].split("$")[4]).not.toBe(hashes[1].split("$")[4]);
  });

  test.each([
    ["", PASSWORD, "email", "Enter your email address."],
    ["not-an-email", PASSWORD, "email", "Enter an email address like name@example.com."],
    ["ok@example.com", "short", "password", "Use at least 12 characters (you have 5)."],
    ["ok@example.com", "x".repeat(129), "password", "Use at most 128 characters."],
    ["analyst@example.com", "analyst-password-2026", "password", "Don&#39;t use your email address in your password."],
    ["ok@example.com", "abababababababab", "password", "Use a password with more than three different characters."],
    ["ok@example.com", "abcdabcdabcdabcd", "password", "Don&#39;t use a short pattern repeated."],
  ])("refuses email %j / password %j with an error tied to the %s field", async (email, password, fieldId, message) => {
    const c = svc.client();
    const res = await c.signUp(email, password);
    expect(res.statusCode).toBe(400);
    expect(fieldError(res.body, fieldId)).toBe(message);
    expect(res.body).toMatch(new RegExp(`id="${fieldId}"[^>]*aria-describedby="${fieldId}-error[^>]*aria-invalid="true"`));
    expect(res.body).not.toContain(password.length > 3 ? `value="${password}"` : 'value="short"'); // never echoed
    expect(svc.accountsDb.prepare("SELECT count(*) FROM accounts").pluck().get()).toBe(0);
  });

  test("an email already registered (in any letter case) is refused, and the account is untouched", async () => {
    await svc.client().signUp("taken@example.com", PASSWORD);
    const res = await svc.client().signUp("TAKEN@example.com", "another good password");
    expect(res.statusCode).toBe(400);
    expect(fieldError(res.body, "email")).toBe("An account with this email already exists. Log in instead.");
    expect(svc.accountsDb.prepare("SELECT count(*) FROM accounts").pluck().get()).toBe(1);
    expect((await svc.client().logIn("taken@example.com", PASSWORD)).statusCode).toBe(303);
  });
});

describe("log-in", () => {
  test("logs in with the right password (email in any case) and starts a fresh session", async () => {
    await svc.client().signUp("me@example.com", PASSWORD);
    const c = svc.client();
    const res = await c.logIn("ME@example.com", PASSWORD);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/account");
    expect((await c.get("/account")).body).toContain("me@example.com");
    expect(svc.accountsDb.prepare("SELECT count(*) FROM web_sessions").pluck().get()).toBe(2);
  });

  test("unknown email, wrong password and an account without a password get the same answer", async () => {
    await svc.client().signUp("me@example.com", PASSWORD);
    svc.accounts.create("cli@example.com"); // made by the admin command: no password yet
    const answers = [];
    for (const [email, password] of [
      ["nobody@example.com", PASSWORD],
      ["me@example.com", "wrong password entirely"],
      ["cli@example.com", PASSWORD],
    ]) {
      const res = await svc.client().logIn(email, password);
      answers.push({
        status: res.statusCode,
        body: res.body.replace(/name="csrf" value="[^"]+"/, "").replace(/value="[^"]*@example.com"/, ""),
      });
      expect(res.body).toContain(`<div class="alert error" role="alert">${WRONG_CREDENTIALS}</div>`);
      expect(res.headers["set-cookie"] ?? "").not.toMatch(/pi_session=[^;]/);
    }
    expect(answers[0].status).toBe(401);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });

  test("a log-in page reached from a signed-out page returns there, and nowhere off-site", async () => {
    await svc.client().signUp("me@example.com", PASSWORD);
    const c = svc.client();
    const bounce = await c.get("/account/usage");
    expect(bounce.statusCode).toBe(303);
    expect(bounce.headers.location).toBe("/account/login?next=/account/usage");
    const page = await c.get("/account/login?next=/account/usage");
    const res = await c.post("/account/login", {
      csrf: csrfOf(page.body),
      email: "me@example.com",
      password: PASSWORD,
      next: "/account/usage",
    });
    expect(res.headers.location).toBe("/account/usage");
    const c2 = svc.client();
    const page2 = await c2.get("/account/login");
    const res2 = await c2.post("/account/login", {
      csrf: csrfOf(page2.body),
      email: "me@example.com",
      password: PASSWORD,
      next: "https://evil.example/",
    });
    expect(res2.headers.location).toBe("/account");
  });
});

describe("sessions", () => {
  test("log-out ends the session on the server: the old cookie no longer works", async () => {
    const c = svc.client();
    await c.signUp("me@example.com", PASSWORD);
    const oldCookie = c.cookies.get("pi_session")!;
    const page = await c.get("/account");
    const out = await c.post("/account/logout", { csrf: csrfOf(page.body) });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe("/account/login?bye=1");
    expect(c.cookies.has("pi_session")).toBe(false);
    expect((await c.get("/account/login?bye=1")).body).toContain("You have logged out.");
    c.cookies.set("pi_session", oldCookie);
    const again = await c.get("/account");
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toMatch(/^\/account\/login/);
    expect(svc.accountsDb.prepare("SELECT count(*) FROM web_sessions").pluck().get()).toBe(0);
  });

  test("a session ends after 12 idle hours, and 7 days after log-in however busy", async () => {
    const idle = svc.client();
    await idle.signUp("idle@example.com", PASSWORD);
    const busy = svc.client();
    await busy.signUp("busy@example.com", PASSWORD);
    let elapsed = 0;
    const step = async (ms: number) => {
      svc.advance(ms);
      elapsed += ms;
      return (await busy.get("/account")).statusCode;
    };
    expect(await step(11 * HOUR)).toBe(200);
    expect((await idle.get("/account")).statusCode).toBe(200); // 11 h idle: still in
    expect(await step(6 * HOUR)).toBe(200);
    expect(await step(6 * HOUR + 1000)).toBe(200);
    expect((await idle.get("/account")).statusCode).toBe(303); // 12 h and a second idle: out
    // busy: a request every 11 hours keeps it alive until the 7-day cap.
    while (elapsed + 11 * HOUR < 7 * 24 * HOUR) expect(await step(11 * HOUR)).toBe(200);
    expect(await step(7 * 24 * HOUR - elapsed + 1000)).toBe(303);
  });

  test("Secure, __Host- cookies when the service is configured for HTTPS", async () => {
    const { app } = await startWebService(undefined, { secureCookies: true });
    const page = await app.inject({ method: "GET", url: "/account/signup" });
    const [pair, ...attributes] = String(page.headers["set-cookie"]).split("; ");
    expect(pair).toMatch(/^__Host-pi_presession=[\w-]+$/);
    expect(attributes.sort()).toEqual(["HttpOnly", expect.stringMatching(/^Max-Age=\d+$/), "Path=/", "SameSite=Lax", "Secure"]);
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=/);
    // The session cookie a sign-up sets is one too.
    const { WebClient } = await import("./web-client");
    const signUp = await new WebClient(app).signUp("secure@example.com", PASSWORD);
    expect(signUp.statusCode).toBe(303);
    const session = ([] as string[]).concat(signUp.headers["set-cookie"] as string[]).find((c) => /^__Host-pi_session=[^;]/.test(c));
    const [sessionPair, ...sessionAttributes] = String(session).split("; ");
    expect(sessionPair).toMatch(/^__Host-pi_session=[\w-]+$/);
    expect(sessionAttributes.sort()).toEqual(["HttpOnly", expect.stringMatching(/^Max-Age=\d+$/), "Path=/", "SameSite=Lax", "Secure"]);
    await app.close();
  });
});

describe("CSRF", () => {
  test("every form refuses a post without its token, with another visitor's token, or from another site", async () => {
    const c = svc.client();
    await c.signUp("me@example.com", PASSWORD);
    const kept = await c.createKey("kept");
    const revoke = `/account/keys/${kept.split("_")[2]}/revoke`;
    const page = await c.get("/account");
    const csrf = csrfOf(page.body);
    const other = svc.client();
    await other.signUp("other@example.com", PASSWORD);
    const otherCsrf = csrfOf((await other.get("/account")).body);

    const refused = [
      await c.post("/account/keys", { name: "no token" }),
      await c.post("/account/keys", { name: "other token", csrf: otherCsrf }),
      await c.post("/account/keys", { name: "cross origin", csrf }, { origin: "https://evil.example" }),
      await c.post("/account/keys", { name: "cross site", csrf }, { "sec-fetch-site": "cross-site" }),
      await c.post("/account/keys", { name: "null origin", csrf }, { origin: "null" }),
      await c.post("/account/keys", { name: "same site", csrf }, { "sec-fetch-site": "same-site", origin: "http://localhost" }),
      await c.post("/account/logout", { csrf: otherCsrf }),
      await c.post(revoke, {}),
      await c.post(revoke, { csrf: otherCsrf }),
      await c.post(revoke, { csrf }, { origin: "https://evil.example" }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain("This form expired or did not come from this site.");
    }
    // No key was added, and the one there is still active.
    expect(svc.keys.listKeys(svc.accounts.findByEmail("me@example.com")!.id).map((k) => [k.name, k.revoked_at])).toEqual([["kept", null]]);
    expect((await c.get("/account")).statusCode).toBe(200); // still logged in
    // The same post from this site, with the token, works.
    const ok = await c.post("/account/keys", { name: "fine", csrf }, { origin: "http://localhost:80", "sec-fetch-site": "same-origin" });
    expect(ok.statusCode).toBe(303);
  });

  test("sign-up and log-in forms need the token of their pre-session cookie", async () => {
    const c = svc.client();
    const form = await c.get("/account/signup");
    const csrf = csrfOf(form.body);
    const stranger = svc.client(); // has no pre-session cookie
    expect((await stranger.post("/account/signup", { csrf, email: "x@example.com", password: PASSWORD })).statusCode).toBe(403);
    expect((await c.post("/account/signup", { csrf: csrf.slice(1), email: "x@example.com", password: PASSWORD })).statusCode).toBe(403);
    const login = await svc.client().post("/account/login", { email: "x@example.com", password: PASSWORD });
    expect(login.statusCode).toBe(403);
    // The log-in form's token is tied to its pre-session cookie too.
    const loginCsrf = csrfOf((await c.get("/account/login")).body);
    expect((await stranger.post("/account/login", { csrf: loginCsrf, email: "x@example.com", password: PASSWORD })).statusCode).toBe(403);
    expect((await c.post("/account/login", { csrf: loginCsrf.slice(1), email: "x@example.com", password: PASSWORD })).statusCode).toBe(403);
    expect(svc.accountsDb.prepare("SELECT count(*) FROM accounts").pluck().get()).toBe(0);
  });
});

describe("rate limits", () => {
  test("10 failed log-ins for one email lock that email for 15 minutes, even with the right password", async () => {
    await svc.client().signUp("me@example.com", PASSWORD);
    for (let i = 0; i < 10; i++)
      expect((await svc.client(`10.0.0.${i}`).logIn("me@example.com", `wrong password ${i}`)).statusCode).toBe(401);
    const locked = await svc.client("10.0.1.1").logIn("ME@example.com", PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(800);
    expect(locked.body).toContain("Too many log-in attempts. Try again in 15 minutes.");
    // Another email is not affected.
    await svc.client().signUp("you@example.com", PASSWORD);
    expect((await svc.client("10.0.1.2").logIn("you@example.com", PASSWORD)).statusCode).toBe(303);
    svc.advance(15 * 60 * 1000 + 1000);
    expect((await svc.client("10.0.1.1").logIn("me@example.com", PASSWORD)).statusCode).toBe(303);
  });

  test("30 log-in attempts from one IP address in 15 minutes, then 429", async () => {
    const c = svc.client("192.0.2.7");
    for (let i = 0; i < 30; i++) expect((await c.logIn(`user${i}@example.com`, "")).statusCode).toBe(400);
    expect((await c.logIn("user@example.com", PASSWORD)).statusCode).toBe(429);
    expect((await svc.client("192.0.2.8").logIn("user@example.com", "")).statusCode).toBe(400);
    // The count is per 15 minutes: after them, the address may try again.
    svc.advance(15 * 60 * 1000 + 1000);
    expect((await c.logIn("user@example.com", "")).statusCode).toBe(400);
  });

  test("sign-up: 10 an hour from one IP address, 5 an hour for one email", async () => {
    const c = svc.client("192.0.2.9");
    for (let i = 0; i < 10; i++) expect((await c.signUp(`person${i}@example.com`, "short")).statusCode).toBe(400);
    const blocked = await c.signUp("person@example.com", PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain("Too many sign-up attempts.");
    for (let i = 0; i < 5; i++) expect((await svc.client(`198.51.100.${i}`).signUp("same@example.com", "short")).statusCode).toBe(400);
    expect((await svc.client("198.51.100.99").signUp("SAME@example.com", PASSWORD)).statusCode).toBe(429);
    svc.advance(HOUR + 1000);
    expect((await c.signUp("same@example.com", PASSWORD)).statusCode).toBe(303);
  });
});
