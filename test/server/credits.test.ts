import crypto from "node:crypto";
import type Database from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import { PLANS } from "../../src/server/auth/plans";
import { sqliteStores } from "../../src/server/stores/sqlite";
import { openAccountsDb } from "../../src/server/stores/sqlite/accounts-db";
import { FLUSH_INTERVAL_MS } from "../../src/server/stores/sqlite/credits";
import { startService } from "../helpers/service";

// A service with a clock the test moves, one Explorer account and one key.
async function meteredService(start = "2026-11-15T12:00:00Z") {
  let t = Date.parse(start);
  const clock = {
    set: (iso: string) => void (t = Date.parse(iso)),
    advance: (ms: number) => void (t += ms),
  };
  const svc = await startService({ now: () => new Date(t), store: "sqlite", email: "metered@example.com" });
  const { app, key, snapshot } = svc;
  const { keys, accounts, db: accountsDb } = svc.sqlite!;
  const account = { id: svc.accountId };
  // A property with sales of its asset type in its metro, so its comps (within 250 miles) are not empty.
  const propertyId = snapshot
    .prepare(
      `SELECT p.id FROM properties p WHERE EXISTS (SELECT 1 FROM sales s WHERE s.asset_type = p.asset_type
       AND s.metro_id = p.metro_id AND s.property_id <> p.id) LIMIT 1`,
    )
    .pluck()
    .get() as string;
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}`, ...headers } });
  return { app, accountsDb, accounts, keys, account, key, clock, get, propertyId };
}

function setUsed(db: Database.Database, accountId: string, period: string, used: number) {
  db.prepare("INSERT INTO credit_usage (account_id, period, used) VALUES (?, ?, ?)").run(accountId, period, used);
}

// Charges are written within FLUSH_INTERVAL_MS; a later timer fires after the ledger's.
const flushed = () => new Promise((r) => setTimeout(r, FLUSH_INTERVAL_MS * 3));

function ledgerTotals(db: Database.Database, accountId: string, period: string) {
  const ledger = db
    .prepare("SELECT COALESCE(SUM(cost), 0) FROM credit_ledger WHERE account_id = ? AND period = ?")
    .pluck()
    .get(accountId, period);
  const used = db
    .prepare("SELECT COALESCE(MAX(used), 0) FROM credit_usage WHERE account_id = ? AND period = ?")
    .pluck()
    .get(accountId, period);
  return { ledger, used };
}

let svc: Awaited<ReturnType<typeof meteredService>>;
afterEach(() => svc?.app.close());

describe("Explorer plan credits", () => {
  test("a successful call is charged its published cost, with the credit headers", async () => {
    svc = await meteredService();
    const res = await svc.get(`/v1/commercial/properties/${svc.propertyId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-credits-limit"]).toBe("1000");
    expect(res.headers["x-credits-plan"]).toBe("explorer");
    expect(res.headers["x-credits-charged"]).toBe("1");
    expect(res.headers["x-credits-remaining"]).toBe("999");
    expect(res.headers["x-credits-reset"]).toBe("2026-12-01T00:00:00Z");
    const comps = await svc.get(`/v1/commercial/sale-comps?property_id=${svc.propertyId}&max_distance_miles=250`);
    expect(comps.statusCode).toBe(200);
    expect(comps.headers["x-credits-charged"]).toBe("2");
    expect(comps.headers["x-credits-remaining"]).toBe("997");
  });

  test("coverage, catalog, errors and 304 cost nothing but still carry the headers", async () => {
    svc = await meteredService();
    const free = [
      await svc.get("/v1/commercial/coverage"),
      await svc.get("/v1/commercial/catalog"),
      await svc.get("/v1/commercial/properties/cp_doesnotexist"), // 404
      await svc.get("/v1/parcels?limit=0"), // 400
    ];
    expect(free.map((r) => r.statusCode)).toEqual([200, 200, 404, 400]);
    for (const r of free) {
      expect(r.headers["x-credits-charged"]).toBe("0");
      expect(r.headers["x-credits-remaining"]).toBe("1000");
    }
    const first = await svc.get(`/v1/commercial/properties/${svc.propertyId}`);
    const again = await svc.get(`/v1/commercial/properties/${svc.propertyId}`, { "if-none-match": String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers["x-credits-charged"]).toBe("0");
    expect(again.headers["x-credits-remaining"]).toBe("999");
  });

  test("when credits run out: 402 credits_exhausted with the reset time, and nothing charged", async () => {
    svc = await meteredService();
    setUsed(svc.accountsDb, svc.account.id, "2026-11", 999);
    const comps = await svc.get(`/v1/commercial/sale-comps?property_id=${svc.propertyId}&max_distance_miles=250`); // costs 2
    expect(comps.statusCode).toBe(402);
    expect(comps.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(comps.json()).toMatchObject({
      code: "credits_exhausted",
      status: 402,
      cost: 2,
      credits_remaining: 1,
      resets_at: "2026-12-01T00:00:00Z",
    });
    expect(comps.json().detail).toMatch(/reset at 2026-12-01T00:00:00Z/);
    expect(comps.headers["x-credits-remaining"]).toBe("1");
    expect(comps.headers["x-credits-charged"]).toBe("0");
    expect((await svc.get(`/v1/commercial/properties/${svc.propertyId}`)).statusCode).toBe(200); // costs 1
    const spent = await svc.get(`/v1/commercial/properties/${svc.propertyId}`);
    expect(spent.statusCode).toBe(402);
    expect(spent.headers["x-credits-remaining"]).toBe("0");
    expect((await svc.get("/v1/commercial/coverage")).statusCode).toBe(200); // free calls still work
  });

  test("free calls still work for an account past its limit (its plan lowered mid-period)", async () => {
    svc = await meteredService();
    setUsed(svc.accountsDb, svc.account.id, "2026-11", PLANS.explorer.monthlyCredits + 500);
    const free = [await svc.get("/v1/commercial/coverage"), await svc.get("/v1/commercial/catalog")];
    expect(free.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(free.map((r) => [r.headers["x-credits-charged"], r.headers["x-credits-remaining"]])).toEqual([
      ["0", "0"],
      ["0", "0"],
    ]);
    expect((await svc.get(`/v1/commercial/properties/${svc.propertyId}`)).statusCode).toBe(402);
  });

  test("credits reset at 00:00 UTC on the 1st", async () => {
    svc = await meteredService("2026-11-30T23:59:59Z");
    setUsed(svc.accountsDb, svc.account.id, "2026-11", 1000);
    expect((await svc.get(`/v1/commercial/properties/${svc.propertyId}`)).statusCode).toBe(402);
    svc.clock.set("2026-12-01T00:00:00Z");
    const res = await svc.get(`/v1/commercial/properties/${svc.propertyId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-credits-remaining"]).toBe("999");
    expect(res.headers["x-credits-reset"]).toBe("2027-01-01T00:00:00Z");
    await flushed();
    expect(ledgerTotals(svc.accountsDb, svc.account.id, "2026-12")).toEqual({ ledger: 1, used: 1 });
    expect(ledgerTotals(svc.accountsDb, svc.account.id, "2026-11")).toEqual({ ledger: 0, used: 1000 });
  });

  test("the ledger records each metered call and always sums to the credits used", async () => {
    svc = await meteredService();
    await svc.get(`/v1/commercial/properties/${svc.propertyId}`);
    await svc.get(`/v1/commercial/sale-comps?property_id=${svc.propertyId}&max_distance_miles=250`);
    await svc.get("/v1/commercial/coverage");
    await flushed();
    const rows = svc.accountsDb.prepare("SELECT endpoint, cost, key_id FROM credit_ledger ORDER BY id").all();
    expect(rows).toEqual([
      { endpoint: "GET /v1/commercial/properties/{property_id}", cost: 1, key_id: svc.key.split("_")[2] },
      { endpoint: "GET /v1/commercial/sale-comps", cost: 2, key_id: svc.key.split("_")[2] },
    ]);
    expect(ledgerTotals(svc.accountsDb, svc.account.id, "2026-11")).toEqual({ ledger: 3, used: 3 });
  });
});

describe("rate limits per account", () => {
  test("a burst beyond the bucket gets 429 with Retry-After and the RateLimit fields", async () => {
    svc = await meteredService();
    let last;
    for (let i = 0; i < 60; i++) last = await svc.get("/v1/commercial/coverage");
    expect(last!.statusCode).toBe(200);
    expect(last!.headers["ratelimit-policy"]).toBe('"burst";q=60;w=6');
    expect(last!.headers["ratelimit"]).toBe('"burst";r=0;t=6');
    const limited = await svc.get(`/v1/commercial/properties/${svc.propertyId}`);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("1");
    expect(limited.json()).toMatchObject({ code: "rate_limited", retry_after_seconds: 1 });
    expect(limited.headers["x-credits-charged"]).toBe("0");
    expect(limited.headers["x-credits-remaining"]).toBe("1000");
    svc.clock.advance(100); // 10 per second: one call's worth
    expect((await svc.get(`/v1/commercial/properties/${svc.propertyId}`)).statusCode).toBe(200);
    expect((await svc.get(`/v1/commercial/properties/${svc.propertyId}`)).statusCode).toBe(429);
  });

  test("the keys of one account share its bucket; another account has its own", async () => {
    svc = await meteredService();
    const other = svc.keys.createKey(svc.account.id, "second").raw;
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await svc.get("/v1/commercial/coverage")).statusCode);
    expect(statuses.at(-1)).toBe(429); // the account's bucket is empty
    const sameAccount = await svc.app.inject({
      method: "GET",
      url: "/v1/commercial/coverage",
      headers: { authorization: `Bearer ${other}` },
    });
    expect(sameAccount.statusCode).toBe(429); // a second key is no second allowance
    expect(sameAccount.json().detail).toMatch(/This account \(all its keys together\) may make 60 calls at once/);
    const otherAccount = await svc.app.inject({
      method: "GET",
      url: "/v1/commercial/coverage",
      headers: { authorization: `Bearer ${svc.keys.createKey(svc.accounts.create("other@example.com").id, "theirs").raw}` },
    });
    expect(otherAccount.statusCode).toBe(200);
  });
});

describe("charging under concurrency", () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  test("50 clients at once on one key never spend more than the plan allows; ledger equals usage", async () => {
    svc = await meteredService(new Date().toISOString());
    app = svc.app;
    const period = new Date().toISOString().slice(0, 7);
    setUsed(svc.accountsDb, svc.account.id, period, 970); // 30 credits left
    const base = await svc.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `${base}/v1/commercial/properties/${svc.propertyId}`;
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(url, { headers: { authorization: `Bearer ${svc.key}` } }).then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    );
    const ok = statuses.filter((s) => s === 200).length;
    expect(ok).toBe(30);
    expect(statuses.filter((s) => s === 402).length).toBe(20);
    await flushed();
    expect(ledgerTotals(svc.accountsDb, svc.account.id, period)).toEqual({ ledger: 30, used: 1000 });
  });
});

describe("the ledger's batches", () => {
  /** A ledger over a fresh accounts database, on the given clock; `charge` records one successful call. */
  function ledgerOn(now: () => Date, onError?: (err: unknown) => void) {
    const db = openAccountsDb(":memory:");
    const { accounts, credits: ledger } = sqliteStores(db, crypto.randomBytes(32), { now, onError });
    const charge = (accountId: string, cost: number, i: number) =>
      ledger.settle(ledger.hold(accountId, PLANS.explorer, cost)!, true, { keyId: "k", endpoint: "GET /v1/x", requestId: `req_${i}` });
    return { db, accounts, ledger, charge };
  }

  test("many charges in one turn are written together, every row kept, totals equal", () => {
    const { db, accounts, ledger, charge } = ledgerOn(() => new Date("2026-11-02T08:00:00Z"));
    const account = accounts.create("batch@example.com");
    for (let i = 0; i < 75; i++) charge(account.id, 2, i);
    ledger.flush();
    const rows = db.prepare("SELECT request_id, cost, period, at FROM credit_ledger ORDER BY id").all() as any[];
    expect(rows).toHaveLength(75);
    expect(rows.map((r) => r.request_id)).toEqual(Array.from({ length: 75 }, (_, i) => `req_${i}`));
    expect(rows[0]).toMatchObject({ cost: 2, period: "2026-11", at: "2026-11-02T08:00:00.000Z" });
    expect(ledgerTotals(db, account.id, "2026-11")).toEqual({ ledger: 150, used: 150 });
    expect(ledger.usage(account.id).remaining).toBe(850);
  });

  test("a batch that cannot be written is kept, whole and in order, and written by the next flush", () => {
    let clock = new Date("2026-11-30T23:59:59.999Z");
    const errors: unknown[] = [];
    const { db, accounts, ledger, charge } = ledgerOn(
      () => clock,
      (err) => errors.push(err),
    );
    const a = accounts.create("a@example.com");
    const b = accounts.create("b@example.com");
    charge(a.id, 1, 0);
    charge(b.id, 1, 1);
    db.exec("ALTER TABLE credit_ledger RENAME TO credit_ledger_away"); // every INSERT now fails
    ledger.flush();
    expect(errors).toHaveLength(1);
    db.exec("ALTER TABLE credit_ledger_away RENAME TO credit_ledger");
    clock = new Date("2026-12-01T00:00:00.000Z"); // a new period for the next charge
    charge(a.id, 1, 2);
    ledger.flush();
    const rows = db.prepare("SELECT account_id, period, request_id, at FROM credit_ledger ORDER BY id").all();
    expect(rows).toEqual([
      { account_id: a.id, period: "2026-11", request_id: "req_0", at: "2026-11-30T23:59:59.999Z" },
      { account_id: b.id, period: "2026-11", request_id: "req_1", at: "2026-11-30T23:59:59.999Z" },
      { account_id: a.id, period: "2026-12", request_id: "req_2", at: "2026-12-01T00:00:00.000Z" },
    ]);
    expect(ledgerTotals(db, a.id, "2026-11")).toEqual({ ledger: 1, used: 1 });
    expect(ledgerTotals(db, b.id, "2026-11")).toEqual({ ledger: 1, used: 1 });
    expect(ledgerTotals(db, a.id, "2026-12")).toEqual({ ledger: 1, used: 1 });
  });
});
