import { OPERATION_LIST } from "../../src/contract/operations";
import { fillPath } from "../../src/contract/operation";
import { API_ROUTES } from "../../src/server/routes";
import { publishedDocument } from "../../src/server/openapi/published-document";
import { startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

/** Every operation of the contract as `METHOD /path`: what the document, the routes and the catalog must list. */
const ENDPOINTS = OPERATION_LIST.map((o) => `${o.method} ${o.path}`);

describe("OpenAPI document", () => {
  test("has exactly the contract's operations, each under its operationId, summary and tag", async () => {
    const doc = (await svc.app.inject({ method: "GET", url: "/v1/openapi.json" })).json();
    expect(doc.openapi).toBe("3.1.0");
    const ops = Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) =>
      Object.entries(methods).map(([m, op]: [string, any]) => ({
        endpoint: `${m.toUpperCase()} ${path}`,
        operationId: op.operationId,
        summary: op.summary,
        tags: op.tags,
      })),
    );
    const sort = (list: { endpoint: string }[]) => [...list].sort((x, y) => x.endpoint.localeCompare(y.endpoint));
    expect(sort(ops)).toEqual(
      sort(OPERATION_LIST.map((o) => ({ endpoint: `${o.method} ${o.path}`, operationId: o.name, summary: o.summary, tags: [o.tag] }))),
    );
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
    expect(costs).toHaveLength(ENDPOINTS.length);
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
    expect(body.surfaces.map((s: any) => `${s.method} ${s.path}`)).toEqual(ENDPOINTS);
    expect(body.surfaces.map((s: any) => [s.operation_id, s.summary])).toEqual(OPERATION_LIST.map((o) => [o.name, o.summary]));
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

  test("every operation of the contract answers a valid request with 200", async () => {
    const any = (sql: string) => svc.snapshot.prepare(sql).get() as any;
    const p = any("SELECT id, owner_id, address, city, state_code, zip FROM properties WHERE owner_id IS NOT NULL LIMIT 1");
    const line = `${p.address}, ${p.city}, ${p.state_code} ${p.zip}`;
    const t = any("SELECT tenant_id FROM tenancies LIMIT 1");
    const ids = svc.snapshot.prepare("SELECT id FROM properties LIMIT 2").pluck().all();
    // A value for each path parameter, input and body member an operation may need, by its
    // name: each operation's request is built from those its schemas name.
    const path: Record<string, string> = { property_id: p.id, asset_type: "retail", company_type: "lender" };
    const query: Record<string, string> = {
      geography: "CA",
      asset_type: "office",
      owner_id: p.owner_id,
      tenant_id: t.tenant_id,
      address: line,
      limit: "2",
    };
    const body: Record<string, unknown> = {
      property_ids: ids,
      markets: [{ geography: "CA", asset_type: "office" }],
      addresses: [{ ref: "1", address: line }],
    };
    const pick = <T>(values: Record<string, T>, schema: { properties: object } | undefined) =>
      Object.fromEntries(Object.entries(values).filter(([k]) => schema && k in schema.properties));
    const answers = [];
    for (const o of OPERATION_LIST) {
      const params = pick(path, o.params);
      const url = fillPath(o, params) + "?" + new URLSearchParams(pick(query, o.query)).toString();
      const res = o.method === "GET" ? await svc.get(url) : await svc.post(url, pick(body, o.body));
      answers.push([o.name, url, res.statusCode, res.statusCode === 200 ? "" : res.body]);
    }
    expect(answers).toEqual(answers.map(([name, url]) => [name, url, 200, ""]));
  });
});
