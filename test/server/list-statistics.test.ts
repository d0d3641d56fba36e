// Lists answer for the whole result: `stats=true` on sale comps summarises every matching sale
// (equal to a computation over every page), `total_count` counts every match, and a list that
// matches nothing is an empty 200 that costs nothing.
import { fieldStatistics } from "../../src/contract/statistics";
import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

/** Every record of a list, page by page (20 at a time, so a test's result spans pages), and its total. */
async function allPages(url: string): Promise<{ rows: Record<string, unknown>[]; total: number; pages: number }> {
  const rows: Record<string, unknown>[] = [];
  let offset = 0;
  let total = -1;
  let pages = 0;
  for (;;) {
    const body = (await svc.get(`${url}&limit=20&offset=${offset}`)).json();
    pages++;
    if (total < 0) total = body.total_count;
    rows.push(...body.data);
    if (body.next_offset === null) break;
    offset = body.next_offset;
  }
  return { rows, total, pages };
}

/** The state and asset type with the most sales (more than two pages). */
const busiest = () => pick(svc, "SELECT state_code, asset_type, count(*) n FROM sales GROUP BY 1, 2 HAVING n > 40 ORDER BY n DESC LIMIT 1");

describe("sale comps with stats=true", () => {
  const numeric = ["sale_price", "price_per_sqft", "cap_rate", "building_area_sqft", "year_built", "distance_miles", "similarity_score"];

  test("in a place: the statistics equal a computation over every matching sale, not the page", async () => {
    const s = busiest();
    const url = `/v1/commercial/sale-comps?state_code=${s.state_code}&asset_type=${s.asset_type}`;
    const res = await svc.get(`${url}&stats=true&limit=10`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(10);
    const { rows, total, pages } = await allPages(url);
    expect(pages).toBeGreaterThan(1);
    expect(rows).toHaveLength(total);
    const byField = new Map((body.statistics as { field: string }[]).map((st) => [st.field, st]));
    for (const expected of fieldStatistics(rows, numeric)) expect(byField.get(expected.field)).toEqual(expected);
    // The page's own median is not the answer: the statistics are over all the sales.
    expect(byField.get("sale_price")).not.toEqual(fieldStatistics(body.data, ["sale_price"])[0]);
  });

  test("around a subject: over every comp within the radius, whatever limit and offset", async () => {
    const subject = pick(
      svc,
      `SELECT p.id FROM properties p JOIN sales s ON s.asset_type = p.asset_type AND s.metro_id = p.metro_id AND s.property_id <> p.id
       WHERE p.metro_id IS NOT NULL GROUP BY p.id ORDER BY count(*) DESC LIMIT 1`,
    );
    const url = `/v1/commercial/sale-comps?property_id=${subject.id}&max_distance_miles=100`;
    const body = (await svc.get(`${url}&stats=true&limit=5&offset=3`)).json();
    const { rows, total } = await allPages(url);
    expect(total).toBeGreaterThan(5);
    expect(body.total_count).toBe(total);
    const byField = new Map((body.statistics as { field: string }[]).map((st) => [st.field, st]));
    for (const expected of fieldStatistics(rows, numeric)) expect(byField.get(expected.field)).toEqual(expected);
  });

  test("statistics come only when asked, cover every numeric field of a comp, and cost the call's price", async () => {
    const s = busiest();
    const url = `/v1/commercial/sale-comps?state_code=${s.state_code}&asset_type=${s.asset_type}`;
    expect((await svc.get(url)).json()).not.toHaveProperty("statistics");
    const res = await svc.get(`${url}&stats=true`);
    expect(res.headers["x-credits-charged"]).toBe("2");
    expect(res.json().statistics.map((st: { field: string }) => st.field)).toEqual(
      expect.arrayContaining(["sale_price", "price_per_sqft", "cap_rate", "similarity_score"]),
    );
    expect((await svc.get(`${url}&stats=maybe`)).statusCode).toBe(400);
  });
});

describe("total_count and empty lists", () => {
  test("total_count is every match: per_property=latest counts buildings, not sales", async () => {
    const s = busiest();
    const latest = pick(
      svc,
      "SELECT count(DISTINCT property_id) n FROM sales WHERE state_code = ? AND asset_type = ?",
      s.state_code,
      s.asset_type,
    ).n;
    const url = `/v1/commercial/sale-comps?state_code=${s.state_code}&asset_type=${s.asset_type}&per_property=latest`;
    const { rows, total } = await allPages(url);
    expect({ total, rows: rows.length }).toEqual({ total: latest, rows: latest });
  });

  test.each([
    ["sale comps", "/v1/commercial/sale-comps?state_code=TX&min_price=900000000"],
    ["sale comps with stats", "/v1/commercial/sale-comps?state_code=TX&min_price=900000000&stats=true"],
    ["property search", "/v1/commercial/properties?state_code=TX&min_building_area_sqft=900000000"],
    ["listings", "/v1/listings/search?geography=TX&min_price=900000000"],
    ["parcels", "/v1/parcels?state_code=TX&apn=no-such-apn"],
    ["companies", "/v1/commercial/companies/owner?q=zzzznothingzzzz"],
  ])("%s matching nothing: 200, an empty list with total_count 0, and free", async (_name, url) => {
    const res = await svc.get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-credits-charged"]).toBe("0");
    const body = res.json();
    expect({ data: body.data, total_count: body.total_count, has_more: body.has_more }).toEqual({
      data: [],
      total_count: 0,
      has_more: false,
    });
  });

  test("an empty statistics answer counts nothing in every field", async () => {
    const body = (await svc.get("/v1/commercial/sale-comps?state_code=TX&min_price=900000000&stats=true")).json();
    expect(body.statistics.length).toBeGreaterThan(0);
    for (const st of body.statistics) expect(st).toEqual({ field: st.field, count: 0, mean: null, min: null, median: null, max: null });
  });

  test("a page past the end of a non-empty result costs the price: it still answers total_count", async () => {
    const s = busiest();
    const res = await svc.get(`/v1/commercial/sale-comps?state_code=${s.state_code}&asset_type=${s.asset_type}&offset=10000`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], total_count: s.n });
    expect(res.headers["x-credits-charged"]).toBe("2");
  });
});
