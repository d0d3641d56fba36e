// The one way tests build the service: buildApp over the shared test snapshot (or another
// snapshot file), with a fresh in-memory accounts database and a random pepper unless the test
// gives its own. `startService` adds an account with one API key and request helpers; with
// TEST_STORE=postgres (the "postgres" jest project) its accounts, keys and credits live in a
// fresh database on the run's PostgreSQL server instead, dropped when the app closes.
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import type Database from "better-sqlite3";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { type AppOptions, buildApp } from "../../src/server/app";
import { openAccountsDb } from "../../src/server/db/accounts-db";
import type { KeyStore } from "../../src/server/auth/key-store";
import type { ApiKeys } from "../../src/server/auth/stores";
import { openPostgresStores } from "../../src/server/postgres";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { freshDatabase } from "./postgres";

/** The store the tests of this run's project go through: "postgres" in the PostgreSQL project, else "sqlite". */
export function testStore(): "sqlite" | "postgres" {
  return process.env.TEST_STORE === "postgres" ? "postgres" : "sqlite";
}

export function snapshotPath(): string {
  const p = process.env.TEST_SNAPSHOT;
  if (!p) throw new Error("TEST_SNAPSHOT is not set: run tests through jest (globalSetup builds it)");
  return p;
}

export interface TestAppOptions extends Partial<AppOptions> {
  /** A snapshot file to open instead of the shared test snapshot. */
  snapshotFile?: string;
}

export interface TestApp {
  app: FastifyInstance;
  /** The app's own key store (the same instance the API checks keys with). */
  keys: KeyStore;
  accountsDb: Database.Database;
  pepper: Buffer;
  snapshot: Database.Database;
}

/** The app over the embedded SQLite store, always (for tests that read its database or call its KeyStore synchronously). */
export function buildTestApp(options: TestAppOptions = {}): TestApp {
  const { snapshotFile, ...overrides } = options;
  const snapshot = overrides.snapshotDb ?? openSnapshot(snapshotFile ?? snapshotPath());
  const accountsDb = overrides.accountsDb ?? openAccountsDb(":memory:");
  const pepper = overrides.pepper ?? crypto.randomBytes(32);
  const app = buildApp({ ...overrides, snapshotDb: snapshot, accountsDb, pepper });
  // The embedded default store: its KeyStore answers synchronously, as these tests call it.
  return { app, keys: app.keys as KeyStore, accountsDb, pepper, snapshot };
}

export interface TestService extends Omit<TestApp, "keys" | "accountsDb"> {
  /** The app's key store: await its answers (PostgreSQL's are promises). */
  keys: ApiKeys;
  /** The SQLite accounts database; undefined on PostgreSQL (TEST_STORE=postgres). */
  accountsDb: Database.Database | undefined;
  key: string;
  accountId: string;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/**
 * A service with one account ("analyst@example.com" unless given) holding one API key, on the
 * run's store (testStore()). Closing the app closes its stores (and drops a PostgreSQL database).
 */
export async function startService(options: TestAppOptions & { email?: string } = {}): Promise<TestService> {
  const { email = "analyst@example.com", ...appOptions } = options;
  const built =
    testStore() === "postgres" && !appOptions.accountsDb && !appOptions.stores
      ? await buildPostgresApp(appOptions)
      : buildTestApp(appOptions);
  const account = await built.keys.accounts.create(email);
  const key = (await built.keys.createKey(account.id, "test key")).raw;
  const auth = { authorization: `Bearer ${key}` };
  return {
    ...built,
    key,
    accountId: account.id,
    get: (url, headers = {}) => built.app.inject({ method: "GET", url, headers: { ...auth, ...headers } } as InjectOptions),
    post: (url, body, headers = {}) =>
      built.app.inject({
        method: "POST",
        url,
        payload: body as InjectOptions["payload"],
        headers: { ...auth, ...headers },
      } as InjectOptions),
  };
}

/** The app over PostgreSQL stores in a database of its own, closed and dropped with the app. */
export async function buildPostgresApp(options: TestAppOptions = {}): Promise<Omit<TestService, "key" | "accountId" | "get" | "post">> {
  const { snapshotFile, ...overrides } = options;
  const snapshot = overrides.snapshotDb ?? openSnapshot(snapshotFile ?? snapshotPath());
  const pepper = overrides.pepper ?? crypto.randomBytes(32);
  const database = await freshDatabase();
  const stores = await openPostgresStores({ connectionString: database.url, pepper, now: overrides.now });
  const app = buildApp({ ...overrides, snapshotDb: snapshot, stores, pepper });
  app.addHook("onClose", async () => {
    await stores.close();
    await database.drop();
  });
  return { app, keys: stores.keys, accountsDb: undefined, pepper, snapshot };
}

/** One row of the snapshot, for picking real ids to ask about. */
export function pick<T = any>(svc: TestService, sql: string, ...params: unknown[]): T {
  const row = svc.snapshot.prepare(sql).get(...params) as T | undefined;
  if (!row) throw new Error(`test snapshot has no row for: ${sql}`);
  return row;
}

/** Listens on a free loopback port, for clients that need a real socket (the built bundle, a browser); returns the origin. */
export async function listenOnLoopback(svc: { app: FastifyInstance }): Promise<string> {
  await svc.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
}

/** A query string of `params`, each value as text. */
export function queryString(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
}
