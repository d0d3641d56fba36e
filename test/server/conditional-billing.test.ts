// What a conditional request costs and returns, on every path that takes one: an answer that
// is free carries no record data (a 304, a batch market with status 304, a compared property
// confirmed unchanged), and an answer that carries data is charged. "*" in a body's
// `if_none_match` is no validator of a held record and is refused free.
import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

const charged = (res: { headers: Record<string, unknown> }) => Number(res.headers["x-credits-charged"]);
const COMPARE = "/v1/commercial/properties/compare";
const FIELDS = ["name", "address", "estimated_value", "owner_name"];

function twoProperties(): string[] {
  return svc.snapshot.prepare("SELECT id FROM properties WHERE estimated_value IS NOT NULL ORDER BY id LIMIT 2").pluck().all() as string[];
}

describe("compare with if_none_match", () => {
  test('"*" for a property is refused free with a 400 naming its pointer, and no record comes back', async () => {
    const ids = twoProperties();
    const res = await svc.post(COMPARE, {
      property_ids: ids,
      fields: FIELDS,
      if_none_match: { [ids[0]]: "*", [ids[1]]: "*" },
    });
    expect(res.statusCode).toBe(400);
    expect(charged(res)).toBe(0);
    const body = res.json();
    expect(body.code).toBe("validation_failed");
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([`/if_none_match/${ids[0]}`, `/if_none_match/${ids[1]}`]);
    expect(body.properties).toBeUndefined();
  });

  test("every property confirmed unchanged: free, and the answer carries ids and ETags but no field or statistic", async () => {
    const ids = twoProperties();
    const first = await svc.post(COMPARE, { property_ids: ids, fields: FIELDS });
    expect(charged(first)).toBe(2);
    expect(first.json().properties[0].estimated_value).toEqual(expect.any(Number));
    const again = await svc.post(COMPARE, { property_ids: ids, fields: FIELDS, if_none_match: first.json().etags });
    expect(again.statusCode).toBe(200);
    expect(charged(again)).toBe(0);
    const body = again.json();
    expect(body.not_modified).toEqual(ids);
    expect(body.properties).toEqual(ids.map((id) => ({ id })));
    expect(body.statistics).toEqual([]);
    expect(body.etags).toEqual(first.json().etags);
  });

  test("one property changed: charged; the changed one comes in full, the unchanged one as its id only", async () => {
    const ids = twoProperties();
    const first = (await svc.post(COMPARE, { property_ids: ids, fields: FIELDS })).json();
    const res = await svc.post(COMPARE, {
      property_ids: ids,
      fields: FIELDS,
      if_none_match: { [ids[0]]: first.etags[ids[0]], [ids[1]]: '"not-its-etag"' },
    });
    expect(charged(res)).toBe(2);
    const body = res.json();
    expect(body.not_modified).toEqual([ids[0]]);
    expect(body.properties[0]).toEqual({ id: ids[0] });
    expect(body.properties[1]).toEqual(first.properties[1]);
    // Statistics are data: the charged answer has them.
    expect(body.statistics.map((s: { field: string }) => s.field)).toEqual(["estimated_value"]);
  });
});

describe("every conditional GET: a free answer carries no data, an answer with data is charged", () => {
  const paths: [string, () => string][] = [
    ["property detail", () => `/v1/commercial/properties/${twoProperties()[0]}`],
    ["a list", () => "/v1/commercial/properties?state_code=TX&limit=3"],
    ["property history", () => `/v1/commercial/properties/${pick(svc, "SELECT property_id FROM sales LIMIT 1").property_id}/history`],
    ["market snapshot", () => "/v1/commercial/markets/snapshot?geography=TX&asset_type=office"],
    ["market history", () => "/v1/commercial/markets/history?geography=TX&asset_type=office"],
  ];
  test.each(paths)(
    "%s: 200 with data is charged; If-None-Match with its ETag or * is a free 304 with an empty body",
    async (_name, url) => {
      const u = url();
      const first = await svc.get(u);
      expect(first.statusCode).toBe(200);
      expect(first.body.length).toBeGreaterThan(0);
      expect(charged(first)).toBeGreaterThan(0);
      for (const validator of [first.headers.etag as string, "*"]) {
        const again = await svc.get(u, { "if-none-match": validator });
        expect(again.statusCode).toBe(304);
        expect(again.body).toBe("");
        expect(charged(again)).toBe(0);
      }
    },
  );
});

describe("markets batch with if_none_match", () => {
  const BATCH = "/v1/commercial/markets/batch";
  const market = { geography: "TX", asset_type: "office" };

  test("a market confirmed unchanged is status 304 with no market and free; a market answered is charged", async () => {
    const first = await svc.post(BATCH, { markets: [market] });
    expect(charged(first)).toBe(1);
    const etag = first.json().results[0].etag;
    expect(first.json().results[0].market.id).toBe("mkt_TX_office");
    const again = await svc.post(BATCH, { markets: [{ ...market, if_none_match: etag }] });
    expect(charged(again)).toBe(0);
    expect(again.json().credits_charged).toBe(0);
    expect(again.json().results[0]).toMatchObject({ status: 304, market: null, etag, problem: null });
  });

  test('"*" for a market is refused for that market alone (400 naming if_none_match), free', async () => {
    const res = await svc.post(BATCH, {
      markets: [
        { ...market, if_none_match: "*" },
        { geography: "TX", asset_type: "industrial" },
      ],
    });
    expect(res.statusCode).toBe(200);
    const [star, other] = res.json().results;
    expect(star).toMatchObject({ status: 400, market: null, etag: null });
    expect(star.problem).toMatchObject({ code: "validation_failed", parameter: "if_none_match" });
    expect(other.status).toBe(200);
    expect(res.json().credits_charged).toBe(1);
    expect(charged(res)).toBe(1);
  });
});
