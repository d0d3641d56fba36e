// PostgreSQL outages, for real: the service's pools reach the run's PostgreSQL server through a
// TCP proxy this test controls, which it closes (a stopped database), cuts (a restart: every
// connection dropped mid-call) and stalls (a hung database: connections open, nothing answered).
// Each is a 503 problem+json with Retry-After (a 503 page on the account pages), logged as a
// warning with its cause; /healthz says so; calls refused are not charged; and the service
// answers again once the database does.
import net from "node:net";
import crypto from "node:crypto";
import type { FastifyInstance } from "fastify";
import { PLANS } from "../../src/server/auth/plans";
import type { Credits } from "../../src/server/credits/ports";
import { openPostgresStores, type PostgresStores } from "../../src/server/stores/postgres";
import { openSqliteStores } from "../../src/server/stores/sqlite";
import { logSink } from "../helpers/log-sink";
import { freshDatabase, type TestDatabase } from "../helpers/postgres";
import { startService } from "../helpers/service";
import { PASSWORD, WebClient } from "./web-client";

/** A TCP proxy to the database server that the test can close, cut and stall. */
class DatabaseProxy {
  private server = net.createServer((client) => this.accept(client));
  private pairs = new Set<{ client: net.Socket; upstream?: net.Socket }>();
  private stalled = false;
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  private accept(client: net.Socket): void {
    const pair: { client: net.Socket; upstream?: net.Socket } = { client };
    this.pairs.add(pair);
    client.on("error", () => {});
    client.on("close", () => {
      pair.upstream?.destroy();
      this.pairs.delete(pair);
    });
    if (this.stalled) return; // accepted, never answered
    const upstream = net.connect(this.targetPort, this.host);
    pair.upstream = upstream;
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => client.destroy());
    client.on("data", (d) => {
      if (!this.stalled) upstream.write(d);
    });
    upstream.on("data", (d) => {
      if (!this.stalled) client.write(d);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Drops every connection, as a restarting server does; new ones are served. */
  cut(): void {
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream?.destroy();
    }
  }

  /** A stopped server: connections dropped and refused. */
  async close(): Promise<void> {
    const closed = new Promise((resolve) => this.server.close(resolve));
    this.cut();
    await closed;
    this.server = net.createServer((client) => this.accept(client));
  }

  /** A hung server: connections stay open (new ones too) and nothing more is answered. */
  stall(): void {
    this.stalled = true;
  }

  /** Answers again: the stalled connections are dropped (their conversations are lost). */
  resume(): void {
    this.stalled = false;
    this.cut();
  }
}

/** The bounds the service is given here, small so the test is quick. */
const BOUNDS = { connectTimeoutMs: 500, queryTimeoutMs: 1000 };

let database: TestDatabase;
let proxy: DatabaseProxy;
let stores: PostgresStores;
let direct: PostgresStores;
let app: FastifyInstance;
let key: string;
let accountId: string;
let detailUrl: string;
const log = logSink();

beforeAll(async () => {
  database = await freshDatabase();
  const target = new URL(database.url);
  proxy = new DatabaseProxy(target.hostname, Number(target.port));
  await proxy.listen();
  const viaProxy = new URL(database.url);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
  const pepper = crypto.randomBytes(32);
  stores = await openPostgresStores({ connectionString: viaProxy.toString(), pepper, ...BOUNDS });
  direct = await openPostgresStores({ connectionString: database.url, pepper });
  const svc = await startService({ stores, pepper, logger: { level: "info", stream: log.stream }, email: "outage@example.com" });
  ({ app, key, accountId } = svc);
  const { snapshot } = svc;
  const id = (snapshot.prepare("SELECT id FROM properties LIMIT 1").get() as { id: string }).id;
  detailUrl = `/v1/commercial/properties/${id}`;
});

afterAll(async () => {
  await app?.close();
  await stores?.close().catch(() => {});
  await direct?.close();
  await proxy?.close().catch(() => {});
  await database?.drop();
});

const call = (url = detailUrl) => app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });

/** The call's answer, or a failure naming the wait when none comes within `ms` (a hung call). */
async function answered<T>(p: Promise<T>, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Credits used this period, read straight from the database (not through the proxy). */
async function used(): Promise<number> {
  await Promise.resolve(stores.credits.flush()).catch(() => {});
  return (await direct.credits.balance(accountId, PLANS.explorer)).used;
}

function expectOutageAnswer(res: Awaited<ReturnType<typeof call>>): void {
  expect(res.statusCode).toBe(503);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.headers["retry-after"]).toBe("5");
  expect(res.json()).toMatchObject({ status: 503, code: "service_unavailable", retry_after_seconds: 5 });
}

/** Log lines at error level (pino: 50 and above). */
const errorLines = () =>
  log
    .text()
    .split("\n")
    .filter((l) => l && JSON.parse(l).level >= 50);

test("a stopped database: API calls and /healthz answer 503 with Retry-After, the account pages a 503 page, nothing is charged", async () => {
  expect((await call()).statusCode).toBe(200);
  const before = await used();
  await proxy.close();

  for (let i = 0; i < 3; i++) expectOutageAnswer(await answered(call()));
  const health = await answered(app.inject({ method: "GET", url: "/healthz" }));
  expect(health.statusCode).toBe(503);
  expect(health.headers["retry-after"]).toBe("5");
  expect(health.json()).toEqual({ status: "unavailable", store: { kind: "postgresql", state: "unavailable" } });
  const page = await answered(new WebClient(app, "10.1.0.1").logIn("outage@example.com", PASSWORD));
  expect(page.statusCode).toBe(503);
  expect(page.headers["content-type"]).toMatch(/text\/html/);
  expect(page.headers["retry-after"]).toBe("5");

  await proxy.listen();
  expect((await answered(call())).statusCode).toBe(200);
  expect(await used()).toBe(before + 1);
  await new Promise((resolve) => setTimeout(resolve, 1100)); // /healthz checks the store again after 1 s
  expect((await app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({
    status: "ok",
    store: { kind: "postgresql", state: "ok" },
  });
});

test("a restart that drops every connection mid-call answers 503, never 500, and the next call is served", async () => {
  expect((await call()).statusCode).toBe(200);
  const before = await used();
  proxy.stall();
  const inFlight = call(); // reaches the database, which does not answer
  await new Promise((resolve) => setTimeout(resolve, 100));
  proxy.resume(); // ...and now drops its connection
  expectOutageAnswer(await answered(inFlight));
  expect((await answered(call())).statusCode).toBe(200);
  expect(await used()).toBe(before + 1);
});

test("a hung database: calls end with 503 within the configured bounds instead of waiting, and are not charged", async () => {
  expect((await call()).statusCode).toBe(200);
  const before = await used();
  proxy.stall();
  const calls = await answered(Promise.all([call(), call(), call()]));
  for (const res of calls) expectOutageAnswer(res);
  proxy.resume();
  expect((await answered(call())).statusCode).toBe(200);
  expect(await used()).toBe(before + 1);
});

test("outages are logged as warnings with their cause, one line each, never as errors with a stack", () => {
  const warnings = log
    .text()
    .split("\n")
    .filter((l) => l.includes("store unavailable"));
  expect(warnings.length).toBeGreaterThan(0);
  for (const line of warnings) {
    const entry = JSON.parse(line);
    expect(entry.level).toBe(40);
    expect(typeof entry.cause).toBe("string");
    expect(line).not.toMatch(/"stack"/);
  }
  expect(errorLines()).toEqual([]);
});

test("a store that fails at the credit hold (its rate limits still answering) is a 503 too, not a 500", async () => {
  const pepper = crypto.randomBytes(32);
  const sqlite = openSqliteStores(":memory:", pepper);
  const down = () => Promise.reject(new Error("Connection terminated unexpectedly"));
  const credits: Credits = sqlite.credits;
  credits.hold = down;
  credits.balance = down;
  const { app: holdDown, key: raw } = await startService({ stores: sqlite, pepper, email: "hold-down@example.com" });
  try {
    const markets = [{ geography: "TX", asset_type: "industrial" }];
    for (const req of [
      { method: "GET" as const, url: detailUrl },
      { method: "POST" as const, url: "/v1/commercial/markets/batch", payload: { markets } },
    ]) {
      const res = await answered(holdDown.inject({ ...req, headers: { authorization: `Bearer ${raw}` } }));
      expectOutageAnswer(res);
    }
  } finally {
    await holdDown.close().catch(() => {});
    await sqlite.close();
  }
});
