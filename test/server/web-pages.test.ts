// The account area as its own plugin: helmet's headers on its pages and nowhere else, its HTML
// error pages, and the API reference page served whole by the service.
import path from "node:path";
import { PASSWORD, startWebService } from "./web-client";

let svc: Awaited<ReturnType<typeof startWebService>>;
beforeEach(async () => {
  svc = await startWebService();
});
afterEach(() => svc.app.close());

/** A Content-Security-Policy as directive name → sources, so the order of directives does not matter. */
function directives(header: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of String(header).split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources.join(" ");
  }
  return out;
}

const PAGE_POLICY = {
  "default-src": "'none'",
  "script-src": "'self'",
  "style-src": "'self'",
  "img-src": "'self' data:",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
  "base-uri": "'none'",
};

describe("headers", () => {
  test("every page has the strict policy and helmet's headers; no HSTS over plain HTTP", async () => {
    const c = svc.client();
    await c.signUp("me@example.com", PASSWORD);
    for (const url of ["/", "/account", "/account/usage", "/account/nothing-here"]) {
      const res = await c.get(url);
      expect(directives(res.headers["content-security-policy"])).toEqual(PAGE_POLICY);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["referrer-policy"]).toBe("same-origin");
      expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["permissions-policy"]).toBe("camera=(), microphone=(), geolocation=(), payment=()");
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  test("the account area's hooks stay in it: the API and the app's own 404 get none of them", async () => {
    const key = svc.keys.createKey(svc.accounts.create("api@example.com").id, "k").raw;
    const api = await svc.api(key);
    expect(api.statusCode).toBe(200);
    const unknown = await svc.client().get("/no-such-page");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers["content-type"]).toMatch(/^application\/problem\+json/);
    for (const res of [api, unknown]) {
      expect(res.headers["content-security-policy"]).toBeUndefined();
      expect(res.headers["x-frame-options"]).toBeUndefined();
      expect(res.headers["permissions-policy"]).toBeUndefined();
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
  });

  test("a form the pages cannot read gets an HTML page with the request id, not problem+json", async () => {
    const c = svc.client();
    const big = await c.post("/account/login", { email: "x".repeat(20_000), password: "p", csrf: "t" });
    expect(big.statusCode).toBe(413);
    expect(big.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(big.body).toContain("Form too large");
    expect(big.body).toContain(`<code>${big.headers["x-request-id"]}</code>`);
    expect(directives(big.headers["content-security-policy"])).toEqual(PAGE_POLICY);
  });
});

describe("the API reference page", () => {
  test("loads Swagger UI and the OpenAPI document from this service, with one more CSP source: connect-src 'self'", async () => {
    const c = svc.client();
    const res = await c.get("/docs/api");
    expect(res.statusCode).toBe(200);
    expect(directives(res.headers["content-security-policy"])).toEqual({ ...PAGE_POLICY, "connect-src": "'self'" });
    expect(res.body).toContain('data-openapi-url="/v1/openapi.json"');
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);

    const scripts = [...res.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    const styles = [...res.body.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual([
      expect.stringMatching(/^\/assets\/swagger-ui-[\d.]+\/swagger-ui-bundle\.js$/),
      expect.stringMatching(/^\/assets\/api-reference-[0-9a-f]+\.js$/),
    ]);
    expect(styles).toEqual([
      expect.stringMatching(/^\/assets\/site-[0-9a-f]+\.css$/),
      expect.stringMatching(/^\/assets\/swagger-ui-[\d.]+\/swagger-ui\.css$/),
    ]);
    for (const url of [...scripts, ...styles]) {
      const file = await c.get(url);
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toMatch(url.endsWith(".js") ? /^(text|application)\/javascript/ : /^text\/css/);
      expect(file.headers["cache-control"]).toMatch(/immutable/);
      expect(file.body.length).toBeGreaterThan(100);
    }
    expect((await c.get(scripts[1])).body).toContain('getAttribute("data-openapi-url")');
    expect((await c.get("/v1/openapi.json")).json().paths).toBeDefined();
  });

  test("of Swagger UI's package only the two files the page loads are served", async () => {
    const prefix = /\/assets\/(swagger-ui-[\d.]+)\//.exec((await svc.client().get("/docs/api")).body)![1];
    for (const file of ["swagger-ui-bundle.js.map", "index.html", "swagger-initializer.js", "package.json", "../package.json"]) {
      expect((await svc.client().get(`/assets/${prefix}/${file}`)).statusCode).toBe(404);
    }
  });

  test("the other pages' CSP does not have the reference page's connect-src", async () => {
    const withDocs = await startWebService(undefined, { docsDir: path.join(__dirname, "../../docs") });
    for (const url of ["/", "/account/login", "/docs/functions"]) {
      const res = await withDocs.client().get(url);
      expect(res.statusCode).toBe(200);
      expect(directives(res.headers["content-security-policy"])).toEqual(PAGE_POLICY);
    }
    await withDocs.app.close();
  });
});
