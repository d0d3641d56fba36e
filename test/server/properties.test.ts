import fastJson, { type Schema } from "fast-json-stringify";
import { SHARED_SCHEMAS } from "../../src/contract/shared-schemas";
import { OPERATIONS } from "../../src/contract/operations";
import { decodeRow } from "../../src/snapshot/tables";
import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

describe("property detail", () => {
  test("returns the bare record", async () => {
    const { id } = pick(svc, "SELECT id FROM properties LIMIT 1 OFFSET 17");
    const res = await svc.get(`/v1/commercial/properties/${id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id, object: "commercial_property" });
    expect(Object.keys(body)).toContain("building_area_sqft");
  });

  test("an unknown id is a 404 problem", async () => {
    const res = await svc.get("/v1/commercial/properties/cp_doesnotexist");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "not_found", status: 404 });
  });
});

describe("search pages written as text", () => {
  // Search pages are assembled from JSON that SQLite writes for each record (property-search.ts);
  // they must be exactly what Fastify's serialiser writes for the same rows and envelope.
  // As Fastify serialises the route's answer: its schema, with the shared records it refers to.
  const shared = Object.fromEntries(SHARED_SCHEMAS.map((schema) => [String(schema.$id), schema]));
  const serialise = fastJson(OPERATIONS.searchProperties.response as unknown as Schema, {
    schema: shared as unknown as Record<string, Schema>,
  });
  const asSerialised = (page: any) => {
    const byId = svc.snapshot.prepare("SELECT * FROM properties WHERE id = ?");
    const rows = page.data.map((r: any) => decodeRow("properties", byId.get(r.id) as Record<string, unknown>));
    return serialise({ ...page, data: rows });
  };
  test.each([
    "/v1/commercial/properties?q=industrial&limit=100",
    "/v1/commercial/properties?q=park&state_code=TX&offset=3&limit=7",
    "/v1/commercial/properties?asset_type=office&min_building_area_sqft=20000",
    "/v1/commercial/assets/multifamily/properties?min_units=50&limit=40",
    "/v1/commercial/assets/land/properties?min_land_area_acres=5&limit=100&offset=20",
    "/v1/commercial/properties?q=zzzznothing",
  ])("%s", async (url) => {
    const res = await svc.get(url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(asSerialised(res.json()));
  });

  test("those pages cover the values JSON writes differently from SQL: nulls and fractional numbers", async () => {
    const body = (await svc.get("/v1/commercial/properties?q=industrial&limit=100")).json();
    const values = body.data.flatMap((r: any) => Object.values(r));
    expect(values.some((v: unknown) => v === null)).toBe(true);
    expect(values.some((v: unknown) => typeof v === "number" && !Number.isInteger(v))).toBe(true);
  });
});

describe("cross-asset search", () => {
  test("text search finds a property by words of its name", async () => {
    const p = pick(svc, "SELECT id, name, state_code FROM properties WHERE asset_type = 'office' LIMIT 1");
    const body = (await svc.get(`/v1/commercial/properties?q=${encodeURIComponent(p.name)}&limit=100`)).json();
    expect(body.data.map((r: any) => r.id)).toContain(p.id);
  });

  test("text with FTS operators is taken as plain words; text with no words is refused", async () => {
    const res = await svc.get(`/v1/commercial/properties?q=${encodeURIComponent('"*( - ^')}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].parameter).toBe("q");
    expect((await svc.get(`/v1/commercial/properties?q=${encodeURIComponent("NEAR( OR * -")}`)).statusCode).toBe(200);
    const ok = await svc.get(`/v1/commercial/properties?q=${encodeURIComponent('warehouse" OR "x')}`);
    expect(ok.statusCode).toBe(200);
  });

  test("filters combine: asset type, state and minimum building area", async () => {
    const { state_code } = pick(
      svc,
      "SELECT state_code, count(*) n FROM properties WHERE asset_type='industrial' GROUP BY 1 ORDER BY n DESC",
    );
    const body = (
      await svc.get(`/v1/commercial/properties?asset_type=industrial&state_code=${state_code}&min_building_area_sqft=50000&limit=100`)
    ).json();
    const expected = pick(
      svc,
      "SELECT count(*) n FROM properties WHERE asset_type='industrial' AND state_code=? AND building_area_sqft >= 50000",
      state_code,
    ).n;
    expect(body.total_count).toBe(expected);
    for (const r of body.data) {
      expect(r).toMatchObject({ asset_type: "industrial", state_code });
      expect(r.building_area_sqft).toBeGreaterThanOrEqual(50000);
    }
  });

  test("owner_name finds the owner's properties", async () => {
    const p = pick(svc, "SELECT owner_id, owner_name FROM properties WHERE owner_id IS NOT NULL LIMIT 1");
    const body = (await svc.get(`/v1/commercial/properties?owner_name=${encodeURIComponent(p.owner_name)}&limit=100`)).json();
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.some((r: any) => r.owner_id === p.owner_id)).toBe(true);
  });
});

describe("asset-oriented search", () => {
  test("searches one asset type with the section 4.3 inputs", async () => {
    const body = (await svc.get("/v1/commercial/assets/multifamily/properties?min_units=100&limit=20")).json();
    expect(body.data.length).toBeGreaterThan(0);
    for (const r of body.data) {
      expect(r.asset_type).toBe("multifamily");
      expect(r.units).toBeGreaterThanOrEqual(100);
    }
  });

  test("an input the asset type does not support is 400 unsupported_filter naming what is supported", async () => {
    const res = await svc.get("/v1/commercial/assets/land/properties?min_units=10");
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe("unsupported_filter");
    expect(body.errors[0].parameter).toBe("min_units");
    expect(body.supported_filters).toContain("state_code");
    expect(body.supported_filters).not.toContain("min_units");
    expect(body.detail).toMatch(/Supported: /);
    const cross = await svc.get("/v1/commercial/properties?asset_type=land&min_building_area_sqft=1000");
    expect(cross.json().code).toBe("unsupported_filter");
  });

  test("an unknown asset type is a 404 naming the valid values", async () => {
    const res = await svc.get("/v1/commercial/assets/castles/properties");
    expect(res.statusCode).toBe(404);
    expect(res.json().valid_values).toHaveLength(12);
    expect(res.json().detail).toMatch(/senior-living/);
  });

  test("paging reaches the end and stops", async () => {
    const total = pick(svc, "SELECT count(*) n FROM properties WHERE asset_type = 'student'").n;
    const last = (await svc.get(`/v1/commercial/assets/student/properties?limit=10&offset=${Math.max(0, total - 3)}`)).json();
    expect(last.data).toHaveLength(Math.min(3, total));
    expect(last).toMatchObject({ has_more: false, next_offset: null, total_count: total });
  });
});

describe("compare", () => {
  test("returns the properties in the order asked with min/median/max", async () => {
    const ids = svc.snapshot
      .prepare("SELECT id FROM properties WHERE asset_type = 'office' AND building_area_sqft IS NOT NULL LIMIT 3")
      .all()
      .map((r: any) => r.id)
      .reverse(); // not the order the snapshot stores them in
    const res = await svc.post("/v1/commercial/properties/compare", {
      property_ids: ids,
      fields: ["building_area_sqft", "year_built", "name"],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.properties.map((p: any) => p.id)).toEqual(ids);
    const areas = body.properties.map((p: any) => p.building_area_sqft).sort((a: number, b: number) => a - b);
    const stat = body.statistics.find((s: any) => s.field === "building_area_sqft");
    const mean = (areas[0] + areas[1] + areas[2]) / 3;
    expect(stat).toEqual({ field: "building_area_sqft", count: 3, mean, min: areas[0], median: areas[1], max: areas[2] });
    expect(body.statistics.find((s: any) => s.field === "name")).toBeUndefined();
  });

  test("bad bodies are 400 with pointers; unknown ids are 404 naming them", async () => {
    const { id } = pick(svc, "SELECT id FROM properties LIMIT 1");
    const cases: [unknown, string][] = [
      [{ property_ids: [id] }, "/property_ids"],
      [{ property_ids: [id, id] }, "/property_ids"],
      [{ property_ids: Array.from({ length: 26 }, (_, i) => `cp_${i}`) }, "/property_ids"],
      [{ property_ids: [id, "cp_x"], fields: ["colour"] }, "/fields/0"],
      [{ ids: [id] }, "/ids"],
    ];
    for (const [body, pointer] of cases) {
      const res = await svc.post("/v1/commercial/properties/compare", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: any) => e.pointer)).toContain(pointer);
    }
    const res = await svc.post("/v1/commercial/properties/compare", { property_ids: [id, "cp_nope"] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "not_found", unknown_ids: ["cp_nope"] });
    expect(res.json().errors[0].pointer).toBe("/property_ids/1");
  });

  test("malformed JSON, a wrong content type and an oversized body are refused clearly", async () => {
    const auth = { authorization: `Bearer ${svc.key}` };
    const bad = await svc.app.inject({
      method: "POST",
      url: "/v1/commercial/properties/compare",
      payload: "{",
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: "validation_failed", detail: expect.stringMatching(/not valid JSON/) });
    const text = await svc.app.inject({
      method: "POST",
      url: "/v1/commercial/properties/compare",
      payload: "a=b",
      headers: { ...auth, "content-type": "text/plain" },
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe("unsupported_media_type");
    const big = await svc.app.inject({
      method: "POST",
      url: "/v1/commercial/properties/compare",
      payload: JSON.stringify({ property_ids: ["cp_1", "x".repeat(70_000)] }),
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: "payload_too_large", detail: expect.stringMatching(/larger than allowed/) });
    for (const res of [bad, text, big]) expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });
});
