// Switching the served snapshot while the service runs: answers move from the old snapshot to
// the new one without a failed request, a request that arrived before the switch is answered
// from the old file (which closes after it), and a bad file is refused while the old one serves.
import { etagOf } from "../../src/server/http/etag";
import Database from "better-sqlite3";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { readMeta } from "../../src/snapshot/snapshot-file";
import type { SnapshotContext } from "../../src/server/data/snapshot-context";
import { logSink } from "../helpers/log-sink";
import { type TestService, pick, snapshotPath, startService } from "../helpers/service";

let dir: string;
let newFile: string;
let newId: string;
let oldId: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-rollout-"));
  newFile = path.join(dir, "next.db");
  newId = buildSnapshot({ out: newFile, seed: 11, properties: 400 }).id;
  oldId = readMeta(new Database(snapshotPath(), { readonly: true })).id;
  expect(newId).not.toBe(oldId);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let svc: TestService;
let log: ReturnType<typeof logSink>;
beforeEach(async () => {
  log = logSink();
  // One snapshot kept: these tests are about switching; keeping several is snapshot-keep.test.ts's.
  svc = await startService({ logger: { level: "info", stream: log.stream }, snapshotsRetainMonths: 0 });
  svc.accounts.setPlan(svc.accountId, "unlimited");
});
afterEach(() => svc.app.close());

/** Resolves once `ready()` holds, checking after each turn of the event loop (no timing involved). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setImmediate(r));
}

/** A copy of the new snapshot changed by `damage`, to offer the service. */
function damagedCopy(name: string, damage: (file: string) => void): string {
  const file = path.join(dir, name);
  fs.copyFileSync(newFile, file);
  damage(file);
  return file;
}

function editMeta(file: string, sql: string) {
  const db = new Database(file);
  db.exec(sql);
  db.close();
}

describe("snapshot rollout", () => {
  test("under concurrent requests over HTTP: none fails, answers switch from the old id to the new one", async () => {
    const base = await svc.app.listen({ port: 0, host: "127.0.0.1" });
    const old = svc.app.snapshot;
    const urls = ["/v1/commercial/coverage", "/v1/commercial/catalog", "/v1/commercial/properties?limit=3&state_code=TX"];
    const seen: { status: number; id: string; client: number }[] = [];
    let switched = false;
    let afterSwitch = 0;
    const client = async (n: number) => {
      for (let i = 0; !switched || afterSwitch < 60; i++) {
        const r = await fetch(`${base}${urls[(n + i) % urls.length]}`, { headers: { authorization: `Bearer ${svc.key}` } });
        const body = (await r.json()) as { snapshot: { id: string } };
        seen.push({ status: r.status, id: body.snapshot?.id, client: n });
        if (switched) afterSwitch++;
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    await until(() => seen.length >= 40);
    const outcome = await svc.app.liveSnapshot.rollout(newFile);
    switched = true;
    await Promise.all(clients);

    expect(outcome).toEqual({ outcome: "switched", id: newId, previous_id: oldId });
    expect(seen.filter((s) => s.status !== 200)).toEqual([]);
    expect(new Set(seen.map((s) => s.id))).toEqual(new Set([oldId, newId]));
    // Each client asks one request at a time: once it has an answer from the new snapshot, it never gets the old one again.
    for (let n = 0; n < 8; n++) {
      const ids = seen.filter((s) => s.client === n).map((s) => s.id);
      expect(ids.slice(ids.indexOf(newId))).not.toContain(oldId);
    }
    expect(svc.app.snapshot.ref.id).toBe(newId);
    expect(old.leases).toBe(0);
    expect(old.db.open).toBe(false);
    expect(log.text()).toMatch(/"msg":"snapshot switched"/);
  });

  test("a request that arrived before the switch is answered from the old file, which closes after it", async () => {
    const base = new URL(await svc.app.listen({ port: 0, host: "127.0.0.1" }));
    const old: SnapshotContext = svc.app.snapshot;
    const ids = [
      pick(svc, "SELECT id FROM properties ORDER BY id LIMIT 1").id,
      pick(svc, "SELECT id FROM properties ORDER BY id DESC LIMIT 1").id,
    ];
    const body = JSON.stringify({ property_ids: ids, fields: ["city"] });
    let pending: http.ClientRequest | undefined;
    const answer = new Promise<{ status: number; json: { snapshot: { id: string }; properties: { id: string }[] } }>((resolve, reject) => {
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: "POST",
          path: "/v1/commercial/properties/compare",
          headers: { authorization: `Bearer ${svc.key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10)); // the rest of the body comes after the switch
      pending = req;
    });
    await until(() => old.leases === 1); // the request has arrived and holds the snapshot

    expect(await svc.app.liveSnapshot.rollout(newFile)).toMatchObject({ outcome: "switched", id: newId });
    expect(old.retired).toBe(true);
    expect(old.db.open).toBe(true); // still held by the request in flight
    const during = await fetch(`${base.origin}/v1/commercial/coverage`, { headers: { authorization: `Bearer ${svc.key}` } });
    expect(((await during.json()) as { snapshot: { id: string } }).snapshot.id).toBe(newId);

    pending!.end(body.slice(10));
    const { status, json } = await answer;
    expect(status).toBe(200);
    expect(json.snapshot.id).toBe(oldId);
    expect(json.properties.map((p) => p.id)).toEqual(ids);
    expect(old.leases).toBe(0);
    expect(old.db.open).toBe(false);
  });

  test("coverage says which snapshot this node serves and since when", async () => {
    const beforeRes = await svc.get("/v1/commercial/coverage");
    const before = beforeRes.json();
    expect(before.snapshot.id).toBe(oldId);
    expect(beforeRes.headers["x-snapshot-id"]).toBe(oldId); // every answer names its snapshot
    expect(before.serving).toEqual({ node: expect.stringMatching(/^node_[0-9a-f]{10}$/), since: expect.any(String), previous_id: null });
    await svc.app.liveSnapshot.rollout(newFile);
    const afterRes = await svc.get("/v1/commercial/coverage");
    const after = afterRes.json();
    expect(after.snapshot.id).toBe(newId);
    expect(afterRes.headers["x-snapshot-id"]).toBe(newId);
    expect(after.serving.previous_id).toBe(oldId);
    expect(after.serving.node).toBe(before.serving.node); // the same process
    expect(Date.parse(after.serving.since)).toBeGreaterThanOrEqual(Date.parse(before.serving.since));
    // Nothing cached for the old snapshot reaches answers from the new one: not the catalog, not
    // a stored document (its ETag is the new file's document's).
    expect((await svc.get("/v1/commercial/catalog")).json().snapshot.id).toBe(newId);
    const newProperty = svc.app.snapshot.get<{ id: string }>("SELECT id FROM properties LIMIT 1")!.id;
    const detail = await svc.get(`/v1/commercial/properties/${newProperty}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().id).toBe(newProperty);
    expect(detail.headers.etag).toBe(etagOf(svc.app.snapshot.propertyDoc(newProperty)!));
    expect(detail.headers["x-snapshot-id"]).toBe(newId);
  });

  test("the same file again changes nothing", async () => {
    const sameFile = path.join(dir, "same.db");
    fs.copyFileSync(snapshotPath(), sameFile);
    const before = svc.app.snapshot;
    expect(await svc.app.liveSnapshot.rollout(sameFile)).toEqual({ outcome: "unchanged", id: oldId });
    expect(svc.app.snapshot).toBe(before);
    expect(before.db.open).toBe(true);
  });

  const badFiles: [string, () => string, RegExp][] = [
    ["a missing file", () => path.join(dir, "nowhere.db"), /there is no such file/],
    [
      "a file that is not SQLite",
      () => damagedCopy("text.db", (f) => fs.writeFileSync(f, "id,name\n1,not a database\n".repeat(400))),
      /not a database/,
    ],
    [
      "a truncated file",
      () => damagedCopy("truncated.db", (f) => fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2))),
      /damaged|malformed/,
    ],
    [
      "a file with damaged pages",
      () =>
        damagedCopy("damaged.db", (f) => {
          const fd = fs.openSync(f, "r+");
          const size = fs.statSync(f).size;
          for (const at of [0.3, 0.5, 0.7]) fs.writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, Math.floor((size * at) / 4096) * 4096);
          fs.closeSync(fd);
        }),
      /damaged|malformed/,
    ],
    [
      "an older format",
      () => damagedCopy("old-format.db", (f) => editMeta(f, "UPDATE snapshot_meta SET value = '3' WHERE key = 'format'")),
      /format 3/,
    ],
    [
      "missing meta",
      () => damagedCopy("no-coverage.db", (f) => editMeta(f, "DELETE FROM snapshot_meta WHERE key = 'coverage'")),
      /meta 'coverage' is missing/,
    ],
    ["no meta table", () => damagedCopy("no-meta.db", (f) => editMeta(f, "DROP TABLE snapshot_meta")), /no snapshot meta/],
    [
      "the properties table dropped",
      () => damagedCopy("no-properties.db", (f) => editMeta(f, "DROP TABLE properties")),
      /lacks the snapshot layout: table properties is missing/,
    ],
    [
      "an id that is not a snapshot id",
      () => damagedCopy("evil-id.db", (f) => editMeta(f, "UPDATE snapshot_meta SET value = '../../evil' WHERE key = 'id'")),
      /its id "\.\.\/\.\.\/evil" is not a snapshot id/,
    ],
    ["a file in WAL mode", () => damagedCopy("wal.db", (f) => editMeta(f, "PRAGMA journal_mode = WAL")), /it is in WAL mode/],
  ];
  test.each(badFiles)("%s is refused, logged, and the old snapshot keeps serving", async (_kind, make, reason) => {
    const file = make();
    const before = svc.app.snapshot;
    const outcome = await svc.app.liveSnapshot.rollout(file);
    expect(outcome).toEqual({ outcome: "refused", id: oldId, reason: expect.stringMatching(reason) });
    expect(svc.app.snapshot).toBe(before);
    expect(before.db.open).toBe(true);
    const res = await svc.get("/v1/commercial/coverage");
    expect(res.statusCode).toBe(200);
    expect(res.json().snapshot.id).toBe(oldId);
    expect(res.json().serving.previous_id).toBeNull();
    expect(log.text()).toMatch(/"msg":"snapshot refused: still serving the current one"/);
  });

  test("rollouts asked for during one run after it, one at a time", async () => {
    const live = svc.app.liveSnapshot;
    const first = live.rollout(newFile);
    const second = live.rollout(snapshotPath());
    const third = live.rollout(snapshotPath());
    expect(second).toBe(third);
    expect(await first).toMatchObject({ outcome: "switched", id: newId });
    expect(await second).toEqual({ outcome: "switched", id: oldId, previous_id: newId });
    expect(svc.app.snapshot.ref.id).toBe(oldId);
  });
});
