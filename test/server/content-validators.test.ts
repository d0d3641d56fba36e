// After a new snapshot, what the new data left as it was revalidates free and what changed is
// billed: validators cover content, not the snapshot it came from. The new snapshot here is the
// test snapshot with another id, one property's occupancy and one market's vacancy changed.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type TestService, pick, snapshotPath, startService } from "../helpers/service";

let dir: string;
let nextFile: string;
let changedProperty: string;
let sameProperties: string[];
let changedMarket: { geography: string; asset_type: string };
let sameMarket: { geography: string; asset_type: string };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-validators-"));
  nextFile = path.join(dir, "next.db");
  fs.copyFileSync(snapshotPath(), nextFile);
  const db = new Database(nextFile);
  const ids = db.prepare("SELECT id FROM properties WHERE occupancy_rate IS NOT NULL ORDER BY id LIMIT 4").pluck().all() as string[];
  [changedProperty, ...sameProperties] = ids;
  db.prepare("UPDATE properties SET occupancy_rate = 0.123 WHERE id = ?").run(changedProperty);
  db.prepare("UPDATE property_docs SET json = json_set(json, '$.occupancy_rate', 0.123) WHERE id = ?").run(changedProperty);
  const states = db
    .prepare("SELECT geography_id FROM markets WHERE geography_type = 'state' AND asset_type = 'office' LIMIT 2")
    .pluck()
    .all();
  [changedMarket, sameMarket] = (states as string[]).map((s) => ({ geography: s, asset_type: "office" }));
  db.prepare("UPDATE markets SET vacancy_rate = 0.321 WHERE geography_type = 'state' AND geography_id = ? AND asset_type = 'office'").run(
    changedMarket.geography,
  );
  db.prepare("UPDATE snapshot_meta SET value = 'snap_00000000e0e0' WHERE key = 'id'").run();
  db.prepare("UPDATE snapshot_meta SET value = '2026-12-01T00:00:00Z' WHERE key = 'captured_at'").run();
  db.prepare("UPDATE snapshot_meta SET value = '2026-12-01T01:00:00Z' WHERE key = 'built_at'").run();
  db.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let svc: TestService;
beforeEach(async () => {
  svc = await startService();
});
afterEach(() => svc.app.close());

const charged = (res: { headers: Record<string, unknown> }) => Number(res.headers["x-credits-charged"]);

test("property detail: the unchanged property's ETag still matches (free 304), the changed one's does not", async () => {
  const [same] = sameProperties;
  const before = await Promise.all([changedProperty, same].map((id) => svc.get(`/v1/commercial/properties/${id}`)));
  await svc.app.liveSnapshot.rollout(nextFile);
  const [changed, unchanged] = await Promise.all(
    [changedProperty, same].map((id, i) =>
      svc.get(`/v1/commercial/properties/${id}`, { "if-none-match": before[i].headers.etag as string }),
    ),
  );
  expect(unchanged.statusCode).toBe(304);
  expect(charged(unchanged)).toBe(0);
  expect(unchanged.headers["x-snapshot-id"]).toBe("snap_00000000e0e0");
  expect(changed.statusCode).toBe(200);
  expect(changed.json().occupancy_rate).toBe(0.123);
  expect(charged(changed)).toBe(1);
});

test("a list whose rows did not change revalidates free across snapshots; its body names the new snapshot", async () => {
  const { state_code } = pick(svc, "SELECT state_code FROM properties WHERE id = ?", sameProperties[0]);
  const listUrl = `/v1/commercial/assets/industrial/properties?limit=3&state_code=${state_code}`;
  const first = await svc.get(listUrl);
  await svc.app.liveSnapshot.rollout(nextFile);
  const again = await svc.get(listUrl, { "if-none-match": first.headers.etag as string });
  const ids = (first.json().data as { id: string }[]).map((r) => r.id);
  expect(ids).not.toContain(changedProperty);
  expect(again.statusCode).toBe(304);
  expect(charged(again)).toBe(0);
  // Without the validator the body is the same but for the snapshot it names.
  const fresh = await svc.get(listUrl);
  expect(fresh.json().snapshot.id).toBe("snap_00000000e0e0");
  expect({ ...fresh.json(), snapshot: null }).toEqual({ ...first.json(), snapshot: null });
  expect(fresh.headers.etag).toBe(first.headers.etag);
});

test("markets: a batch with the ETags held answers 304 for the unchanged market, bills only the changed one", async () => {
  const first = (await svc.post("/v1/commercial/markets/batch", { markets: [changedMarket, sameMarket] })).json();
  expect(first.credits_charged).toBe(2);
  const held = first.results.map((r: { etag: string }) => r.etag);
  expect(held.every((e: string) => e.startsWith('W/"'))).toBe(true);
  // The single endpoint gives the same validator.
  const single = await svc.get(`/v1/commercial/markets/snapshot?geography=${sameMarket.geography}&asset_type=office`);
  expect(single.headers.etag).toBe(held[1]);
  await svc.app.liveSnapshot.rollout(nextFile);
  const res = await svc.post("/v1/commercial/markets/batch", {
    markets: [
      { ...changedMarket, if_none_match: held[0] },
      { ...sameMarket, if_none_match: held[1] },
    ],
  });
  const body = res.json();
  expect(body.results.map((r: { status: number }) => r.status)).toEqual([200, 304]);
  expect(body.results[0].market.vacancy_rate).toBe(0.321);
  expect(body.results[1]).toMatchObject({ market: null, etag: held[1], problem: null });
  expect(body.credits_charged).toBe(1);
  expect(charged(res)).toBe(1);
  // The date a market is as of is not part of its validator: the unchanged one revalidates alone too.
  const alone = await svc.get(`/v1/commercial/markets/snapshot?geography=${sameMarket.geography}&asset_type=office`, {
    "if-none-match": held[1],
  });
  expect(alone.statusCode).toBe(304);
});

test("compare: every property unchanged with its ETag held is free; one changed bills the comparison", async () => {
  const first = (await svc.post("/v1/commercial/properties/compare", { property_ids: [changedProperty, ...sameProperties] })).json();
  const detail = await svc.get(`/v1/commercial/properties/${sameProperties[0]}`);
  expect(first.etags[sameProperties[0]]).toBe(detail.headers.etag); // one validator, two endpoints
  await svc.app.liveSnapshot.rollout(nextFile);
  const unchanged = await svc.post("/v1/commercial/properties/compare", {
    property_ids: sameProperties,
    if_none_match: first.etags,
  });
  expect(unchanged.statusCode).toBe(200);
  expect(unchanged.json().not_modified).toEqual(sameProperties);
  expect(charged(unchanged)).toBe(0);
  const mixed = await svc.post("/v1/commercial/properties/compare", {
    property_ids: [changedProperty, ...sameProperties],
    if_none_match: first.etags,
  });
  expect(mixed.json().not_modified).toEqual(sameProperties);
  expect(mixed.json().properties[0].occupancy_rate).toBe(0.123);
  expect(charged(mixed)).toBe(2);
});
