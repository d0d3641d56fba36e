// The service keeps several snapshots and any call may name one: by id (`snapshot=`) or by date
// (`as_of=`, the newest captured on or before it). A rollout keeps the snapshot it replaces; the
// oldest beyond SNAPSHOTS_KEEP is retired after its last request; a restart opens the kept ones
// again from DATA_DIR/snapshots.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseSnapshotsKeep } from "../../src/server/config";
import { keepReplaced, openKept } from "../../src/server/kept-snapshots";
import { readMeta } from "../../src/snapshot/snapshot-file";
import { type TestService, snapshotPath, startService } from "../helpers/service";

let dir: string;
let firstId: string;
let property: string;
/** Month n after the test snapshot (captured 1 November 2026): another id, captured n months later, the property's occupancy 0.1 * n. */
const month: Record<number, string> = {};

function monthCopy(n: number): string {
  const file = path.join(dir, `month-${n}.db`);
  fs.copyFileSync(snapshotPath(), file);
  const db = new Database(file);
  db.prepare("UPDATE properties SET occupancy_rate = ? WHERE id = ?").run(n / 10, property);
  db.prepare("UPDATE property_docs SET json = json_set(json, '$.occupancy_rate', ?) WHERE id = ?").run(n / 10, property);
  const set = db.prepare("UPDATE snapshot_meta SET value = ? WHERE key = ?");
  const day = new Date(Date.UTC(2026, 10 + n, 1)).toISOString().slice(0, 10);
  set.run(`snap_month${n}`, "id");
  set.run(`${day}T00:00:00Z`, "captured_at");
  set.run(`${day}T06:00:00Z`, "built_at");
  db.close();
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-kept-"));
  const db = new Database(snapshotPath(), { readonly: true });
  firstId = readMeta(db).id;
  property = db.prepare("SELECT id FROM properties WHERE occupancy_rate IS NOT NULL ORDER BY id LIMIT 1").pluck().get() as string;
  db.close();
  month[1] = monthCopy(1);
  month[2] = monthCopy(2);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let svc: TestService;
beforeEach(() => {
  svc = startService({ snapshotsKeep: 2 });
});
afterEach(() => svc.app.close());

const occupancy = async (query: string) => {
  const res = await svc.get(`/v1/commercial/properties/${property}${query}`);
  return { status: res.statusCode, snapshot: res.headers["x-snapshot-id"], occupancy: res.json().occupancy_rate, body: res.json() };
};

test("a rollout keeps the snapshot it replaces; the oldest beyond SNAPSHOTS_KEEP is retired after its last request", async () => {
  const first = svc.app.snapshot;
  await svc.app.liveSnapshot.rollout(month[1]);
  expect(first.db.open).toBe(true); // kept: calls may name it
  expect((await occupancy(`?snapshot=${firstId}`)).snapshot).toBe(firstId);
  const held = svc.app.liveSnapshot.acquire({ snapshot: firstId }); // a request still answering from it
  await svc.app.liveSnapshot.rollout(month[2]);
  expect(first.retired).toBe(true);
  expect(first.db.open).toBe(true);
  svc.app.liveSnapshot.release(held);
  expect(first.db.open).toBe(false);
  const coverage = (await svc.get("/v1/commercial/coverage")).json();
  expect(coverage.snapshots).toEqual([
    { id: "snap_month2", captured_at: "2027-01-01T00:00:00Z", built_at: "2027-01-01T06:00:00Z", latest: true },
    { id: "snap_month1", captured_at: "2026-12-01T00:00:00Z", built_at: "2026-12-01T06:00:00Z", latest: false },
  ]);
  const gone = await svc.get(`/v1/commercial/properties/${property}?snapshot=${firstId}`);
  expect(gone.statusCode).toBe(404);
  expect(gone.json()).toMatchObject({ code: "snapshot_not_found", kept: ["snap_month2", "snap_month1"] });
});

test("snapshot= and as_of= choose the snapshot of every kind of call: detail, a list, a comparison, a markets batch, coverage", async () => {
  await svc.app.liveSnapshot.rollout(month[1]);
  expect(await occupancy("")).toMatchObject({ snapshot: "snap_month1", occupancy: 0.1 });
  const old = await occupancy(`?snapshot=${firstId}`);
  expect(old.snapshot).toBe(firstId);
  expect(old.occupancy).not.toBe(0.1);
  expect((await occupancy("?as_of=2026-12-15")).snapshot).toBe("snap_month1");
  expect((await occupancy("?as_of=2026-11-30")).snapshot).toBe(firstId);

  const list = (await svc.get(`/v1/commercial/properties?limit=1&snapshot=${firstId}`)).json();
  expect(list.snapshot.id).toBe(firstId);
  const ids = (await svc.get("/v1/commercial/properties?limit=2")).json().data.map((p: { id: string }) => p.id);
  const compared = (await svc.post(`/v1/commercial/properties/compare?as_of=2026-11-30`, { property_ids: ids })).json();
  expect(compared.snapshot.id).toBe(firstId);
  const batch = (
    await svc.post(`/v1/commercial/markets/batch?snapshot=${firstId}`, { markets: [{ geography: "TX", asset_type: "office" }] })
  ).json();
  expect(batch.snapshot.id).toBe(firstId);
  const coverage = (await svc.get(`/v1/commercial/coverage?snapshot=${firstId}`)).json();
  expect(coverage.snapshot.id).toBe(firstId);
  expect(coverage.snapshots.map((s: { id: string; latest: boolean }) => [s.id, s.latest])).toEqual([
    ["snap_month1", true],
    [firstId, false],
  ]);
});

test("a snapshot not kept, a date before every snapshot, both selectors, or a malformed one: refused, free of charge", async () => {
  const cases: [string, number, string][] = [
    ["?snapshot=snap_never", 404, "snapshot_not_found"],
    ["?as_of=2001-01-01", 404, "snapshot_not_found"],
    [`?snapshot=${firstId}&as_of=2026-12-01`, 400, "validation_failed"],
    ["?as_of=2026-13-01", 400, "validation_failed"],
    ["?snapshot=snap%20x", 400, "validation_failed"],
  ];
  for (const [query, status, code] of cases) {
    const res = await svc.get(`/v1/commercial/properties/${property}${query}`);
    const charged = Number(res.headers["x-credits-charged"] ?? 0);
    expect({ query, status: res.statusCode, code: res.json().code, charged }).toEqual({ query, status, code, charged: 0 });
  }
  const unknown = (await svc.get(`/v1/commercial/properties/${property}?snapshot=snap_never`)).json();
  expect(unknown.detail).toMatch(
    new RegExp(`Snapshot snap_never is not one this service keeps; it keeps ${firstId} \\(captured 2026-11-01\\)`),
  );
});

test("publishing keeps the replaced file in DATA_DIR/snapshots, newest keep - 1 of them; a restart opens them again", () => {
  const kept = path.join(dir, "snapshots");
  const target = path.join(dir, "current.db");
  fs.copyFileSync(snapshotPath(), target);
  expect(keepReplaced(target, kept, 3)).toBe(firstId);
  // Publishing renames a new file over the path: the kept link keeps the old file.
  const publish = (file: string) => {
    fs.copyFileSync(file, `${target}.new`);
    fs.renameSync(`${target}.new`, target);
  };
  publish(month[1]);
  expect(keepReplaced(target, kept, 3)).toBe("snap_month1");
  publish(month[2]);
  expect(keepReplaced(target, kept, 3)).toBe("snap_month2");
  // Three replaced, two kept (the latest is the third of three).
  expect(fs.readdirSync(kept).sort()).toEqual(["snap_month1.db", "snap_month2.db"]);
  fs.writeFileSync(path.join(kept, "junk.db"), "not a snapshot");
  const skipped: string[] = [];
  const opened = openKept(kept, "snap_month2", 3, (file) => skipped.push(path.basename(file)));
  expect(opened.map((c) => c.ref.id)).toEqual(["snap_month1"]);
  expect(skipped).toEqual(["junk.db"]);
  for (const c of opened) c.close();
});

test("SNAPSHOTS_KEEP: 3 unless set, a whole number from 1 to 24", () => {
  expect(parseSnapshotsKeep(undefined)).toBe(3);
  expect(parseSnapshotsKeep("1")).toBe(1);
  expect(parseSnapshotsKeep("24")).toBe(24);
  for (const bad of ["0", "25", "2.5", "three", "-1"])
    expect(() => parseSnapshotsKeep(bad)).toThrow(/SNAPSHOTS_KEEP must be a whole number from 1 to 24/);
});
