// The credit gate over a real socket, on both stores: a route billed per unit (the markets
// batch) holds its credits after its body is read, when Node has already marked the finished
// request `destroyed`; a store that answers that hold with a promise (PostgreSQL) must still get
// an answer back to the client. A client that really goes away is not charged, and its request
// gives its snapshot back.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { PLANS } from "../../src/server/auth/plans";
import type { Credits } from "../../src/server/credits/ports";
import { openSqliteStores } from "../../src/server/stores/sqlite";
import { type TestService, startService } from "../helpers/service";

const BATCH = "/v1/commercial/markets/batch";

interface Running {
  app: FastifyInstance;
  ledger: Credits;
  base: string;
  key: string;
  accountId: string;
}

async function listen(svc: TestService): Promise<Running> {
  const { app, key, accountId } = svc;
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return { app, ledger: app.ledger, base: `http://127.0.0.1:${port}`, key, accountId };
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
  ["SQLite", "sqlite"],
  ["PostgreSQL", "postgres"],
] as const)("%s store", (_name, store) => {
  let r: Running;
  let markets: ReturnType<typeof twoMarkets>;

  beforeAll(async () => {
    const svc = await startService({ store });
    markets = twoMarkets(svc);
    r = await listen(svc);
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
    const pepper = crypto.randomBytes(32);
    const stores = openSqliteStores(":memory:", pepper);
    const hold = stores.credits.hold.bind(stores.credits);
    const credits: Credits = stores.credits;
    credits.hold = (...args: Parameters<typeof hold>) => new Promise((resolve) => (answerHold = () => resolve(hold(...args))));
    const svc = await startService({ stores, pepper });
    svc.app.addHook("onClose", async () => void (await stores.close()));
    markets = twoMarkets(svc);
    r = await listen(svc);
    svc.app.server.on("connection", (s) => sockets.push(s));
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
