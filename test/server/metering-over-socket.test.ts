// The credit gate over a real socket, on both stores: a route billed per unit (the markets
// batch) holds its credits after its body is read, when Node has already marked the finished
// request `destroyed`; a store that answers that hold with a promise (PostgreSQL) must still get
// an answer back to the client. A client that really goes away is not charged, and its request
// gives its snapshot back.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { PLANS } from "../../src/server/auth/plans";
import type { ApiKeys } from "../../src/server/auth/stores";
import { openAccountsDb } from "../../src/server/db/accounts-db";
import type { Credits } from "../../src/server/credits/stores";
import { sqliteStores } from "../../src/server/stores";
import { buildPostgresApp, buildTestApp, type TestService } from "../helpers/service";

const BATCH = "/v1/commercial/markets/batch";

interface Running {
  app: FastifyInstance;
  keys: ApiKeys;
  ledger: Credits;
  base: string;
  key: string;
  accountId: string;
}

async function listen(app: FastifyInstance, keys: ApiKeys): Promise<Running> {
  const account = await keys.accounts.create("socket@example.com");
  const key = (await keys.createKey(account.id, "socket")).raw;
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return { app, keys, ledger: app.ledger, base: `http://127.0.0.1:${port}`, key, accountId: account.id };
}

/** Two markets the test snapshot holds, as the batch asks for them. */
function twoMarkets(svc: Pick<TestService, "snapshot">) {
  return svc.snapshot
    .prepare(
      `SELECT p.code AS geography, m.asset_type FROM places p JOIN markets m ON m.geography_type = p.kind AND m.geography_id = p.code
       WHERE p.kind = 'state' ORDER BY m.property_count DESC, p.code, m.asset_type LIMIT 2`,
    )
    .all() as { geography: string; asset_type: string }[];
}

async function used(r: Running): Promise<number> {
  await r.ledger.flush();
  const b = await r.ledger.balance(r.accountId, PLANS.explorer);
  return b.used;
}

describe.each([
  ["SQLite", async () => buildTestApp()],
  ["PostgreSQL", async () => buildPostgresApp()],
])("%s store", (_name, build) => {
  let r: Running;
  let markets: ReturnType<typeof twoMarkets>;

  beforeAll(async () => {
    const built = await build();
    markets = twoMarkets(built);
    r = await listen(built.app, built.keys);
  });
  afterAll(() => r?.app.close());

  test("a markets batch sent over a socket is answered 200 and charged a credit a market", async () => {
    const before = await used(r);
    const res = await fetch(r.base + BATCH, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: JSON.stringify({ markets }),
      signal: AbortSignal.timeout(15_000),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(2);
    expect(res.headers.get("x-credits-charged")).toBe("2");
    expect((await used(r)) - before).toBe(2);
    expect(r.app.liveSnapshot.current.leases).toBe(0);
  });
});

describe("a store that answers the per-unit hold later (a promise, as PostgreSQL does)", () => {
  let r: Running;
  let markets: ReturnType<typeof twoMarkets>;
  /** Resolves the hold the store is waiting to answer. */
  let answerHold: (() => void) | undefined;
  let sockets: Socket[] = [];

  beforeAll(async () => {
    const built = buildTestApp();
    markets = twoMarkets(built);
    const stores = sqliteStores(openAccountsDb(":memory:"), built.pepper);
    const hold = stores.credits.hold.bind(stores.credits);
    stores.credits.hold = ((...args: Parameters<typeof hold>) => {
      return new Promise((resolve) => (answerHold = () => resolve(hold(...args))));
    }) as typeof stores.credits.hold;
    const app = buildApp({ snapshotDb: built.snapshot, stores, pepper: built.pepper });
    app.addHook("onClose", async () => void (await stores.close()));
    r = await listen(app, stores.keys);
    app.server.on("connection", (s) => sockets.push(s));
  });
  afterAll(() => r?.app.close());
  beforeEach(() => {
    sockets = [];
  });

  test("the answer reaches a client that waits for it", async () => {
    const before = await used(r);
    const res = fetch(r.base + BATCH, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: JSON.stringify({ markets }),
      signal: AbortSignal.timeout(15_000),
    });
    while (!answerHold) await new Promise((resolve) => setTimeout(resolve, 5));
    answerHold();
    answerHold = undefined;
    const answer = await res;
    expect(answer.status).toBe(200);
    expect((await used(r)) - before).toBe(2);
    expect(r.app.liveSnapshot.current.leases).toBe(0);
  });

  test("a client that goes away while the hold is answered is not charged, and its request gives its snapshot back", async () => {
    const before = await used(r);
    const body = JSON.stringify({ markets });
    const req = http.request(r.base + BATCH, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    req.on("error", () => {}); // the test ends the connection itself
    req.end(body);
    while (!answerHold) await new Promise((resolve) => setTimeout(resolve, 5));
    // The server's side of the connection is closed before the store answers.
    const closed = Promise.all(sockets.map((s) => new Promise((resolve) => (s.destroyed ? resolve(null) : s.once("close", resolve)))));
    req.destroy();
    await closed;
    answerHold();
    answerHold = undefined;
    for (let i = 0; i < 200 && r.app.liveSnapshot.current.leases > 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(r.app.liveSnapshot.current.leases).toBe(0);
    expect(await used(r)).toBe(before);
  });
});
