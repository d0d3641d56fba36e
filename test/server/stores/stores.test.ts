// The store ports (auth/ports.ts, credits/ports.ts), held to the same assertions on both
// adapters: SQLite (the embedded default) and PostgreSQL (a real server started for the
// test run). Store methods may answer with a value or a promise; every call here is awaited.
import crypto from "node:crypto";
import { openAccountsDb } from "../../../src/server/stores/sqlite/accounts-db";
import { EmailTakenError } from "../../../src/server/auth/ports";
import { KeyLimitError, MAX_ACTIVE_KEYS } from "../../../src/server/auth/ports";
import { PLANS } from "../../../src/server/auth/plans";
import { SESSION_IDLE_MS } from "../../../src/server/auth/ports";
import type { ServiceStores } from "../../../src/server/stores/service-stores";
import { sqliteStores } from "../../../src/server/stores/sqlite";
import { openPostgresStores } from "../../../src/server/stores/postgres";
import { freshDatabase } from "../../helpers/postgres";

interface Backend {
  stores: ServiceStores;
  /** Every row of a table, as text, to look for what must never be stored. */
  dump(table: string): Promise<string>;
  /** The ledger's sum and the period totals of an account. */
  books(accountId: string): Promise<{ ledger: number; used: number }>;
  close(): Promise<void>;
}

let clock = Date.parse("2026-11-10T12:00:00Z");
const now = () => new Date(clock);
const pepper = crypto.randomBytes(32);

async function sqliteBackend(): Promise<Backend> {
  const db = openAccountsDb(":memory:");
  const stores = sqliteStores(db, pepper, { now });
  return {
    stores,
    dump: async (table) =>
      JSON.stringify(db.prepare(`SELECT * FROM ${table}`).all(), (_k, v) => (Buffer.isBuffer(v) ? v.toString("hex") : v)),
    books: async (accountId) => {
      await stores.credits.flush();
      return db
        .prepare(
          `SELECT (SELECT coalesce(sum(cost), 0) FROM credit_ledger WHERE account_id = ?) AS ledger,
                  (SELECT coalesce(sum(used), 0) FROM credit_usage WHERE account_id = ?) AS used`,
        )
        .get(accountId, accountId) as { ledger: number; used: number };
    },
    close: async () => {
      await stores.close();
      db.close();
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  const database = await freshDatabase();
  const stores = await openPostgresStores({ connectionString: database.url, pepper, now, keyPollMs: 50 });
  return {
    stores,
    dump: async (table) =>
      JSON.stringify((await stores.pool.query(`SELECT * FROM ${table}`)).rows, (_k, v) =>
        v?.type === "Buffer" ? Buffer.from(v.data).toString("hex") : v,
      ),
    books: async (accountId) => {
      await stores.credits.flush();
      const { rows } = await stores.pool.query(
        `SELECT (SELECT coalesce(sum(cost), 0) FROM credit_ledger WHERE account_id = $1)::int AS ledger,
                (SELECT coalesce(sum(used), 0) FROM credit_usage WHERE account_id = $1)::int AS used`,
        [accountId],
      );
      return rows[0];
    },
    close: async () => {
      await stores.close();
      await database.drop();
    },
  };
}

describe.each([
  ["SQLite", sqliteBackend],
  ["PostgreSQL", postgresBackend],
])("%s store", (_name, open) => {
  let b: Backend;
  let s: ServiceStores;
  beforeAll(async () => {
    b = await open();
    s = b.stores;
  });
  afterAll(() => b.close());

  test("accounts: one per email whatever its case; plans are checked; passwords are stored", async () => {
    const a = await s.accounts.create("Ann@Example.com");
    expect(a).toMatchObject({ email: "Ann@Example.com", plan: "explorer" });
    expect((await s.accounts.findByEmail("ann@example.COM"))?.id).toBe(a.id);
    expect((await s.accounts.findById(a.id))?.email).toBe("Ann@Example.com");
    await expect(Promise.resolve().then(() => s.accounts.create("ANN@example.com"))).rejects.toThrow(EmailTakenError);
    await expect(Promise.resolve().then(() => s.accounts.createWithPassword("ann@example.com", "hash"))).rejects.toThrow(EmailTakenError);
    await expect(Promise.resolve().then(() => s.accounts.setPlan(a.id, "gold"))).rejects.toThrow(/Unknown plan 'gold'/);
    for (const inherited of ["toString", "constructor", "__proto__"]) {
      await expect(Promise.resolve().then(() => s.accounts.setPlan(a.id, inherited))).rejects.toThrow(`Unknown plan '${inherited}'`);
      await expect(Promise.resolve().then(() => s.accounts.create(`${inherited}@example.com`, inherited))).rejects.toThrow(/Unknown plan/);
    }
    await s.accounts.setPlan(a.id, "unlimited");
    expect((await s.accounts.findById(a.id))?.plan).toBe("unlimited");
    const withPassword = await s.accounts.createWithPassword("bo@example.com", "scrypt$hash");
    expect(await s.accounts.passwordHash(withPassword.id)).toBe("scrypt$hash");
    expect(await s.accounts.passwordHash(a.id)).toBeUndefined();
    await s.accounts.setPassword(a.id, "scrypt$other");
    expect(await s.accounts.passwordHash(a.id)).toBe("scrypt$other");
  });

  test("keys: shown once, stored as a hash, verified, listed per account, revoked; the cap holds", async () => {
    const a = await s.accounts.create("keys@example.com");
    const other = await s.accounts.create("other@example.com");
    const { raw, summary } = await s.keys.createKey(a.id, "Model A");
    expect(await s.keys.verify(raw)).toEqual({ keyId: summary.key_id, accountId: a.id, plan: "explorer" });
    expect(await s.keys.verify(raw)).toEqual({ keyId: summary.key_id, accountId: a.id, plan: "explorer" }); // recognised again
    const wrongSecret = raw.slice(0, -10) + (raw.slice(-10, -9) === "A" ? "B" : "A") + raw.slice(-9);
    expect(await s.keys.verify(wrongSecret)).toBeNull();
    expect(await s.keys.verify("propi_live_nonsense")).toBeNull();
    expect(await b.dump("api_keys")).not.toContain(raw.slice(17, 40)); // the secret part is nowhere
    expect((await s.keys.listKeys(a.id)).map((k) => k.key_id)).toEqual([summary.key_id]);
    expect(await s.keys.listKeys(other.id)).toEqual([]);
    expect(await s.keys.revokeKey(other.id, summary.key_id)).toBe(false); // another account's key is not found
    expect(await s.keys.verify(raw)).not.toBeNull();
    expect(await s.keys.revokeKey(a.id, summary.key_id)).toBe(true);
    expect(await s.keys.verify(raw)).toBeNull();
    expect(await s.keys.revokeKey(a.id, summary.key_id)).toBe(false);
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await s.keys.createKey(a.id, `k${i}`);
    await expect(Promise.resolve().then(() => s.keys.createKey(a.id, "one more"))).rejects.toThrow(KeyLimitError);
  });

  test("a plan change reaches a key already verified", async () => {
    const a = await s.accounts.create("plan@example.com");
    const { raw } = await s.keys.createKey(a.id, "k");
    expect((await s.keys.verify(raw))?.plan).toBe("explorer");
    await s.accounts.setPlan(a.id, "unlimited");
    expect((await s.keys.verify(raw))?.plan).toBe("unlimited");
  });

  test("sessions: found by the cookie's id only, ended when idle, a key revealed once", async () => {
    const a = await s.accounts.create("session@example.com");
    const session = await s.sessions.create(a.id);
    expect((await s.sessions.find(session.id))?.accountId).toBe(a.id);
    expect(await b.dump("web_sessions")).not.toContain(Buffer.from(session.id).toString("hex"));
    expect(await s.sessions.find(session.id + "x")).toBeUndefined();
    await s.sessions.holdReveal(session, "key1", "propi_live_secret");
    expect(await s.sessions.takeReveal(session)).toEqual({ keyId: "key1", rawKey: "propi_live_secret" });
    expect(await s.sessions.takeReveal(session)).toBeUndefined();
    const idle = await s.sessions.create(a.id);
    clock += SESSION_IDLE_MS + 1000;
    expect(await s.sessions.find(idle.id)).toBeUndefined();
    const third = await s.sessions.create(a.id);
    expect(await s.sessions.endAll(a.id)).toBeGreaterThanOrEqual(1);
    expect(await s.sessions.find(third.id)).toBeUndefined();
  });

  test("attempt counters: refused past the limit until the window ends; a reset clears them", async () => {
    const c = s.authLimits.logInFailuresPerEmail;
    for (let i = 0; i < c.limit; i++) {
      expect(await c.retryAfter("who@example.com")).toBe(0);
      await c.record("who@example.com");
    }
    const wait = await c.retryAfter("who@example.com");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(c.windowMs / 1000);
    expect(await s.authLimits.logInFailuresPerEmail.retryAfter("else@example.com")).toBe(0);
    await c.reset("who@example.com");
    expect(await c.retryAfter("who@example.com")).toBe(0);
    for (let i = 0; i < c.limit; i++) await c.record("late@example.com");
    clock += c.windowMs;
    expect(await c.retryAfter("late@example.com")).toBe(0);
  });

  test("rate limits: the plan's burst, then a refusal saying when, then the refill", async () => {
    const rate = PLANS.explorer.rate;
    for (let i = 0; i < rate.burst; i++) expect((await s.rateLimits.take("key-burst", rate)).allowed).toBe(true);
    const refused = await s.rateLimits.take("key-burst", rate);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect((await s.rateLimits.take("another-key", rate)).allowed).toBe(true);
    clock += 1000;
    const refilled = await s.rateLimits.take("key-burst", rate);
    expect(refilled.allowed).toBe(true);
    expect(refilled.remaining).toBe(rate.perSecond - 1);
  });

  test("rate limits: a take weighs what it asks; one the bucket cannot cover takes nothing", async () => {
    const rate = PLANS.explorer.rate;
    expect(await s.rateLimits.take("acct-weight", rate, 10)).toMatchObject({ allowed: true, remaining: rate.burst - 10 });
    for (let i = 0; i < 4; i++) expect((await s.rateLimits.take("acct-weight", rate, 10)).allowed).toBe(true);
    expect(await s.rateLimits.take("acct-weight", rate, 11)).toMatchObject({ allowed: false, remaining: 10, retryAfter: 1 });
    expect(await s.rateLimits.take("acct-weight", rate, 10)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await s.rateLimits.take("acct-weight", rate, 10);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: Math.ceil(10 / rate.perSecond) });
    // A first take heavier than the burst is refused too, and leaves the bucket full.
    expect(await s.rateLimits.take("acct-heavy", rate, rate.burst + 1)).toMatchObject({ allowed: false, remaining: rate.burst });
  });

  test("credits: held up to the plan and no further; failures given back; partial charges; usage and ledger agree", async () => {
    const a = await s.accounts.create("credits@example.com");
    const plan = PLANS.explorer;
    const call = (n: number) => ({ keyId: "k1", endpoint: "GET /v1/x", requestId: `req_${n}` });
    const held = await s.credits.hold(a.id, plan, 995, call(0));
    expect(held?.balance.used).toBe(995);
    expect(await s.credits.settle(held!, true, call(0))).toBe(995);
    expect(await s.credits.hold(a.id, plan, 6, call(1))).toBeNull(); // 1001 > 1000
    const failed = await s.credits.hold(a.id, plan, 5, call(2));
    expect(failed).not.toBeNull();
    expect(await s.credits.settle(failed!, false, call(2))).toBe(0); // given back, in the balance once settle answers
    expect((await s.credits.balance(a.id, plan)).used).toBe(995);
    const perUnit = await s.credits.hold(a.id, plan, 5, call(3));
    expect(await s.credits.settle(perUnit!, true, call(3), 2)).toBe(2); // charged 2 of the 5 held
    expect(perUnit!.balance.used).toBe(997);
    const free = await s.credits.hold(a.id, plan, 0, call(4));
    expect(free).not.toBeNull();
    expect(await s.credits.settle(free!, true, call(4))).toBe(0);
    expect(await b.books(a.id)).toEqual({ ledger: 997, used: 997 });
    const usage = await s.credits.usage(a.id, 10);
    expect(usage).toMatchObject({ plan: { id: "explorer", monthly_credits: 1000 }, used: 997, remaining: 3 });
    expect(usage.recent.map((r) => r.cost)).toEqual([2, 995]);
    expect((await s.credits.balance(a.id, plan)).used).toBe(997);
  });
});

describe("PostgreSQL shared by several processes", () => {
  test("50 concurrent holds over two pools on one Explorer account: exactly its 1,000 credits, then none", async () => {
    const database = await freshDatabase();
    const [one, two] = [
      await openPostgresStores({ connectionString: database.url, pepper }),
      await openPostgresStores({ connectionString: database.url, pepper }),
    ];
    try {
      const a = await one.accounts.create("race@example.com");
      let next = 0;
      let granted = 0;
      let refused = 0;
      await Promise.all(
        Array.from({ length: 50 }, async (_, client) => {
          const stores = client % 2 ? two : one;
          while (next < 1050) {
            const n = next++;
            const hold = await stores.credits.hold(a.id, PLANS.explorer, 1, { keyId: "k", endpoint: "GET /v1/x", requestId: `r${n}` });
            if (hold) {
              granted++;
              stores.credits.settle(hold, true, { keyId: "k", endpoint: "GET /v1/x", requestId: `r${n}` });
            } else refused++;
          }
        }),
      );
      expect({ granted, refused }).toEqual({ granted: 1000, refused: 50 });
      const { rows } = await one.pool.query(
        `SELECT (SELECT count(*) FROM credit_ledger WHERE account_id = $1)::int AS rows,
                (SELECT sum(used) FROM credit_usage WHERE account_id = $1)::int AS used`,
        [a.id],
      );
      expect(rows[0]).toEqual({ rows: 1000, used: 1000 });
    } finally {
      await one.close();
      await two.close();
      await database.drop();
    }
  }, 60_000);

  test("credits given back are in the balance another process reads once settle answers: 50 sequential holds at the limit", async () => {
    const database = await freshDatabase();
    const [one, two] = [
      await openPostgresStores({ connectionString: database.url, pepper }),
      await openPostgresStores({ connectionString: database.url, pepper }),
    ];
    try {
      const a = await one.accounts.create("giveback@example.com");
      const call = (n: number) => ({ keyId: "k", endpoint: "GET /v1/x", requestId: `r${n}` });
      await one.credits.settle((await one.credits.hold(a.id, PLANS.explorer, 999, call(0)))!, true, call(0));
      // Each call holds the last credit in one process and fails (given back); the next, in the other, needs it.
      const refused: number[] = [];
      for (let n = 1; n <= 50; n++) {
        const stores = n % 2 ? one : two;
        const hold = await stores.credits.hold(a.id, PLANS.explorer, 1, call(n));
        if (!hold) refused.push(n);
        else await stores.credits.settle(hold, false, call(n));
      }
      expect(refused).toEqual([]);
      expect((await two.credits.balance(a.id, PLANS.explorer)).used).toBe(999);
    } finally {
      await one.close();
      await two.close();
      await database.drop();
    }
  }, 60_000);

  test("ended sign-up and log-in windows are deleted, live ones kept", async () => {
    const database = await freshDatabase();
    const stores = await openPostgresStores({ connectionString: database.url, pepper, now });
    try {
      const perIp = stores.authLimits.logInPerIp;
      await perIp.record("192.0.2.1");
      clock += perIp.windowMs / 2;
      await perIp.record("192.0.2.2");
      clock += perIp.windowMs / 2;
      await perIp.prune();
      const { rows } = await stores.pool.query("SELECT key FROM attempt_windows");
      expect(rows).toEqual([{ key: "192.0.2.2" }]);
    } finally {
      await stores.close();
      await database.drop();
    }
  });

  test("a key revoked through one process is refused by another within its poll interval", async () => {
    const database = await freshDatabase();
    const [one, two] = [
      await openPostgresStores({ connectionString: database.url, pepper, keyPollMs: 100 }),
      await openPostgresStores({ connectionString: database.url, pepper, keyPollMs: 100 }),
    ];
    try {
      const a = await one.accounts.create("revoke@example.com");
      const { raw, summary } = await one.keys.createKey(a.id, "k");
      expect(await two.keys.verify(raw)).not.toBeNull(); // now cached by the other process
      await one.keys.revokeKey(a.id, summary.key_id);
      await two.keys.poll(); // what its timer does every keyPollMs
      expect(await two.keys.verify(raw)).toBeNull();
    } finally {
      await one.close();
      await two.close();
      await database.drop();
    }
  });

  // An event's id is taken when its statement runs, not when it commits: a revocation can commit
  // after a later-numbered event was already polled.
  test("a revocation that commits after a later event was polled is still seen", async () => {
    const database = await freshDatabase();
    const [one, two] = [
      await openPostgresStores({ connectionString: database.url, pepper, keyPollMs: 60_000 }),
      await openPostgresStores({ connectionString: database.url, pepper, keyPollMs: 60_000 }),
    ];
    const slow = await one.pool.connect();
    try {
      const a = await one.accounts.create("late-commit@example.com");
      const first = await one.keys.createKey(a.id, "first");
      const second = await one.keys.createKey(a.id, "second");
      expect(await two.keys.verify(first.raw)).not.toBeNull();
      await slow.query("BEGIN");
      await slow.query("UPDATE api_keys SET revoked_at = $2 WHERE key_id = $1", [first.summary.key_id, new Date().toISOString()]);
      await slow.query("INSERT INTO key_events (key_id, account_id) VALUES ($1, $2)", [first.summary.key_id, a.id]);
      await one.keys.revokeKey(a.id, second.summary.key_id); // a later event id, committed first
      await two.keys.poll();
      await slow.query("COMMIT");
      await two.keys.poll();
      expect(await two.keys.verify(first.raw)).toBeNull();
    } finally {
      slow.release();
      await one.close();
      await two.close();
      await database.drop();
    }
  });

  test("a key read from the database while its revocation was polled is not kept", async () => {
    const database = await freshDatabase();
    const [one, two] = [
      await openPostgresStores({ connectionString: database.url, pepper, keyPollMs: 60_000 }),
      await openPostgresStores({ connectionString: database.url, pepper, keyPollMs: 60_000 }),
    ];
    try {
      const a = await one.accounts.create("in-flight@example.com");
      const { raw, summary } = await one.keys.createKey(a.id, "k");
      // Hold the answer of the other process's key lookup until the revocation has been polled.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let lookups = 0;
      const query = two.pool.query.bind(two.pool) as (...args: unknown[]) => Promise<unknown>;
      (two.pool as unknown as { query: typeof query }).query = async (...args) => {
        const result = await query(...args);
        if (String(args[0]).includes("FROM api_keys k JOIN accounts")) {
          lookups++;
          await gate;
        }
        return result;
      };
      const inFlight = two.keys.verify(raw);
      while (lookups === 0) await new Promise((resolve) => setImmediate(resolve));
      await one.keys.revokeKey(a.id, summary.key_id);
      await two.keys.poll();
      release();
      await inFlight;
      await two.keys.poll();
      expect(await two.keys.verify(raw)).toBeNull();
    } finally {
      await one.close();
      await two.close();
      await database.drop();
    }
  });
});
