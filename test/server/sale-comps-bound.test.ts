// A search around a subject with more candidate sales than one request ranks is refused free,
// never ranked from part of them. The bound is lowered here so the test snapshot can pass it.
import { pick, startService, type TestService } from "../helpers/service";

jest.mock("../../src/server/data/search-bounds", () => ({ MAX_COMP_CANDIDATES: 5 }));

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

/** A subject with many sales of its asset type in its metro, and a radius wide enough to hold them. */
const busySubject = () =>
  pick(
    svc,
    `SELECT p.id FROM properties p JOIN sales s ON s.asset_type = p.asset_type AND s.metro_id = p.metro_id AND s.property_id <> p.id
     WHERE p.metro_id IS NOT NULL GROUP BY p.id HAVING count(*) > 5 ORDER BY count(*) DESC LIMIT 1`,
  );

test("more candidate sales than the bound: a free 400 naming max_distance_miles, not a list ranked from part of them", async () => {
  const res = await svc.get(`/v1/commercial/sale-comps?property_id=${busySubject().id}&max_distance_miles=250`);
  expect(res.statusCode).toBe(400);
  expect(res.headers["x-credits-charged"]).toBe("0");
  const body = res.json();
  expect(body.code).toBe("validation_failed");
  expect(body.detail).toMatch(/More than 5 sales .* within about 250 miles/);
  expect(body.errors[0]).toMatchObject({ pointer: "/max_distance_miles", parameter: "max_distance_miles" });
});

test("within the bound the same subject is answered", async () => {
  const res = await svc.get(`/v1/commercial/sale-comps?property_id=${busySubject().id}&max_distance_miles=0.01`);
  expect(res.statusCode).toBe(200);
  expect(res.json().total_count).toBeLessThanOrEqual(5);
});
