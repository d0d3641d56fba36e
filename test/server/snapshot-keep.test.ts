// Several snapshots served side by side: the service keeps each until its capture plus
// SNAPSHOTS_RETAIN_MONTHS (against its clock), closes one past that once its last request is answered, and answers a call from the snapshot it
// names (`snapshot=<id>` or `as_of=<date>`), body, ETag and X-Snapshot-Id alike; refusals are free.
import { etagOf } from "../../src/server/http/etag";
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";
import { type SnapshotContext, openContext } from "../../src/server/data/snapshot-context";
import { logSink } from "../helpers/log-sink";
import { type TestService, snapshotPath, startService } from "../helpers/service";

let dir: string;
/** The test snapshot (captured 2026-11-01), then two later ones. */
const files = { nov: "", dec: "", jan: "" };
const ids = { nov: "", dec: "", jan: "" };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-keep-"));
  files.nov = snapshotPath();
  files.dec = path.join(dir, "dec.db");
  files.jan = path.join(dir, "jan.db");
  ids.dec = buildSnapshot({ out: files.dec, seed: 21, properties: 300, capturedAt: "2026-12-01" }).id;
  ids.jan = buildSnapshot({ out: files.jan, seed: 22, properties: 300, capturedAt: "2027-01-01" }).id;
  const db = new Database(files.nov, { readonly: true });
  ids.nov = (db.prepare("SELECT value FROM snapshot_meta WHERE key = 'id'").pluck().get() as string) ?? "";
  db.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let svc: TestService;
let log: ReturnType<typeof logSink>;

/** The service's clock: tests move it forward to make snapshots' retention end. */
let clock: Date;
const now = () => clock;
beforeEach(() => {
  clock = new Date("2027-01-15T00:00:00Z");
});

/** A service that retains snapshots `months` after capture, serving nov, then the later ones rolled out in order. */
async function serving(months: number, ...later: ("dec" | "jan")[]): Promise<TestService> {
  log = logSink();
  svc = await startService({ logger: { level: "info", stream: log.stream }, now, snapshotsRetainMonths: months });
  for (const name of later) expect(await svc.app.liveSnapshot.rollout(files[name])).toMatchObject({ outcome: "switched", id: ids[name] });
  return svc;
}
afterEach(() => svc?.app.close());

const keptIds = () => svc.app.liveSnapshot.kept().map((s) => s.ref.id);
const context = (id: string): SnapshotContext => svc.app.liveSnapshot.kept().find((s) => s.ref.id === id)!;

describe("keeping snapshots until their capture plus the retention period", () => {
  test("a snapshot retires when the clock passes its capture plus SNAPSHOTS_RETAIN_MONTHS, and closes after its last request", async () => {
    clock = new Date("2026-12-15T00:00:00Z");
    await serving(2, "dec");
    expect(keptIds()).toEqual([ids.dec, ids.nov]);
    const nov = context(ids.nov);
    // A call pinned to nov is in flight when its retention ends (captured 2026-11-01, retained 2 months).
    const live = svc.app.liveSnapshot;
    const held = live.reselect(live.acquire(), { snapshot: ids.nov });
    expect(held).toBe(nov);
    clock = new Date("2026-12-31T23:59:59Z");
    expect(keptIds()).toEqual([ids.dec, ids.nov]);
    clock = new Date("2027-01-01T00:00:00Z");
    expect(keptIds()).toEqual([ids.dec]);
    expect(await live.rollout(files.jan)).toEqual({ outcome: "switched", id: ids.jan, previous_id: ids.dec });
    expect(keptIds()).toEqual([ids.jan, ids.dec]);
    expect(nov.retired).toBe(true);
    expect(nov.db.open).toBe(true); // still answering the call that named it
    live.release(held);
    expect(nov.db.open).toBe(false);
    expect(context(ids.dec).db.open).toBe(true);
    // No longer kept: a call naming it is refused.
    const res = await svc.get(`/v1/commercial/coverage?snapshot=${ids.nov}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("snapshot_not_found");
  });

  test("SNAPSHOTS_RETAIN_MONTHS=0 serves the latest only", async () => {
    await serving(0, "dec");
    expect(keptIds()).toEqual([ids.dec]);
  });

  test("a second snapshot with a kept one's id is refused; the same file again is a rollback to it", async () => {
    await serving(24, "dec", "jan");
    const twin = path.join(dir, "dec-rebuilt.db");
    fs.copyFileSync(files.dec, twin);
    const db = new Database(twin);
    db.prepare("UPDATE snapshot_meta SET value = '2026-12-02T08:00:00.000Z' WHERE key = 'built_at'").run();
    db.close();
    const refused = await svc.app.liveSnapshot.rollout(twin);
    expect(refused).toEqual({ outcome: "refused", id: ids.jan, reason: expect.stringMatching(`snapshot ${ids.dec} is already kept`) });
    expect(keptIds()).toEqual([ids.jan, ids.dec, ids.nov]);

    expect(await svc.app.liveSnapshot.rollout(files.dec)).toEqual({ outcome: "switched", id: ids.dec, previous_id: ids.jan });
    expect(svc.app.snapshot.ref.id).toBe(ids.dec);
    expect(keptIds()).toEqual([ids.jan, ids.dec, ids.nov]); // newest captured first; dec is now the latest
    expect(
      svc.app.liveSnapshot
        .keptList()
        .filter((k) => k.latest)
        .map((k) => k.id),
    ).toEqual([ids.dec]);
  });

  test("at start-up: the older snapshots still retained, one per id", async () => {
    const lines = logSink();
    const older = [openContext(files.nov), openContext(files.dec), openContext(files.dec)];
    svc = await startService({
      snapshotDb: new Database(files.jan, { readonly: true }),
      olderSnapshots: older,
      now,
      snapshotsRetainMonths: 2,
      logger: { level: "info", stream: lines.stream },
    });
    expect(keptIds()).toEqual([ids.jan, ids.dec]);
    expect(older.map((s) => s.db.open)).toEqual([false, true, false]); // nov retired 2027-01-01, dec's twin
  });
});

describe("selecting a snapshot", () => {
  beforeEach(() => serving(24, "dec", "jan"));

  test("by id and by date on a list endpoint; the latest by default", async () => {
    const cases: [string, string][] = [
      ["", ids.jan],
      [`&snapshot=${ids.nov}`, ids.nov],
      [`&snapshot=${ids.dec}`, ids.dec],
      ["&as_of=2026-11-01", ids.nov],
      ["&as_of=2026-12-31", ids.dec],
      ["&as_of=2027-01-01", ids.jan],
      ["&as_of=2030-01-01", ids.jan],
    ];
    for (const [selector, expected] of cases) {
      const res = await svc.get(`/v1/commercial/properties?limit=3${selector}`);
      expect([selector, res.statusCode, res.json().snapshot.id, res.headers["x-snapshot-id"]]).toEqual([selector, 200, expected, expected]);
      // Its records come from that snapshot.
      const first = res.json().data[0].id;
      expect(context(expected).get("SELECT id FROM properties WHERE id = ?", [first])).toBeTruthy();
    }
  });

  test("property detail: the document and ETag of the snapshot named", async () => {
    const novId = context(ids.nov).get<{ id: string }>("SELECT id FROM properties ORDER BY id LIMIT 1")!.id;
    const pinned = await svc.get(`/v1/commercial/properties/${novId}?snapshot=${ids.nov}`);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.body).toBe(context(ids.nov).propertyDoc(novId));
    expect(pinned.headers.etag).toBe(etagOf(context(ids.nov).propertyDoc(novId)!));
    expect(pinned.headers["x-snapshot-id"]).toBe(ids.nov);
    // Revalidating the pinned answer is a free 304.
    const again = await svc.get(`/v1/commercial/properties/${novId}?snapshot=${ids.nov}`, { "if-none-match": String(pinned.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers["x-credits-charged"]).toBe("0");
    const byDate = await svc.get(`/v1/commercial/properties/${novId}?as_of=2026-11-30`);
    expect(byDate.headers.etag).toBe(pinned.headers.etag);
  });

  test("compare (POST) and the markets batch answer from the snapshot named", async () => {
    const nov = context(ids.nov);
    const propertyIds = nov.all<{ id: string }>("SELECT id FROM properties ORDER BY id LIMIT 2").map((r) => r.id);
    const compared = await svc.post(`/v1/commercial/properties/compare?snapshot=${ids.nov}`, { property_ids: propertyIds });
    expect(compared.statusCode).toBe(200);
    expect(compared.json().snapshot.id).toBe(ids.nov);
    expect(compared.json().properties.map((p: { id: string }) => p.id)).toEqual(propertyIds);
    expect(compared.headers["x-snapshot-id"]).toBe(ids.nov);

    const market = nov.get<{ geography_id: string; asset_type: string }>(
      "SELECT geography_id, asset_type FROM markets WHERE geography_type = 'state' ORDER BY property_count DESC LIMIT 1",
    )!;
    const batch = await svc.post("/v1/commercial/markets/batch?as_of=2026-11-15", {
      markets: [{ geography: market.geography_id, asset_type: market.asset_type }],
    });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().snapshot.id).toBe(ids.nov);
    expect(batch.json().results[0].market.as_of).toBe("2026-11-01"); // nov's capture date
    const single = await svc.get(
      `/v1/commercial/markets/snapshot?geography=${market.geography_id}&asset_type=${market.asset_type}&as_of=2026-11-15`,
    );
    expect(batch.json().results[0].etag).toBe(single.headers.etag); // the same ETag as the single endpoint pinned alike
  });

  test("refusals: both selectors, a malformed one, an id not kept, a date before every capture; all free", async () => {
    const url = "/v1/commercial/properties?limit=3";
    const before = Number((await svc.get(url)).headers["x-credits-remaining"]);
    const refusals: [string, number, string, RegExp][] = [
      [`&snapshot=${ids.dec}&as_of=2026-12-01`, 400, "validation_failed", /Give snapshot or as_of, not both/],
      ["&as_of=2026-13-01", 400, "validation_failed", /as_of/],
      ["&as_of=yesterday", 400, "validation_failed", /as_of/],
      ["&snapshot=snap%20bad", 400, "validation_failed", /snapshot/],
      ["&snapshot=snap_000000000000", 404, "snapshot_not_found", new RegExp(`${ids.jan}.*${ids.dec}.*${ids.nov}`)],
      ["&as_of=2026-10-31", 404, "snapshot_not_found", /captured on or before 2026-10-31/],
    ];
    for (const [selector, status, code, detail] of refusals) {
      const res = await svc.get(`${url}${selector}`);
      expect([selector, res.statusCode, res.json().code]).toEqual([selector, status, code]);
      expect(JSON.stringify(res.json())).toMatch(detail);
      expect(res.headers["x-credits-charged"]).toBe("0");
      expect(Number(res.headers["x-credits-remaining"])).toBe(before);
    }
    const compare = await svc.post("/v1/commercial/properties/compare?snapshot=snap_000000000000", { property_ids: ["cp_a", "cp_b"] });
    expect([compare.statusCode, compare.json().code, compare.headers["x-credits-charged"]]).toEqual([404, "snapshot_not_found", "0"]);
  });

  test("coverage lists the snapshots kept, newest first, each with retires_at (capture plus 24 months), and honours snapshot=", async () => {
    const latest = (await svc.get("/v1/commercial/coverage")).json();
    expect(latest.snapshot.id).toBe(ids.jan);
    expect(latest.snapshots).toEqual([
      { id: ids.jan, captured_at: "2027-01-01T00:00:00Z", built_at: expect.any(String), retires_at: "2029-01-01T00:00:00Z", latest: true },
      { id: ids.dec, captured_at: "2026-12-01T00:00:00Z", built_at: expect.any(String), retires_at: "2028-12-01T00:00:00Z", latest: false },
      {
        id: ids.nov,
        captured_at: expect.stringMatching(/^2026-11-01/),
        built_at: expect.any(String),
        retires_at: expect.stringMatching(/^2028-11-01T/),
        latest: false,
      },
    ]);
    const pinned = (await svc.get(`/v1/commercial/coverage?snapshot=${ids.dec}`)).json();
    expect(pinned.snapshot.id).toBe(ids.dec);
    expect(pinned.counts.properties).toBe(300);
    expect(pinned.snapshots).toEqual(latest.snapshots);
  });
});

describe("a model pinned to last month", () => {
  test("the same property answers each month's document: changed ones differ, unchanged ones are the same text", async () => {
    const following = nextMonthSnapshot({ from: files.nov, out: path.join(dir, "nov-next.db") });
    log = logSink();
    svc = await startService({ logger: { level: "info", stream: log.stream } });
    await svc.app.liveSnapshot.rollout(following.path);
    const [before, after] = [context(ids.nov), context(following.id)];
    const ids2 = before.all<{ id: string }>("SELECT id FROM properties ORDER BY id").map((r) => r.id);
    const changed = ids2.find((id) => before.propertyDoc(id) !== after.propertyDoc(id))!;
    const same = ids2.find((id) => before.propertyDoc(id) === after.propertyDoc(id))!;
    for (const [id, differs] of [
      [changed, true],
      [same, false],
    ] as const) {
      const latest = await svc.get(`/v1/commercial/properties/${id}`);
      const pinned = await svc.get(`/v1/commercial/properties/${id}?as_of=2026-11-30`);
      expect([latest.headers["x-snapshot-id"], pinned.headers["x-snapshot-id"]]).toEqual([following.id, ids.nov]);
      expect(pinned.body).toBe(before.propertyDoc(id));
      expect(latest.body).toBe(after.propertyDoc(id));
      expect(latest.body !== pinned.body).toBe(differs);
    }
  });
});
