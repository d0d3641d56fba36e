// A service over the shared test snapshot with a fresh accounts database and one API key.
import crypto from "node:crypto";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/server/app";
import { openAccountsDb } from "../../src/server/db/accounts-db";
import { KeyStore } from "../../src/server/auth/key-store";
import { openSnapshot } from "../../src/snapshot/snapshot-file";

export interface TestService {
  app: FastifyInstance;
  keys: KeyStore;
  accountsDb: ReturnType<typeof openAccountsDb>;
  pepper: Buffer;
  key: string;
  accountId: string;
  snapshot: ReturnType<typeof openSnapshot>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export function snapshotPath(): string {
  const p = process.env.TEST_SNAPSHOT;
  if (!p) throw new Error("TEST_SNAPSHOT is not set: run tests through jest (globalSetup builds it)");
  return p;
}

export function startService(): TestService {
  const snapshot = openSnapshot(snapshotPath());
  const accountsDb = openAccountsDb(":memory:");
  const pepper = crypto.randomBytes(32);
  const app = buildApp({ snapshotDb: snapshot, accountsDb, pepper });
  const keys = new KeyStore(accountsDb, pepper);
  const account = keys.accounts.create("analyst@example.com");
  const key = keys.createKey(account.id, "test key").raw;
  const auth = { authorization: `Bearer ${key}` };
  return {
    app,
    keys,
    accountsDb,
    pepper,
    key,
    accountId: account.id,
    snapshot,
    get: (url, headers = {}) => app.inject({ method: "GET", url, headers: { ...auth, ...headers } } as InjectOptions),
    post: (url, body, headers = {}) =>
      app.inject({ method: "POST", url, payload: body as any, headers: { ...auth, ...headers } } as InjectOptions),
  };
}

/** One row of the snapshot, for picking real ids to ask about. */
export function pick<T = any>(svc: TestService, sql: string, ...params: unknown[]): T {
  const row = svc.snapshot.prepare(sql).get(...params) as T | undefined;
  if (!row) throw new Error(`test snapshot has no row for: ${sql}`);
  return row;
}
