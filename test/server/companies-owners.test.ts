import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

describe("companies", () => {
  test.each(["owner", "tenant", "broker", "lender", "property-manager", "developer"])("lists %s companies", async (type) => {
    const body = (await svc.get(`/v1/commercial/companies/${type}?limit=5`)).json();
    expect(body.data.length).toBeGreaterThan(0);
    for (const c of body.data) expect(c).toMatchObject({ object: "company", company_type: type });
  });

  test("q matches part of the name", async () => {
    const c = pick(svc, "SELECT name FROM companies WHERE company_type = 'broker' LIMIT 1");
    const word = c.name.split(" ")[0];
    const body = (await svc.get(`/v1/commercial/companies/broker?q=${encodeURIComponent(word.toLowerCase())}`)).json();
    expect(body.data.length).toBeGreaterThan(0);
    for (const r of body.data) expect(r.name.toLowerCase()).toContain(word.toLowerCase());
  });

  test("an unknown company type is a 404 naming the valid values", async () => {
    const res = await svc.get("/v1/commercial/companies/landlord");
    expect(res.statusCode).toBe(404);
    expect(res.json().valid_values).toEqual(["owner", "tenant", "broker", "lender", "property-manager", "developer"]);
  });
});

describe("owner portfolio", () => {
  test("by id: every holding is the owner's, with evidence", async () => {
    const o = pick(svc, "SELECT owner_id, count(*) n FROM properties WHERE owner_id IS NOT NULL GROUP BY 1 ORDER BY n DESC LIMIT 1");
    const body = (await svc.get(`/v1/commercial/owners/portfolio?owner_id=${o.owner_id}&limit=100`)).json();
    expect(body.owner.id).toBe(o.owner_id);
    expect(body.total_count).toBe(o.n);
    expect(body.data).toHaveLength(Math.min(100, o.n));
    for (const h of body.data) {
      expect(h.owner_id).toBe(o.owner_id);
      expect(["recorded_sale", "ownership_record"]).toContain(h.evidence);
      if (h.evidence === "recorded_sale") expect(h.evidence_id).toMatch(/^sale_/);
    }
  });

  test("by name, and the errors", async () => {
    const o = pick(svc, "SELECT id, name FROM companies WHERE company_type = 'owner' AND property_count > 0 LIMIT 1");
    const body = (await svc.get(`/v1/commercial/owners/portfolio?owner_name=${encodeURIComponent(o.name.toUpperCase())}`)).json();
    expect(body.owner.id).toBe(o.id);
    expect((await svc.get("/v1/commercial/owners/portfolio")).statusCode).toBe(400);
    expect((await svc.get("/v1/commercial/owners/portfolio?owner_name=zzzzqqqq")).statusCode).toBe(404);
  });
});

describe("which company a name matched", () => {
  /** A word several owners' names contain. */
  const shared = () =>
    pick(
      svc,
      `SELECT substr(name, 1, instr(name, ' ') - 1) AS word, count(*) AS n FROM companies WHERE company_type = 'owner' AND instr(name, ' ') > 3
       GROUP BY 1 HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 1`,
    );

  test("the summary says how the owner was found and which others the name matched", async () => {
    const { word, n } = shared();
    const body = (await svc.get(`/v1/commercial/owners/portfolio?owner_name=${encodeURIComponent(word)}&limit=1`)).json();
    expect(body.owner).toMatchObject({ matched_by: "name_contains", candidate_count: n });
    expect(body.owner.other_candidates).toHaveLength(Math.min(5, n - 1));
    expect(body.data[0]).toMatchObject({ owner_id: body.owner.id, owner_name: body.owner.name });
    const byId = (await svc.get(`/v1/commercial/owners/portfolio?owner_id=${body.owner.id}&limit=1`)).json();
    expect(byId.owner).toMatchObject({ matched_by: "id", candidate_count: 1, other_candidates: [] });
  });

  test("name_match=unique refuses a name several owners contain, free, listing them; a unique name is found", async () => {
    const { word, n } = shared();
    const res = await svc.get(`/v1/commercial/owners/portfolio?owner_name=${encodeURIComponent(word)}&name_match=unique`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "ambiguous_name", candidate_count: n });
    expect(res.json().candidates.length).toBe(Math.min(5, n));
    expect(res.headers["x-credits-charged"]).toBe("0");
    const one = pick(
      svc,
      "SELECT name FROM companies WHERE company_type = 'owner' GROUP BY name HAVING count(*) = 1 ORDER BY max(property_count) DESC LIMIT 1",
    );
    const found = await svc.get(`/v1/commercial/owners/portfolio?owner_name=${encodeURIComponent(one.name)}&name_match=unique&limit=1`);
    expect(found.statusCode).toBe(200);
    expect(found.json().owner).toMatchObject({ name: one.name, matched_by: "exact_name" });
  });
});

describe("tenant footprint", () => {
  test("lists the tenant's locations, soonest expiry first", async () => {
    const t = pick(svc, "SELECT tenant_id, count(*) n FROM tenancies GROUP BY 1 ORDER BY n DESC LIMIT 1");
    const body = (await svc.get(`/v1/commercial/tenants/footprint?tenant_id=${t.tenant_id}&limit=100`)).json();
    expect(body.total_count).toBe(t.n);
    expect(body.tenant.id).toBe(t.tenant_id);
    const exp = body.data.map((r: any) => r.lease_expiration);
    expect([...exp].sort()).toEqual(exp);
    for (const r of body.data) expect(r).toMatchObject({ object: "tenant_location", tenant_id: t.tenant_id });
  });

  test("errors", async () => {
    expect((await svc.get("/v1/commercial/tenants/footprint")).statusCode).toBe(400);
    expect((await svc.get("/v1/commercial/tenants/footprint?tenant_id=co_none")).statusCode).toBe(404);
  });
});

describe("diligence candidates", () => {
  test("ranked by score with reason codes", async () => {
    const body = (await svc.get("/v1/commercial/diligence/candidates?asset_type=office&limit=20")).json();
    expect(body.data.length).toBeGreaterThan(0);
    let prev = 101;
    for (const d of body.data) {
      expect(d.asset_type).toBe("office");
      expect(Array.isArray(d.reason_codes)).toBe(true);
      expect(d.score).toBeLessThanOrEqual(prev);
      prev = d.score;
    }
    const high = (await svc.get("/v1/commercial/diligence/candidates?min_score=60")).json();
    expect(high.data.length).toBeGreaterThan(0);
    for (const d of high.data) expect(d.score).toBeGreaterThanOrEqual(60);
    expect((await svc.get("/v1/commercial/diligence/candidates?min_score=101")).statusCode).toBe(400);
  });
});
