import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../src/server/config";
import { parseOrigins } from "../../src/server/http/cors";
import { startService } from "../helpers/service";

const ADDIN = "https://addin.example.com";
const OTHER = "https://evil.example.net";

let svc: { app: FastifyInstance; key: string };
beforeEach(async () => (svc = await startService({ corsOrigins: [ADDIN] })));
afterEach(() => svc.app.close());

const preflight = (origin: string, method = "GET", headers = "authorization") =>
  svc.app.inject({
    method: "OPTIONS",
    url: "/v1/commercial/coverage",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
  });

describe("CORS", () => {
  test("a preflight from the add-in's origin may send Authorization, a JSON body and If-None-Match", async () => {
    const res = await preflight(ADDIN, "POST", "authorization, content-type, if-none-match");
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe(ADDIN);
    const allowedHeaders = String(res.headers["access-control-allow-headers"]).toLowerCase().split(/,\s*/);
    expect(allowedHeaders).toEqual(expect.arrayContaining(["authorization", "content-type", "if-none-match"]));
    expect(res.headers["access-control-allow-methods"]).toBe("GET, POST");
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(res.headers.vary).toMatch(/Origin/);
  });

  test("preflights from other origins, other methods or other headers are refused", async () => {
    const other = await preflight(OTHER);
    expect(other.statusCode).toBe(403);
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    for (const res of [other, await preflight(ADDIN, "DELETE"), await preflight(ADDIN, "GET", "x-secret")]) {
      expect(res.statusCode).toBe(403);
      expect(res.headers["access-control-allow-methods"]).toBeUndefined();
      expect(res.json().code).toBe("origin_not_allowed");
    }
  });

  test("answers to the add-in's origin expose the credit, rate-limit and request-id headers", async () => {
    const res = await svc.app.inject({
      method: "GET",
      url: "/v1/commercial/coverage",
      headers: { origin: ADDIN, authorization: `Bearer ${svc.key}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe(ADDIN);
    const exposed = String(res.headers["access-control-expose-headers"]).split(", ");
    for (const h of [
      "X-Request-Id",
      "X-Credits-Plan",
      "X-Credits-Limit",
      "X-Credits-Remaining",
      "X-Credits-Charged",
      "X-Credits-Reset",
      "RateLimit",
      "RateLimit-Policy",
      "Retry-After",
      "ETag",
    ]) {
      expect(exposed).toContain(h);
    }
  });

  test("other origins get no CORS grant, and nothing outside /v1/ is shared but the functions' metadata (below)", async () => {
    const other = await svc.app.inject({
      method: "GET",
      url: "/v1/commercial/coverage",
      headers: { origin: OTHER, authorization: `Bearer ${svc.key}` },
    });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    // Not even with the add-in's own origin: the health check, the home page, the account pages and the docs.
    for (const url of ["/healthz", "/", "/account/login", "/account/signup", "/account", "/docs/api"]) {
      const res = await svc.app.inject({ method: "GET", url, headers: { origin: ADDIN } });
      expect({ url, status: res.statusCode < 500, grant: res.headers["access-control-allow-origin"] }).toEqual({
        url,
        status: true,
        grant: undefined,
      });
    }
    const preflight = await svc.app.inject({
      method: "OPTIONS",
      url: "/account/login",
      headers: { origin: ADDIN, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
  });

  test("with no CORS_ORIGINS (the default) no origin is granted, and preflights are refused saying why", async () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    const { app, key } = await startService();
    try {
      const res = await app.inject({
        method: "GET",
        url: "/v1/commercial/coverage",
        headers: { origin: ADDIN, authorization: `Bearer ${key}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
      const pre = await app.inject({
        method: "OPTIONS",
        url: "/v1/commercial/coverage",
        headers: { origin: ADDIN, "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
      });
      expect(pre.statusCode).toBe(403);
      expect(pre.headers["access-control-allow-origin"]).toBeUndefined();
      expect(pre.headers["access-control-allow-methods"]).toBeUndefined();
      expect(pre.json()).toMatchObject({ code: "origin_not_allowed", detail: expect.stringContaining(ADDIN) });
    } finally {
      await app.close();
    }
  });

  test("CORS_ORIGINS must list bare origins", () => {
    expect(parseOrigins("https://a.example.com, https://localhost:3443")).toEqual(["https://a.example.com", "https://localhost:3443"]);
    expect(() => parseOrigins("https://a.example.com/path")).toThrow(/bare origin/);
    expect(() => parseOrigins("not a url")).toThrow(/not an origin/);
    expect(() => parseOrigins("ftp://a.example.com")).toThrow(/bare origin/);
  });
});

describe("the functions' metadata, which Excel on the web reads from another origin", () => {
  const addinDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-addin-"));
  fs.writeFileSync(path.join(addinDir, "functions.json"), '{"functions":[]}');
  fs.writeFileSync(path.join(addinDir, "functions.js"), "// functions");
  fs.writeFileSync(path.join(addinDir, "functions.js.map"), '{"version":3}');
  const get = async (url: string, origin?: string) => {
    const { app } = await startService({ corsOrigins: [ADDIN], addinDir });
    try {
      return await app.inject({ method: "GET", url, headers: origin ? { origin } : {} });
    } finally {
      await app.close();
    }
  };

  test.each(["https://excel.officeapps.live.com", "https://inc-excel.officeapps.live.com", "https://excel.cloud.microsoft", ADDIN])(
    "%s may read /addin/functions.json",
    async (origin) => {
      const res = await get("/addin/functions.json", origin);
      expect(res.statusCode).toBe(200);
      expect(res.headers["access-control-allow-origin"]).toBe(origin);
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
      expect(res.headers.vary).toMatch(/Origin/);
    },
  );

  test.each([
    OTHER,
    "http://excel.officeapps.live.com",
    "https://officeapps.live.com.evil.example",
    "https://excel.officeapps.live.com.evil.example",
  ])("%s may not", async (origin) => {
    expect((await get("/addin/functions.json", origin)).headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("the build's source maps are not served", async () => {
    expect((await get("/addin/functions.js")).statusCode).toBe(200);
    expect((await get("/addin/functions.js.map")).statusCode).toBe(404);
  });

  test("only the metadata is shared: the other add-in files are not", async () => {
    expect((await get("/addin/functions.js", "https://excel.officeapps.live.com")).headers["access-control-allow-origin"]).toBeUndefined();
  });
});
