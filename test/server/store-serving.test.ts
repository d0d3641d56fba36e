// The service serving a store of snapshots: a refresh (SIGHUP) serves what the store holds now,
// opening a version just published and the one that was the newest again as an older version
// (the older ones serve on, on their own connections), and retiring what the store no longer
// serves (withdrawn, or past retention); a store that cannot be read changes nothing. The newest version's read is renewed while idle, so a
// publish's write-ahead log can be emptied, and a renewal that finds a newer version serves it.
import fs from "node:fs";
import path from "node:path";
import { publishToStore, withdrawLatest } from "../../src/snapshot/store/store-publish";
import { monthFiles } from "../helpers/month-files";
import { publishSnapshot } from "../../src/server/snapshot-publish";
import { logSink } from "../helpers/log-sink";
import { type TestService, startService } from "../helpers/service";
import { tempDir } from "../snapshot/files";

let dir: string;
/** Three consecutive months: captured 2026-11-01, 2026-12-01, 2027-01-01. */
const files: string[] = [];
const ids: string[] = [];

beforeAll(() => {
  dir = tempDir("store-serving-");
  const made = monthFiles(dir, { seed: 31, properties: 300, months: 3 });
  files.push(...made.files);
  ids.push(...made.ids);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let store: string;
let svc: TestService | undefined;
let log: ReturnType<typeof logSink>;
let clock: Date;
beforeEach(() => {
  store = path.join(fs.mkdtempSync(path.join(dir, "store-")), "store.db");
  clock = new Date("2027-01-15T00:00:00Z");
  log = logSink();
});
afterEach(async () => {
  await svc?.app.close();
  svc = undefined;
});

async function serving(months = 24, renewReadMs?: number): Promise<TestService> {
  svc = await startService({
    snapshotStore: store,
    now: () => clock,
    snapshotsRetainMonths: months,
    renewReadMs,
    logger: { level: "info", stream: log.stream },
  });
  return svc;
}

const live = () => svc!.app.liveSnapshot;
const keptIds = () =>
  live()
    .kept()
    .map((s) => s.ref.id);
const context = (id: string) =>
  live()
    .kept()
    .find((s) => s.ref.id === id)!;

test("at start the store's newest version is the latest and the older ones are served beside it", async () => {
  for (const f of files) publishToStore(store, f);
  await serving();
  expect(keptIds()).toEqual([ids[2], ids[1], ids[0]]);
  const res = await svc!.get(`/v1/commercial/properties?limit=2&snapshot=${ids[0]}`);
  expect([res.statusCode, res.json().snapshot.id]).toEqual([200, ids[0]]);
  expect((await svc!.get("/v1/commercial/properties?limit=2")).json().snapshot.id).toBe(ids[2]);
});

test("a refresh opens a version published since and the former newest again as an older version; an older one serves on", async () => {
  publishToStore(store, files[0]);
  publishToStore(store, files[1]);
  await serving();
  const [dec, nov] = [context(ids[1]), context(ids[0])];
  // A request holding the former newest while the next month is published and served.
  const held = live().acquire();
  expect(held).toBe(dec);
  publishToStore(store, files[2]);
  expect(await live().refresh()).toEqual({ outcome: "switched", id: ids[2], previous_id: ids[1] });
  expect(keptIds()).toEqual([ids[2], ids[1], ids[0]]);
  expect(context(ids[1])).not.toBe(dec); // the former newest read the latest rows, which the publish moved on
  expect(context(ids[0])).toBe(nov); // reads by version number: the publish changes none of its answers
  expect(nov.db.open).toBe(true);
  // The request that held it still reads its own month, then the connection closes.
  expect(held.get<{ n: number }>("SELECT count(*) AS n FROM snapshot_meta WHERE key = 'id' AND value = ?", [ids[1]])!.n).toBe(1);
  expect([dec.retired, dec.db.open]).toEqual([true, true]);
  live().release(held);
  expect(dec.db.open).toBe(false);
  // The month it answered is answered the same by the connection opened again.
  const again = await svc!.get(`/v1/commercial/properties?limit=3&snapshot=${ids[1]}`);
  expect(again.json().snapshot.id).toBe(ids[1]);
  expect(log.text()).toMatch(/"msg":"snapshot switched"/);
});

test("an older version serves on through a publish on its own connection, with what it remembered; the former newest starts afresh", async () => {
  publishToStore(store, files[0]);
  publishToStore(store, files[1]);
  await serving();
  const city = svc!.snapshot.prepare("SELECT city FROM properties ORDER BY id LIMIT 1").pluck().get() as string;
  const place = `/v1/commercial/properties?${new URLSearchParams({ geography: city, limit: "2", snapshot: ids[0] })}`;
  const broad = `/v1/commercial/properties?${new URLSearchParams({ min_building_area_sqft: "1000", limit: "2", snapshot: ids[0] })}`;
  const first = await svc!.get(broad);
  expect((await svc!.get(place)).statusCode).toBe(200);
  const [nov, dec] = [context(ids[0]), context(ids[1])];
  await svc!.get(`/v1/commercial/properties?${new URLSearchParams({ geography: city, limit: "2", snapshot: ids[1] })}`);
  const [places, decPlaces] = [nov.places, dec.places];
  publishToStore(store, files[2]);
  await live().refresh();
  const [nov2, dec2] = [context(ids[0]), context(ids[1])];
  expect(nov2).toBe(nov);
  expect(nov2.places).toBe(places);
  expect(dec2).not.toBe(dec);
  expect(dec2.places).not.toBe(decPlaces);
  // A broad search asked again after the publish prepares no count: it is remembered, and answers as before.
  const prepared: string[] = [];
  const prepare = nov2.db.prepare.bind(nov2.db);
  jest.spyOn(nov2.db, "prepare").mockImplementation((sql: string) => (prepared.push(sql), prepare(sql)));
  const again = await svc!.get(broad);
  expect(again.json().total_count).toBe(first.json().total_count);
  expect(again.json().data).toEqual(first.json().data);
  expect(prepared.filter((sql) => /count\(\*\)/i.test(sql))).toEqual([]);
});

test("a refresh with nothing new changes nothing and keeps every snapshot open", async () => {
  publishToStore(store, files[0]);
  publishToStore(store, files[1]);
  await serving();
  const before = live().kept();
  expect(await live().refresh()).toEqual({ outcome: "unchanged", id: ids[1] });
  expect(live().kept()).toEqual(before);
});

test("a withdrawn latest is no longer served: the month before it is the latest again, and a pin to it is a free 404", async () => {
  for (const f of files) publishToStore(store, f);
  await serving();
  withdrawLatest(store);
  expect(await live().refresh()).toEqual({ outcome: "switched", id: ids[1], previous_id: ids[2] });
  expect(keptIds()).toEqual([ids[1], ids[0]]);
  const res = await svc!.get(`/v1/commercial/properties?limit=2&snapshot=${ids[2]}`);
  expect([res.statusCode, res.json().code]).toEqual([404, "snapshot_not_found"]);
  expect(res.headers["x-credits-charged"]).toBe("0");
  // The latest, now read by version number, answers as it did when it was the newest.
  const dec = await svc!.get("/v1/commercial/properties?limit=5");
  expect(dec.json().snapshot.id).toBe(ids[1]);
});

test("versions past their retention are not served after a refresh", async () => {
  for (const f of files) publishToStore(store, f);
  await serving(2);
  expect(keptIds()).toEqual([ids[2], ids[1]]); // November retired on 2027-01-01
  clock = new Date("2027-02-15T00:00:00Z");
  await live().refresh();
  expect(keptIds()).toEqual([ids[2]]);
});

test("a store that cannot be read is refused: the snapshots served stay", async () => {
  publishToStore(store, files[0]);
  publishToStore(store, files[1]);
  await serving();
  const aside = `${store}.aside`;
  fs.renameSync(store, aside);
  try {
    expect(await live().refresh()).toMatchObject({ outcome: "refused", id: ids[1] });
  } finally {
    fs.renameSync(aside, store);
  }
  expect(keptIds()).toEqual([ids[1], ids[0]]);
  expect(log.text()).toMatch(/snapshot refused: still serving the current one/);
});

test("the newest version's read is renewed when idle; a renewal that finds a newer version serves it without a signal", async () => {
  publishToStore(store, files[0]);
  await serving(24, 0);
  const nov = live().current;
  publishToStore(store, files[1]);
  // Answered from November: the request arrived before any renewal.
  expect((await svc!.get("/v1/commercial/properties?limit=1")).json().snapshot.id).toBe(ids[0]);
  // Its release renewed the read, which found December.
  expect(live().current.ref.id).toBe(ids[1]);
  expect(nov.db.open).toBe(false);
  expect((await svc!.get("/v1/commercial/properties?limit=1")).json().snapshot.id).toBe(ids[1]);
});

test("publishing empties the store's write-ahead log once the service has moved on", async () => {
  publishToStore(store, files[0]);
  await serving(24, 0);
  const out: string[] = [];
  await publishSnapshot(files[1], {
    storePath: store,
    dataDir: path.dirname(store),
    retainMonths: 24,
    out: (l) => out.push(l),
    now: () => clock,
  });
  expect(out.join("\n")).not.toMatch(/still in use/);
  expect(fs.statSync(`${store}-wal`).size).toBe(0);
  expect(live().current.ref.id).toBe(ids[1]);
});
