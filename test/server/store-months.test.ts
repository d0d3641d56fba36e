// Thirteen consecutive months published into one snapshot store: every operation, asked about
// any of them after the thirteenth, answers exactly as it did when that month was the latest.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { OPERATIONS, OPERATION_LIST, type OperationName } from "../../src/contract/operations";
import { fillPath } from "../../src/contract/operation";
import { buildSnapshot } from "../../src/snapshot/build";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";
import { SnapshotContext } from "../../src/server/data/snapshot-context";
import { openStoreVersion } from "../../src/snapshot/store/store-open";
import { publishToStore, retireThrough } from "../../src/snapshot/store/store-publish";
import { type TestService, startService } from "../helpers/service";
import { tempDir } from "../snapshot/files";

const MONTHS = 13;
const PROPERTIES = 1_000;

interface Call {
  operation: OperationName;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
}

let dir: string;
let store: string;
const ids: string[] = [];
const capturedAt: string[] = [];
/** Per month: each call's status and body, as answered when that month was the latest. */
const answered: { status: number; body: unknown }[][] = [];
let calls: Call[];

/** Calls of every operation about records month 0 has (ids stay the same across months). */
function callsFor(file: string): Call[] {
  const db = new Database(file, { readonly: true });
  try {
    const one = <T>(sql: string) => db.prepare(sql).get() as T;
    // A property the months change (most of them do not), and another beside it.
    const props = db.prepare("SELECT id, asset_type, state_code, name, address, city, zip FROM properties ORDER BY id LIMIT 2").all() as {
      id: string;
      asset_type: string;
      state_code: string;
      name: string;
      address: string;
      city: string;
      zip: string;
    }[];
    const line = (p: (typeof props)[number]) => `${p.address}, ${p.city}, ${p.state_code} ${p.zip}`;
    const sold = one<{ property_id: string }>("SELECT property_id FROM sales ORDER BY sale_date DESC, id LIMIT 1");
    const market = one<{ geography_id: string; asset_type: string }>(
      "SELECT geography_id, asset_type FROM markets WHERE geography_type = 'state' ORDER BY property_count DESC LIMIT 1",
    );
    const owner = one<{ owner_id: string }>(
      "SELECT owner_id FROM properties WHERE owner_id IS NOT NULL GROUP BY owner_id ORDER BY count(*) DESC LIMIT 1",
    );
    const tenant = one<{ tenant_id: string }>("SELECT tenant_id FROM tenancies GROUP BY tenant_id ORDER BY count(*) DESC LIMIT 1");
    const word = props[0].name.split(" ")[0];
    const list: Call[] = [
      { operation: "listParcels", query: { state_code: market.geography_id, limit: 100 } },
      { operation: "searchListings", query: { state_code: market.geography_id, limit: 100 } },
      { operation: "getCoverage" },
      { operation: "getCatalog" },
      { operation: "searchProperties", query: { state_code: market.geography_id, limit: 100 } },
      { operation: "searchProperties", query: { q: word, limit: 100 } },
      { operation: "searchProperties", query: { q: word, state_code: props[0].state_code, limit: 20 } },
      ...props.map((p): Call => ({ operation: "getProperty", params: { property_id: p.id } })),
      { operation: "getPropertyHistory", params: { property_id: sold.property_id } },
      { operation: "compareProperties", body: { property_ids: props.map((p) => p.id) } },
      { operation: "matchProperties", body: { addresses: props.map((p, i) => ({ ref: String(i), address: line(p) })) } },
      { operation: "matchProperty", query: { address: props[0].address, city: props[0].city, state: props[0].state_code } },
      { operation: "findSaleComps", query: { property_id: sold.property_id, limit: 50 } },
      { operation: "getMarketSnapshot", query: { geography: market.geography_id, asset_type: market.asset_type } },
      { operation: "getMarketSnapshotBatch", body: { markets: [{ geography: market.geography_id, asset_type: market.asset_type }] } },
      { operation: "getMarketHistory", query: { geography: market.geography_id, asset_type: market.asset_type } },
      { operation: "analyseAssetType", params: { asset_type: market.asset_type }, query: { geography: market.geography_id } },
      {
        operation: "searchAssetProperties",
        params: { asset_type: market.asset_type },
        query: { state_code: market.geography_id, limit: 100 },
      },
      { operation: "getOwnerPortfolio", query: { owner_id: owner.owner_id } },
      { operation: "searchCompanies", params: { company_type: "owner" }, query: { q: "a" } },
      { operation: "getTenantFootprint", query: { tenant_id: tenant.tenant_id } },
      { operation: "rankDiligenceCandidates", query: { state_code: market.geography_id } },
      { operation: "rankDiligenceCandidates", query: { geography: market.geography_id, asset_type: market.asset_type, min_score: 10 } },
      // Pages past the first of every ordered list: an older version merges a page from each of its two parts.
      { operation: "listParcels", query: { state_code: market.geography_id, limit: 7, offset: 21 } },
      { operation: "searchListings", query: { state_code: market.geography_id, limit: 7, offset: 14 } },
      { operation: "searchProperties", query: { state_code: market.geography_id, limit: 9, offset: 27 } },
      { operation: "searchProperties", query: { limit: 10, offset: 500 } },
      ...[0, 10, 20, 30].map((offset): Call => ({ operation: "searchProperties", query: { q: word, limit: 10, offset } })),
      { operation: "searchProperties", query: { q: "industrial", limit: 25, offset: 50 } },
      { operation: "searchProperties", query: { q: word, state_code: props[0].state_code, limit: 5, offset: 5 } },
      { operation: "searchAssetProperties", params: { asset_type: market.asset_type }, query: { q: word, limit: 5, offset: 5 } },
      { operation: "getOwnerPortfolio", query: { owner_id: owner.owner_id, limit: 4, offset: 4 } },
      { operation: "getOwnerPortfolio", query: { owner_id: owner.owner_id, asset_type: market.asset_type, limit: 3 } },
      { operation: "getTenantFootprint", query: { tenant_id: tenant.tenant_id, limit: 3, offset: 3 } },
      { operation: "getTenantFootprint", query: { tenant_id: tenant.tenant_id, state_code: market.geography_id, limit: 2 } },
      { operation: "searchCompanies", params: { company_type: "owner" }, query: { q: "a", limit: 6, offset: 12 } },
      { operation: "searchCompanies", params: { company_type: "tenant" }, query: { limit: 6, offset: 30 } },
      { operation: "rankDiligenceCandidates", query: { state_code: market.geography_id, limit: 8, offset: 16 } },
      { operation: "findSaleComps", query: { state_code: market.geography_id, limit: 6, offset: 12 } },
      { operation: "findSaleComps", query: { state_code: market.geography_id, sort: "cap_rate", limit: 6, offset: 6 } },
      { operation: "findSaleComps", query: { state_code: market.geography_id, per_property: "latest", limit: 6, offset: 6 } },
    ];
    return list;
  } finally {
    db.close();
  }
}

/** The service over `options`, with an account on the unlimited plan (so no call here meets a credit or rate limit). */
async function serve(options: Parameters<typeof startService>[0]): Promise<{ svc: TestService; auth: Record<string, string> }> {
  const svc = await startService({ ...options, email: null });
  const account = await svc.stores.accounts.create("months@example.com", "unlimited");
  const { raw } = await svc.stores.keys.createKey(account.id, "months");
  return { svc, auth: { authorization: `Bearer ${raw}` } };
}

async function ask(
  { svc, auth }: { svc: TestService; auth: Record<string, string> },
  call: Call,
  snapshot?: string,
): Promise<{ status: number; body: unknown }> {
  const op = OPERATIONS[call.operation];
  const query = new URLSearchParams(Object.entries({ ...call.query, ...(snapshot ? { snapshot } : {}) }).map(([k, v]) => [k, String(v)]));
  const url = `${fillPath(op, call.params)}${query.size ? `?${query}` : ""}`;
  const res = op.method === "POST" ? await svc.post(url, call.body, auth) : await svc.get(url, auth);
  return { status: res.statusCode, body: withoutServingFields(res.json()) };
}

/** What says how and when the service answers rather than what the snapshot holds: the coverage report's serving and kept-snapshot lists. */
function withoutServingFields(body: unknown): unknown {
  if (body && typeof body === "object" && "serving" in body) {
    const { serving: _serving, snapshots: _snapshots, ...rest } = body as Record<string, unknown>;
    return rest;
  }
  return body;
}

/** The service over the store, as a deployment runs it: each month is published into the store and served after a refresh. */
let service: { svc: TestService; auth: Record<string, string> };
/** The service's clock: each month's capture day as it is published, so every month is within the default retention. */
let clock = new Date();

beforeAll(async () => {
  dir = tempDir("store-months-");
  store = path.join(dir, "store.db");
  let file = path.join(dir, "m0.db");
  buildSnapshot({ out: file, seed: 23, properties: PROPERTIES });
  calls = callsFor(file);
  for (let month = 0; month < MONTHS; month++) {
    if (month > 0) file = nextMonthSnapshot({ from: file, out: path.join(dir, `m${month}.db`) }).path;
    const { version } = publishToStore(store, file);
    ids.push(version.id);
    capturedAt.push(version.captured_at);
    clock = new Date(version.captured_at);
    if (month === 0) service = await serve({ snapshotStore: store, now: () => clock });
    else expect(await service.svc.app.liveSnapshot.refresh()).toMatchObject({ outcome: "switched", id: version.id });
    const answers = [];
    for (const call of calls) answers.push(await ask(service, call));
    answered.push(answers);
  }
}, 600_000);
afterAll(async () => {
  await service?.svc.app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the fixed calls ask every operation, each answered 200 in the first month", () => {
  expect(new Set(calls.map((c) => c.operation))).toEqual(new Set(OPERATION_LIST.map((o) => o.name)));
  calls.forEach((call, i) => expect([call.operation, answered[0][i].status]).toEqual([call.operation, 200]));
});

test("the months differ: a later month answers some calls otherwise than the first", () => {
  const differing = calls.filter((_, i) => JSON.stringify(answered[MONTHS - 1][i]) !== JSON.stringify(answered[0][i]));
  expect(differing.length).toBeGreaterThan(calls.length / 2);
});

test("after the thirteenth month, every month answers every call exactly as when it was the latest", async () => {
  expect(service.svc.app.liveSnapshot.kept().map((k) => k.ref.id)).toEqual([...ids].reverse());
  const differences: string[] = [];
  for (const [month, id] of ids.entries()) {
    for (const [i, call] of calls.entries()) {
      const now = await ask(service, call, id);
      if (JSON.stringify(now) !== JSON.stringify(answered[month][i])) differences.push(`month ${month} ${call.operation} #${i}`);
    }
  }
  expect(differences).toEqual([]);
}, 300_000);

test("on an older version, no call's query materialises a table's view (reads the whole table to join or aggregate it)", async () => {
  const db = openStoreVersion(store, ids[0], { cacheKiB: 8192, mmapBytes: 0 });
  const asked = new Set<string>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    asked.add(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  const service = await serve({
    snapshotDb: openStoreVersion(store),
    olderSnapshots: [new SnapshotContext(db)],
    now: () => new Date(capturedAt[MONTHS - 1]),
  });
  try {
    for (const call of calls) expect((await ask(service, call, ids[0])).status).toBe(200);
  } finally {
    await service.svc.app.close();
  }
  const reopened = openStoreVersion(store, ids[0], { cacheKiB: 8192, mmapBytes: 0 });
  try {
    const materialised = [...asked].flatMap((sql) => {
      const unbound = Array<null>((sql.match(/\?/g) ?? []).length).fill(null);
      const plan = reopened.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...unbound) as { detail: string }[];
      return plan.filter((step) => step.detail.startsWith("MATERIALIZE")).map((step) => `${step.detail}: ${sql.replace(/\s+/g, " ")}`);
    });
    expect(asked.size).toBeGreaterThan(calls.length);
    expect(materialised).toEqual([]);
  } finally {
    reopened.close();
  }
}, 120_000);

test("on an older version, a text search by its words alone finds its page and its count in the text index without reading a row for each match, and every text search answers as when the month was the latest", async () => {
  const textCalls = [...calls.entries()].filter(([, call]) => call.query?.q !== undefined);
  expect(textCalls.length).toBeGreaterThan(5);
  const older = ids.slice(0, -1);
  const asked = new Set<string>();
  const contexts = older.map((id) => {
    const db = openStoreVersion(store, id, { cacheKiB: 8192, mmapBytes: 0 });
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      asked.add(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    return new SnapshotContext(db);
  });
  const service = await serve({
    snapshotDb: openStoreVersion(store),
    olderSnapshots: contexts,
    now: () => new Date(capturedAt[MONTHS - 1]),
  });
  const differences: string[] = [];
  try {
    for (const [month, id] of older.entries()) {
      for (const [i, call] of textCalls) {
        if (JSON.stringify(await ask(service, call, id)) !== JSON.stringify(answered[month][i]))
          differences.push(`month ${month} ${call.operation} #${i}`);
      }
    }
  } finally {
    await service.svc.app.close();
  }
  expect(differences).toEqual([]);
  // Each property search's statements that search the text index, by its words alone (no other
  // filter: "WHERE p.properties_fts MATCH"), and the tables read beside the index in the same
  // loop of their plans: none, where every match would otherwise be joined to its row.
  const reopened = openStoreVersion(store, ids[0], { cacheKiB: 8192, mmapBytes: 0 });
  try {
    const textOnly = [...asked].filter((sql) => /FROM "properties_fts \w+" p WHERE p\.properties_fts MATCH \?/.test(sql));
    expect(textOnly.length).toBeGreaterThanOrEqual(2);
    const joined = textOnly.flatMap((sql) => {
      const unbound = Array<null>((sql.match(/\?/g) ?? []).length).fill(null);
      const plan = reopened.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...unbound) as { id: number; parent: number; detail: string }[];
      return plan
        .filter((step) => step.detail.includes("VIRTUAL TABLE"))
        .flatMap((scan) => plan.filter((step) => step.parent === scan.parent && step !== scan && /^(SEARCH|SCAN) /.test(step.detail)))
        .map((step) => `${step.detail}: ${sql.slice(sql.indexOf(" FROM "))}`);
    });
    expect(joined).toEqual([]);
  } finally {
    reopened.close();
  }
}, 180_000);

test("after the oldest months are retired, every month still served answers every list and text search as when it was the latest", async () => {
  const RETIRED = 5;
  retireThrough(store, RETIRED, { now: () => new Date(capturedAt[MONTHS - 1]) });
  const served = ids.slice(RETIRED, -1);
  const service = await serve({
    snapshotDb: openStoreVersion(store),
    olderSnapshots: served.map((id) => new SnapshotContext(openStoreVersion(store, id, { cacheKiB: 8192, mmapBytes: 0 }))),
    now: () => new Date(capturedAt[MONTHS - 1]),
  });
  try {
    const differences: string[] = [];
    for (const [i, call] of calls.entries()) {
      if (!OPERATIONS[call.operation].paged) continue;
      for (const [n, id] of served.entries()) {
        const month = RETIRED + n;
        if (JSON.stringify(await ask(service, call, id)) !== JSON.stringify(answered[month][i]))
          differences.push(`month ${month} ${call.operation} #${i}`);
      }
    }
    expect(differences).toEqual([]);
  } finally {
    await service.svc.app.close();
  }
}, 120_000);
