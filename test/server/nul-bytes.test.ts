// A NUL character in an email, a key name or a key id gets the same clear answer on both stores
// (PostgreSQL's text cannot hold one; auth/text-values.ts): refused with 400 where it would be
// stored, not found where it is looked up; never a 500.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { runAdmin } from "../../src/server/admin";
import type { Accounts } from "../../src/server/auth/ports";
import { formatKey, parseKey } from "../../src/contract/api-key-format";
import { startService } from "../helpers/service";
import { freshDatabase, type TestDatabase } from "../helpers/postgres";
import { PASSWORD, WebClient } from "./web-client";

const NUL = "\0";

describe.each([
  ["SQLite", "sqlite"],
  ["PostgreSQL", "postgres"],
] as const)("%s store", (_name, store) => {
  let app: FastifyInstance;
  let accounts: Accounts;
  let n = 0;
  const email = () => `nul-${++n}@example.com`;

  beforeAll(async () => {
    ({ app, accounts } = await startService({ store, email: null }));
  });
  afterAll(() => app?.close());

  test("sign-up with a NUL in the email is a 400 page, and no account is made", async () => {
    const address = `a${NUL}b@example.com`;
    const res = await new WebClient(app, "10.0.0.1").signUp(address, PASSWORD);
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(await accounts.findByEmail(address)).toBeUndefined();
  });

  test("log-in with a NUL in the email is the usual wrong-credentials answer (401)", async () => {
    const web = new WebClient(app, "10.0.0.2");
    const address = email();
    expect((await web.signUp(address, PASSWORD)).statusCode).toBe(303);
    const res = await new WebClient(app, "10.0.0.3").logIn(address.replace("@", `${NUL}@`), PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain("Email or password is incorrect.");
  });

  test("a key named with a NUL is refused with a 400 page; revoking a key id with a NUL finds no key (404)", async () => {
    const web = new WebClient(app, "10.0.0.4");
    expect((await web.signUp(email(), PASSWORD)).statusCode).toBe(303);
    const named = await web.submit("/account", "/account/keys", { name: `model${NUL}one` });
    expect(named.statusCode).toBe(400);
    const key = await web.createKey("a model");
    const keyId = parseKey(key)!.keyId;
    const bad = encodeURIComponent(`${keyId}${NUL}`);
    expect((await web.get(`/account/keys/${bad}/revoke`)).statusCode).toBe(404);
    expect((await web.submit(`/account/keys/${keyId}/revoke`, `/account/keys/${bad}/revoke`, {})).statusCode).toBe(404);
    // The key itself still works.
    const api = await app.inject({ method: "GET", url: "/v1/commercial/coverage", headers: { authorization: `Bearer ${key}` } });
    expect(api.statusCode).toBe(200);
  });

  test("a bearer key with a NUL in its id is the usual 401", async () => {
    const forged = formatKey("live", `ABCDEFGHIJK${NUL}`.slice(0, 12), "A".repeat(24));
    for (const key of [forged, `propi_live_${NUL}`]) {
      const res = await app.inject({ method: "GET", url: "/v1/commercial/coverage", headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe("invalid_api_key");
    }
  });
});

describe("admin commands with a NUL", () => {
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  let dataDir: string;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-nul-"));
    process.env.DATA_DIR = dataDir;
  });
  afterEach(() => {
    process.env.DATA_DIR = saved.DATA_DIR;
    process.env.DATABASE_URL = saved.DATABASE_URL;
    if (saved.DATABASE_URL === undefined) delete process.env.DATABASE_URL;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(() => database?.drop());

  const admin = async (...argv: string[]) => {
    const lines: string[] = [];
    await runAdmin(argv, (l) => lines.push(l));
    return lines;
  };

  test.each([
    ["SQLite", () => delete process.env.DATABASE_URL],
    ["PostgreSQL", () => (process.env.DATABASE_URL = database.url)],
  ])("%s: a NUL in --email or --name is refused saying so, and in --key-id finds no key", async (_name, useStore) => {
    useStore();
    await expect(admin("create-key", "--email", `ops${NUL}@example.com`, "--name", "x")).rejects.toThrow(
      "An email address cannot contain a NUL character.",
    );
    await expect(admin("create-key", "--email", "ops@example.com", "--name", `x${NUL}y`)).rejects.toThrow(
      "A key name cannot contain a NUL character.",
    );
    const created = await admin("create-key", "--email", "ops@example.com", "--name", "model");
    const keyId = parseKey(created[created.length - 1])!.keyId;
    await expect(admin("revoke-key", "--email", "ops@example.com", "--key-id", `${keyId}${NUL}`)).rejects.toThrow(/No such active key/);
    await expect(admin("list-keys", "--email", `ops${NUL}@example.com`)).rejects.toThrow(/No account with that email/);
    expect((await admin("list-keys", "--email", "ops@example.com")).join("\n")).not.toMatch(/REVOKED/);
  });
});
