// Comps an appraiser would pick: recent sales first (the model's prefer_sold_within_months),
// months since each sale counted to the capture, and comps of the subject's own kind of use.
import { RECENT_MONTHS } from "../../src/contract/model-comps";
import { haversineMiles } from "../../src/server/data/stats";
import { captureDayOf, recencySubjects, staleShare } from "../../scripts/comp-recency";
import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

test("over 20+ subjects of several asset types with 10+ recent sales around them, at most 10% of the model's comps are over 5 years old", async () => {
  const subjects = recencySubjects(svc.snapshot, 6);
  const r = await staleShare(svc.get, captureDayOf(svc.snapshot), subjects, true);
  expect(r.subjects).toBeGreaterThanOrEqual(20);
  expect(r.types).toBeGreaterThanOrEqual(4);
  expect(r.comps).toBeGreaterThanOrEqual(r.subjects * 5);
  expect(r.stale / r.comps).toBeLessThanOrEqual(0.1);
});

test("months_since_sale counts whole months to the capture; recent sales come first and older ones only fill the page", async () => {
  const subject = pick(
    svc,
    `SELECT p.id FROM properties p JOIN sales s ON s.asset_type = p.asset_type AND s.metro_id = p.metro_id AND s.property_id <> p.id
     WHERE p.metro_id IS NOT NULL AND p.asset_type NOT IN ('specialty', 'land', 'sports-and-entertainment')
     GROUP BY p.id HAVING count(*) > 40 ORDER BY count(*) DESC, p.id LIMIT 1`,
  ).id as string;
  const url = `/v1/commercial/sale-comps?property_id=${subject}&max_distance_miles=100&limit=100`;
  const all = (await svc.get(url)).json().data as Array<{ sale_date: string; months_since_sale: number }>;
  const capture = captureDayOf(svc.snapshot);
  const month = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  for (const c of all) expect(c.months_since_sale).toBe(month(capture) - month(c.sale_date));
  // Not vacuous: the subject has both recent and older sales around it.
  const within = 24;
  expect(all.some((c) => c.months_since_sale <= within) && all.some((c) => c.months_since_sale > within)).toBe(true);
  const preferred = (await svc.get(`${url}&prefer_sold_within_months=${within}`)).json().data as typeof all;
  expect(preferred).toHaveLength(all.length);
  const recent = preferred.filter((c) => c.months_since_sale <= within).length;
  expect(preferred.slice(0, recent).every((c) => c.months_since_sale <= within)).toBe(true);
  expect(preferred.slice(recent).every((c) => c.months_since_sale > within)).toBe(true);
});

test("prefer_sold_within_months needs a subject: in a place it is refused free", async () => {
  const res = await svc.get(`/v1/commercial/sale-comps?state_code=TX&prefer_sold_within_months=${RECENT_MONTHS}`);
  expect(res.statusCode).toBe(400);
  expect(res.headers["x-credits-charged"]).toBe("0");
  expect(res.json().errors[0]).toMatchObject({ parameter: "prefer_sold_within_months" });
});

test("a self-storage subject's comps are self-storage and light-industrial flex sales, never the other specialty uses around it", async () => {
  const subjects = svc.snapshot
    .prepare("SELECT id, latitude, longitude FROM properties WHERE asset_type = 'specialty' AND subtype = 'self-storage' ORDER BY id")
    .all() as Array<{ id: string; latitude: number; longitude: number }>;
  const radius = 150;
  const others = svc.snapshot
    .prepare("SELECT latitude, longitude FROM sales WHERE asset_type = 'specialty' AND subtype <> 'self-storage'")
    .all() as Array<{ latitude: number; longitude: number }>;
  // A subject with sales of other specialty uses (parking, churches, car washes, data centers) in its radius.
  const subject = subjects.find((s) => others.some((o) => haversineMiles(s.latitude, s.longitude, o.latitude, o.longitude) <= radius));
  expect(subject).toBeDefined();
  const res = await svc.get(`/v1/commercial/sale-comps?property_id=${subject!.id}&max_distance_miles=${radius}&limit=100`);
  expect(res.statusCode).toBe(200);
  const kinds = new Set((res.json().data as Array<{ asset_type: string; subtype: string }>).map((c) => `${c.asset_type}/${c.subtype}`));
  expect(kinds.size).toBeGreaterThan(0);
  for (const kind of kinds) expect(["specialty/self-storage", "flex/light-industrial-flex"]).toContain(kind);
  // A caller who names the asset type gets that type's sales, every use of it.
  const typed = await svc.get(
    `/v1/commercial/sale-comps?property_id=${subject!.id}&asset_type=specialty&max_distance_miles=${radius}&limit=100`,
  );
  expect((typed.json().data as Array<{ subtype: string }>).some((c) => c.subtype !== "self-storage")).toBe(true);
});
