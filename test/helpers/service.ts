// The one way tests build the service: startService opens stores (a fresh in-memory SQLite
// accounts database, or with TEST_STORE=postgres, the "postgres" jest project, a fresh database
// on the run's PostgreSQL server), assembles the app over the shared test snapshot (or another
// snapshot file, or a store of snapshots) with buildApp, and adds an account with one API key and request helpers.
// Closing the app closes its stores (and drops a PostgreSQL database).
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import type Database from "better-sqlite3";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { type AppOptions, buildApp } from "../../src/server/app";
import type { Accounts, ApiKeys } from "../../src/server/auth/ports";
import { openPostgresStores } from "../../src/server/stores/postgres";
import type { ServiceStores } from "../../src/server/stores/service-stores";
import { type SqliteStores, openSqliteStores } from "../../src/server/stores/sqlite";
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

export interface ServiceOptions extends Partial<Omit<AppOptions, "stores">> {
  /** A snapshot file to open instead of the shared test snapshot. */
  snapshotFile?: string;
  /** The store to open: the run's (testStore()) unless given. */
  store?: "sqlite" | "postgres";
  /** Stores already open, used instead of opening any (the caller closes them). */
  stores?: ServiceStores;
  /** The email of the account given a key ("analyst@example.com" unless given); null: no account, no key. */
  email?: string | null;
}

export interface TestService {
  app: FastifyInstance;
  stores: ServiceStores;
  /** The app's own accounts and key stores (await their answers: PostgreSQL's are promises). */
  accounts: Accounts;
  keys: ApiKeys;
  /** The SQLite stores, which answer synchronously, and their database; undefined on PostgreSQL. */
  sqlite: SqliteStores | undefined;
  accountsDb: Database.Database | undefined;
  pepper: Buffer;
  snapshot: Database.Database;
  /** The account's one API key, raw ("" when started without an account). */
  key: string;
  /** "" when started without an account. */
  accountId: string;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** A service with one account holding one API key, on the run's store unless `store` or `stores` says otherwise. */
export async function startService(options: ServiceOptions = {}): Promise<TestService> {
  const { email = "analyst@example.com", snapshotFile, store = testStore(), stores: given, ...appOptions } = options;
  const fromStore = appOptions.snapshotStore !== undefined;
  const snapshotDb = fromStore ? undefined : (appOptions.snapshotDb ?? openSnapshot(snapshotFile ?? snapshotPath()));
  const pepper = appOptions.pepper ?? crypto.randomBytes(32);
  let stores: ServiceStores;
  let close = async () => {};
  if (given) stores = given;
  else if (store === "postgres") {
    const database = await freshDatabase();
    stores = await openPostgresStores({ connectionString: database.url, pepper, now: appOptions.now });
    close = async () => {
      await stores.close();
      await database.drop();
    };
  } else {
    stores = openSqliteStores(":memory:", pepper, { now: appOptions.now });
    close = async () => {
      await stores.close();
    };
  }
  const app = buildApp({ ...appOptions, snapshotDb, stores, pepper });
  // Served from a store: the rows picked are those of its latest snapshot when the service started.
  const snapshot = snapshotDb ?? app.liveSnapshot.current.db;
  app.addHook("onClose", close);
  const sqlite = "db" in stores ? (stores as SqliteStores) : undefined;
  const account = email === null ? undefined : await stores.accounts.create(email);
  const key = account ? (await stores.keys.createKey(account.id, "test key")).raw : "";
  const auth = { authorization: `Bearer ${key}` };
  return {
    app,
    stores,
    accounts: stores.accounts,
    keys: stores.keys,
    sqlite,
    accountsDb: sqlite?.db,
    pepper,
    snapshot,
    key,
    accountId: account?.id ?? "",
    get: (url, headers = {}) => app.inject({ method: "GET", url, headers: { ...auth, ...headers } } as InjectOptions),
    post: (url, body, headers = {}) =>
      app.inject({
        method: "POST",
        url,
        payload: body as InjectOptions["payload"],
        headers: { ...auth, ...headers },
      } as InjectOptions),
  };
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
