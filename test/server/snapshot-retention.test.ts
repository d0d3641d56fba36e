// Retention by date: a snapshot is served until its capture plus SNAPSHOTS_RETAIN_MONTHS, against
// the service's clock; the rule (keptBeside) is the one the service and the rollout command share.
// A pin to data no longer served is a free 404 that says so, with its facts as fields.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { type SnapshotStamp, keptBeside, retiresAt } from "../../src/server/data/snapshot-select";
import { type TestService, startService } from "../helpers/service";

const stamp = (id: string, captured_at: string): { stamp: SnapshotStamp } => ({
  stamp: { id, captured_at, built_at: captured_at },
});

describe("the retention rule", () => {
  test("retiresAt adds calendar months, ending on the last day of a shorter month", () => {
    expect(retiresAt("2026-11-01T00:00:00Z", 24)).toBe("2028-11-01T00:00:00Z");
    expect(retiresAt("2026-01-31T10:30:00Z", 1)).toBe("2026-02-28T10:30:00Z");
    expect(retiresAt("2027-01-31T00:00:00Z", 13)).toBe("2028-02-29T00:00:00Z");
    expect(retiresAt("2026-11-01T00:00:00.250Z", 0)).toBe("2026-11-01T00:00:00.250Z");
  });

  test("keptBeside keeps the older snapshots whose capture plus the months is after now, one per id, never the latest's id", () => {
    const candidates = [
      stamp("snap_a", "2025-01-01T00:00:00Z"),
      stamp("snap_b", "2025-06-01T00:00:00Z"),
      stamp("snap_c", "2026-06-01T00:00:00Z"),
      stamp("snap_latest", "2026-05-01T00:00:00Z"),
    ];
    const at = (now: string, months: number) => {
      const { kept, dropped } = keptBeside(candidates, "snap_latest", { months, now: new Date(now) });
      return { kept: kept.map((k) => k.stamp.id), dropped: dropped.map((d) => d.stamp.id) };
    };
    expect(at("2026-11-27T00:00:00Z", 24)).toEqual({ kept: ["snap_c", "snap_b", "snap_a"], dropped: ["snap_latest"] });
    // snap_a retires 2026-01-01 with 12 months; snap_b on 2026-06-01 exactly.
    expect(at("2026-05-31T23:59:59Z", 12)).toEqual({ kept: ["snap_c", "snap_b"], dropped: ["snap_latest", "snap_a"] });
    expect(at("2026-06-01T00:00:00Z", 12)).toEqual({ kept: ["snap_c"], dropped: ["snap_latest", "snap_b", "snap_a"] });
    expect(at("2026-11-27T00:00:00Z", 0)).toEqual({ kept: [], dropped: ["snap_c", "snap_latest", "snap_b", "snap_a"] });
    // The same stamps again under the first retention: a retirement remembered for a stamp is its months' only.
    expect(at("2026-11-27T00:00:00Z", 24)).toEqual({ kept: ["snap_c", "snap_b", "snap_a"], dropped: ["snap_latest"] });
  });
});

describe("a pin to a retired snapshot", () => {
  let dir: string;
  let svc: TestService;
  const ids = { dec: "", jan: "", nov: "" };
  let clock: Date;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-retention-"));
    const dec = path.join(dir, "dec.db");
    const jan = path.join(dir, "jan.db");
    ids.dec = buildSnapshot({ out: dec, seed: 31, properties: 200, capturedAt: "2026-12-01" }).id;
    ids.jan = buildSnapshot({ out: jan, seed: 32, properties: 200, capturedAt: "2027-01-01" }).id;
    clock = new Date("2026-12-15T00:00:00Z");
    // Retained 2 months: the test snapshot (captured 2026-11-01) retires on 2027-01-01.
    svc = await startService({ now: () => clock, snapshotsRetainMonths: 2 });
    ids.nov = svc.app.snapshot.ref.id;
    await svc.app.liveSnapshot.rollout(dec);
    await svc.app.liveSnapshot.rollout(jan);
    clock = new Date("2027-01-20T00:00:00Z");
  }, 180_000);
  afterAll(async () => {
    await svc.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a date pin whose data is past retention is a free 404 saying it retired, with retired, retired_by, kept and retain_months", async () => {
    const url = "/v1/commercial/properties?limit=2";
    const before = Number((await svc.get(url)).headers["x-credits-remaining"]);
    const res = await svc.get(`${url}&as_of=2026-11-15`);
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body).toMatchObject({
      code: "snapshot_not_found",
      kept: [ids.jan, ids.dec],
      retain_months: 2,
      retired: true,
      retired_by: "2027-01-15T23:59:59Z",
    });
    expect(body.detail).toMatch(/^The data of 2026-11-15 is no longer served: .* retired by 2027-01-15\./);
    expect(body.detail).toContain("Freeze");
    expect(body.detail).toContain(`move the pin to the latest snapshot (${ids.jan})`);
    expect(res.headers["x-credits-charged"]).toBe("0");
    expect(Number(res.headers["x-credits-remaining"])).toBe(before);
  });

  test("an id no longer kept is a free 404 that names the kept ids and the retention, without claiming when it retired", async () => {
    const res = await svc.get(`/v1/commercial/coverage?snapshot=${ids.nov}`);
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body).toMatchObject({ code: "snapshot_not_found", kept: [ids.jan, ids.dec], retain_months: 2 });
    expect(body.retired).toBeUndefined();
    expect(body.retired_by).toBeUndefined();
    expect(body.detail).toMatch(
      new RegExp(`^Snapshot ${ids.nov} is not one this service keeps: it was retired or never published here\\.`),
    );
    expect(res.headers["x-credits-charged"]).toBe("0");
  });

  test("a date whose retention has not ended but older than every kept capture is not called retired; an older one is", async () => {
    const res = await svc.get("/v1/commercial/coverage?as_of=2026-10-01");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ retired: true });
    const recent = await svc.get("/v1/commercial/coverage?as_of=2026-11-30");
    expect(recent.json()).toMatchObject({ code: "snapshot_not_found", retired: false });
    expect(recent.json().detail).toMatch(/^No snapshot this service keeps was captured on or before 2026-11-30\./);
  });

  test("coverage gives each kept snapshot's retires_at: capture plus the retention period", async () => {
    const res = await svc.get("/v1/commercial/coverage");
    expect(res.json().snapshots.map((s: { id: string; retires_at: string }) => [s.id, s.retires_at])).toEqual([
      [ids.jan, "2027-03-01T00:00:00Z"],
      [ids.dec, "2027-02-01T00:00:00Z"],
    ]);
  });
});
