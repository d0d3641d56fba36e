import crypto from "node:crypto";
import { loggerOptions } from "../../src/server/http/logging";
import { logSink } from "../helpers/log-sink";
import { startService } from "../helpers/service";
import { WebClient, csrfOf } from "./web-client";

test("keys never reach the log, wherever the client puts them", async () => {
  const sink = logSink();
  const { app, key } = await startService({ logger: loggerOptions("debug", sink.stream) });
  await app.inject({ method: "GET", url: "/v1/commercial/coverage", headers: { authorization: `Bearer ${key}` } });
  await app.inject({ method: "GET", url: `/v1/commercial/coverage?api_key=${key}` });
  await app.inject({ method: "GET", url: `/v1/nowhere/${key}` });
  await app.inject({ method: "GET", url: "/v1/commercial/coverage", headers: { "x-api-key": key, cookie: `key=${key}` } });
  await app.inject({
    method: "POST",
    url: "/v1/commercial/properties/compare",
    headers: { authorization: `Bearer ${key}` },
    payload: { property_ids: [key, key] },
  });
  await app.close();
  expect(sink.text().length).toBeGreaterThan(100); // the log was written
  expect(sink.text()).toContain("propi_[redacted]");
  expect(sink.text()).not.toContain(key.slice(11));
});

test("passwords, session ids, CSRF tokens and keys from the web pages never reach the log", async () => {
  const sink = logSink();
  const { app } = await startService({ logger: loggerOptions("debug", sink.stream), email: null });
  const password = "log-test " + crypto.randomBytes(9).toString("base64url");
  const c = new WebClient(app);
  await c.signUp("log@example.com", password);
  const sessionId = c.cookies.get("pi_session")!;
  const csrf = csrfOf((await c.get("/account")).body);
  const key = await c.createKey("log");
  await c.post("/account/logout", { csrf });
  await c.logIn("log@example.com", "a wrong password for the log");
  await c.logIn("log@example.com", password);
  await app.close();
  expect(sessionId).toMatch(/^[\w-]{43}$/);
  expect(sink.text()).toContain("/account/login"); // the requests were logged
  for (const secret of [password, "a wrong password for the log", sessionId, csrf, key.slice(11), c.cookies.get("pi_session")!]) {
    expect(sink.text()).not.toContain(secret);
  }
});
