import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

describe("GET /v1/parcels", () => {
  test("filters by state_code and pages with the list envelope", async () => {
    const { state_code } = pick(svc, "SELECT state_code, count(*) n FROM parcels GROUP BY state_code ORDER BY n DESC LIMIT 1");
    const first = (await svc.get(`/v1/parcels?state_code=${state_code}&limit=5`)).json();
    expect(first.object).toBe("list");
    expect(first.data).toHaveLength(5);
    expect(first.data.every((p: any) => p.state_code === state_code && p.object === "parcel")).toBe(true);
    expect(first.has_more).toBe(true);
    expect(first.next_offset).toBe(5);
    expect(first.snapshot.id).toMatch(/^snap_/);
    const total = pick(svc, "SELECT count(*) n FROM parcels WHERE state_code = ?", state_code).n;
    expect(first.total_count).toBe(total);
    const second = (await svc.get(`/v1/parcels?state_code=${state_code}&limit=5&offset=5`)).json();
    const ids = new Set([...first.data, ...second.data].map((p: any) => p.id));
    expect(ids.size).toBe(10);
  });

  test("lower-case state codes work", async () => {
    const res = await svc.get("/v1/parcels?state_code=tx&limit=1");
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].state_code).toBe("TX");
  });

  test("bad limit, bad state code and unknown parameters are 400 validation_failed naming the parameter", async () => {
    for (const [qs, param] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=ten", "limit"],
      ["offset=-1", "offset"],
      ["offset=10001", "offset"],
      ["state_code=Texas", "state_code"],
      ["stat_code=TX", "stat_code"],
      ["land_use=castle", "land_use"],
    ]) {
      const res = await svc.get(`/v1/parcels?${qs}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      const body = res.json();
      expect(body.code).toBe("validation_failed");
      expect(body.errors.map((e: any) => e.parameter)).toContain(param);
    }
  });

  test("an empty result is an empty list, not an error", async () => {
    const p = pick(svc, "SELECT zip FROM parcels LIMIT 1");
    const res = await svc.get(`/v1/parcels?zip=${p.zip}&apn=no-such-apn`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ data: [], total_count: 0, has_more: false, next_offset: null });
  });

  test("a ZIP code the snapshot does not hold is a free 400 naming it, not an empty page", async () => {
    const res = await svc.get("/v1/parcels?zip=00000");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "unknown_place", parameter: "zip", place: "00000" });
    expect(res.headers["x-credits-charged"]).toBe("0");
  });
});

describe("GET /v1/listings/search", () => {
  test("state, city and status filter together", async () => {
    const l = pick(svc, "SELECT city, state_code FROM listings WHERE status = 'active' LIMIT 1");
    const body = (
      await svc.get(`/v1/listings/search?state=${l.state_code}&city=${encodeURIComponent(l.city.toUpperCase())}&status=active`)
    ).json();
    expect(body.data.length).toBeGreaterThan(0);
    for (const row of body.data) {
      expect(row).toMatchObject({ object: "listing", status: "active", state_code: l.state_code, city: l.city });
    }
  });

  test("every documented status is accepted; others are refused with the list of values", async () => {
    for (const status of ["active", "pending", "sold", "withdrawn", "expired"]) {
      const body = (await svc.get(`/v1/listings/search?status=${status}&limit=1`)).json();
      expect(body.data[0].status).toBe(status);
    }
    const res = await svc.get("/v1/listings/search?status=open");
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].detail).toMatch(/active, pending, sold, withdrawn, expired/);
  });

  test("price filters bound the list price", async () => {
    const body = (await svc.get("/v1/listings/search?min_price=200000&max_price=400000&limit=50")).json();
    expect(body.data.length).toBeGreaterThan(0);
    for (const row of body.data) expect(row.list_price).toBeGreaterThanOrEqual(200000);
    for (const row of body.data) expect(row.list_price).toBeLessThanOrEqual(400000);
  });
});
