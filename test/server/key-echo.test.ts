// An API key sent where an id, a name or a parameter goes is never echoed back: every string
// an answer quotes from the request is redacted, in problems (detail, errors, extensions) and in
// the markets batch's results alike.
import { redactKeysDeep, redactKeys } from "../../src/server/http/request-id";
import { startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

/** The answer holds neither the key nor its secret part. */
function expectNoKey(text: string) {
  expect(text).not.toContain(svc.key);
  expect(text).not.toContain(svc.key.slice(-30));
}

describe("redactKeysDeep", () => {
  test("redacts keys in every string of a value, object keys included, and leaves everything else as it was", () => {
    const key = "propi_live_abcdefghijkl_ABCDEFGHIJKLMNOPQRSTUVWX123456";
    const value = { a: `id ${key}`, list: [key, 3, null, { [key]: true }], n: 1, ok: "plain" };
    expect(redactKeysDeep(value)).toEqual({
      a: "id propi_[redacted]",
      list: ["propi_[redacted]", 3, null, { "propi_[redacted]": true }],
      n: 1,
      ok: "plain",
    });
    expect(redactKeys(key)).toBe("propi_[redacted]");
  });
});

describe("a key sent as input is not echoed", () => {
  test("compare: a key as a property id is redacted in unknown_ids, detail and errors", async () => {
    const real = svc.snapshot.prepare("SELECT id FROM properties LIMIT 1").pluck().get() as string;
    const res = await svc.post("/v1/commercial/properties/compare", { property_ids: [real, svc.key] });
    expect(res.statusCode).toBe(404);
    expectNoKey(res.body);
    expect(res.json().unknown_ids).toEqual(["propi_[redacted]"]);
    expect(res.json().errors[0]).toMatchObject({ pointer: "/property_ids/1" });
  });

  test('compare: a key as an id of if_none_match "*" is redacted in the pointer', async () => {
    const res = await svc.post("/v1/commercial/properties/compare", {
      property_ids: ["cp_1", "cp_2"],
      if_none_match: { [svc.key]: "*" },
    });
    expect(res.statusCode).toBe(400);
    expectNoKey(res.body);
    expect(res.json().errors[0].pointer).toBe("/if_none_match/propi_[redacted]");
  });

  test("markets batch: a key as a geography or an asset type is redacted in the result and its problem", async () => {
    const res = await svc.post("/v1/commercial/markets/batch", {
      markets: [
        { geography: svc.key, asset_type: "office" },
        { geography: "TX", asset_type: svc.key },
      ],
    });
    expect(res.statusCode).toBe(200);
    expectNoKey(res.body);
    const [geo, type] = res.json().results;
    expect(geo).toMatchObject({ geography: "propi_[redacted]", status: 400 });
    expect(type).toMatchObject({ asset_type: "propi_[redacted]", status: 400 });
  });

  test("an unknown query parameter whose name is a key: redacted in detail, pointer and parameter", async () => {
    const res = await svc.get(`/v1/commercial/coverage?${svc.key}=1`);
    expect(res.statusCode).toBe(400);
    expectNoKey(res.body);
    expect(res.json().errors[0]).toMatchObject({ pointer: "/propi_[redacted]", parameter: "propi_[redacted]" });
  });

  test("an unknown body field whose name is a key: redacted in its pointer", async () => {
    const res = await svc.post("/v1/commercial/properties/compare", { property_ids: ["cp_1", "cp_2"], [svc.key]: 1 });
    expect(res.statusCode).toBe(400);
    expectNoKey(res.body);
    expect(res.json().errors[0].pointer).toBe("/propi_[redacted]");
  });

  test("a body that is not JSON, holding a key: the parse error quotes none of it", async () => {
    const res = await svc.app.inject({
      method: "POST",
      url: "/v1/commercial/properties/compare",
      headers: { authorization: `Bearer ${svc.key}`, "content-type": "application/json" },
      payload: `${svc.key}`,
    });
    expect(res.statusCode).toBe(400);
    expectNoKey(res.body);
  });

  test.each([
    ["a place", () => `/v1/commercial/markets/snapshot?geography=${svc.key}&asset_type=office`],
    ["a property id", () => `/v1/commercial/properties/${svc.key}`],
    ["an owner name", () => `/v1/commercial/owners/portfolio?owner_name=${svc.key}`],
    ["a metric", () => `/v1/commercial/markets/history?geography=TX&asset_type=office&metrics=${svc.key}`],
    ["an unknown path", () => `/v1/commercial/${svc.key}`],
  ])("%s that is a key is not echoed in the problem", async (_name, url) => {
    const res = await svc.get(url());
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expectNoKey(res.body);
  });
});
