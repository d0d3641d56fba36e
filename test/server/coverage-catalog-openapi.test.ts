import { API_ROUTES } from "../../src/server/routes";
import { publishedDocument } from "../../src/server/openapi/published-document";
import { startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

const SPEC_ENDPOINTS = [
  "GET /v1/parcels",
  "GET /v1/listings/search",
  "GET /v1/commercial/coverage",
  "GET /v1/commercial/catalog",
  "GET /v1/commercial/properties",
  "GET /v1/commercial/properties/{property_id}",
  "POST /v1/commercial/properties/compare",
  "GET /v1/commercial/sale-comps",
  "GET /v1/commercial/markets/snapshot",
  "GET /v1/commercial/assets/{asset_type}/analysis",
  "GET /v1/commercial/assets/{asset_type}/properties",
  "GET /v1/commercial/owners/portfolio",
  "GET /v1/commercial/companies/{company_type}",
  "GET /v1/commercial/tenants/footprint",
  "GET /v1/commercial/diligence/candidates",
];
/** Additive endpoints of v1, beyond the specification's. */
const ADDED_ENDPOINTS = [
  "POST /v1/commercial/markets/batch",
  "GET /v1/commercial/markets/history",
  "GET /v1/commercial/properties/{property_id}/history",
];

describe("OpenAPI document", () => {
  test("has exactly the fifteen endpoints of the specification, and the additive ones", async () => {
    const doc = (await svc.app.inject({ method: "GET", url: "/v1/openapi.json" })).json();
    expect(doc.openapi).toBe("3.1.0");
    const ops = Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual([...SPEC_ENDPOINTS, ...ADDED_ENDPOINTS].sort());
  });

  test("the server's routes and the document are the same set", async () => {
    await svc.app.ready();
    const doc = await publishedDocument(API_ROUTES);
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{([a-z_]+)\}/g, ":$1")}`),
    );
    const served = svc.app.registeredRoutes.filter(
      (r) => / \/v1\//.test(r) && !r.endsWith("/v1/openapi.json") && !r.startsWith("OPTIONS "), // CORS preflight
    );
    expect(served.sort()).toEqual(documented.sort());
  });

  test("records are named components and costs are published", async () => {
    const doc = (await publishedDocument(API_ROUTES)) as any;
    for (const name of [
      "CommercialProperty",
      "SaleComp",
      "Parcel",
      "Listing",
      "MarketSnapshot",
      "Company",
      "DiligenceCandidate",
      "PortfolioHolding",
      "TenantLocation",
      "AssetAnalysis",
    ]) {
      expect(doc.components.schemas[name]).toBeDefined();
    }
    expect(doc.paths["/v1/commercial/coverage"].get["x-credit-cost"]).toBe(0);
    expect(doc.paths["/v1/commercial/sale-comps"].get["x-credit-cost"]).toBeGreaterThan(0);
    // Every operation publishes its cost.
    const costs = Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) =>
      Object.entries(methods).map(([m, op]: [string, any]) => [
        `${m.toUpperCase()} ${path}`,
        Number.isInteger(op["x-credit-cost"]) && op["x-credit-cost"] >= 0,
      ]),
    );
    expect(costs).toHaveLength(SPEC_ENDPOINTS.length + ADDED_ENDPOINTS.length);
    expect(costs.filter(([, published]) => !published)).toEqual([]);
  });
});

describe("coverage and catalog", () => {
  test("coverage is computed from the data", async () => {
    const body = (await svc.get("/v1/commercial/coverage")).json();
    const n = (sql: string) => (svc.snapshot.prepare(sql).get() as any).n;
    expect(body.counts.properties).toBe(n("SELECT count(*) n FROM properties"));
    expect(body.counts.sales).toBe(n("SELECT count(*) n FROM sales"));
    expect(body.by_asset_type).toHaveLength(12);
    expect(body.snapshot).toMatchObject({ source: "generated", seed: "7" });
    expect(Array.isArray(body.known_gaps)).toBe(true);
  });

  test("catalog lists every surface with its cost and the inputs per asset type", async () => {
    const body = (await svc.get("/v1/commercial/catalog")).json();
    expect(body.surfaces).toHaveLength(SPEC_ENDPOINTS.length + ADDED_ENDPOINTS.length);
    expect(body.surfaces.map((s: any) => `${s.method} ${s.path}`).sort()).toEqual([...SPEC_ENDPOINTS, ...ADDED_ENDPOINTS].sort());
    // Each with the cost the OpenAPI document publishes for it.
    const doc = (await publishedDocument(API_ROUTES)) as any;
    for (const s of body.surfaces) {
      expect({ surface: s.operation_id, cost: s.cost_credits }).toEqual({
        surface: s.operation_id,
        cost: doc.paths[s.path][s.method.toLowerCase()]["x-credit-cost"],
      });
    }
    const batch = body.surfaces.find((s: any) => s.operation_id === "getMarketSnapshotBatch");
    expect(batch).toMatchObject({ cost_credits: 1, cost_per: "market answered" });
    expect(body.surfaces.find((s: any) => s.operation_id === "listParcels").place_kinds).toEqual(["state", "county", "city", "zip"]);
    const land = body.asset_types.find((a: any) => a.asset_type === "land");
    expect(land.unsupported_inputs.map((u: any) => u.input)).toContain("min_units");
    const mf = body.asset_types.find((a: any) => a.asset_type === "multifamily");
    expect(mf.supported_inputs).toContain("min_units");
    expect(body.company_types).toContain("property-manager");
    expect(body.metros.length).toBeGreaterThan(0);
  });
  test("neither takes inputs: an unknown query parameter is refused, as everywhere", async () => {
    for (const url of ["/v1/commercial/coverage?state_code=TX", "/v1/commercial/catalog?limit=5"]) {
      const res = await svc.get(url);
      expect([url, res.statusCode, res.json().code, res.json().errors?.[0]?.parameter]).toEqual([
        url,
        400,
        "validation_failed",
        url.split("?")[1].split("=")[0],
      ]);
    }
  });
});

describe("HTTP conventions", () => {
  test("ETag and If-None-Match give 304 with no body", async () => {
    const first = await svc.get("/v1/commercial/assets/office/properties?limit=3");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/); // a list names its snapshot: the validator leaves that out
    const again = await svc.get("/v1/commercial/assets/office/properties?limit=3", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    const changed = await svc.get("/v1/commercial/assets/office/properties?limit=4", { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
  });

  test("an unknown path is a problem+json 404", async () => {
    const res = await svc.get("/v1/nothing-here");
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/problem\+json/);
    expect(res.json().request_id).toBe(res.headers["x-request-id"]);
  });

  test("every endpoint answers a valid request with 200", async () => {
    const any = (sql: string) => svc.snapshot.prepare(sql).get() as any;
    const p = any("SELECT id, owner_id FROM properties WHERE owner_id IS NOT NULL LIMIT 1");
    const t = any("SELECT tenant_id FROM tenancies LIMIT 1");
    const urls = [
      "/v1/parcels?limit=2",
      "/v1/listings/search?status=active&limit=2",
      "/v1/commercial/coverage",
      "/v1/commercial/catalog",
      "/v1/commercial/properties?limit=2",
      `/v1/commercial/properties/${p.id}`,
      `/v1/commercial/properties/${p.id}/history`,
      "/v1/commercial/sale-comps?state_code=CA&limit=2",
      "/v1/commercial/markets/snapshot?geography=CA&asset_type=office",
      "/v1/commercial/markets/history?geography=CA&asset_type=office&interval=year",
      "/v1/commercial/assets/retail/analysis",
      "/v1/commercial/assets/retail/properties?limit=2",
      `/v1/commercial/owners/portfolio?owner_id=${p.owner_id}`,
      "/v1/commercial/companies/lender?limit=2",
      `/v1/commercial/tenants/footprint?tenant_id=${t.tenant_id}`,
      "/v1/commercial/diligence/candidates?limit=2",
    ];
    for (const url of urls) {
      const res = await svc.get(url);
      expect([url, res.statusCode, res.statusCode === 200 ? "" : res.body]).toEqual([url, 200, ""]);
    }
    const ids = svc.snapshot.prepare("SELECT id FROM properties LIMIT 2").pluck().all();
    const posts: [string, unknown][] = [
      ["/v1/commercial/properties/compare", { property_ids: ids }],
      ["/v1/commercial/markets/batch", { markets: [{ geography: "CA", asset_type: "office" }] }],
    ];
    for (const [url, body] of posts) {
      const res = await svc.post(url, body);
      expect([url, res.statusCode, res.statusCode === 200 ? "" : res.body]).toEqual([url, 200, ""]);
    }
    // Every endpoint of the document was called: one GET or POST per endpoint.
    const called = [...urls.map((u) => `GET ${u.split("?")[0]}`), ...posts.map(([u]) => `POST ${u}`)];
    const pattern = (endpoint: string) => new RegExp(`^${endpoint.replace(/\{[a-z_]+\}/g, "[^/]+")}$`);
    for (const endpoint of [...SPEC_ENDPOINTS, ...ADDED_ENDPOINTS])
      expect({ endpoint, called: called.some((c) => pattern(endpoint).test(c)) }).toEqual({ endpoint, called: true });
  });
});
