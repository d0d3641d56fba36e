import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAdmin } from "../../src/server/admin";
import { openAccountsDb } from "../../src/server/stores/sqlite/accounts-db";
import { KeyStore } from "../../src/server/stores/sqlite/keys";
import { loadPepper } from "../../src/server/config";
import { parseKey } from "../../src/contract/api-key-format";
import { openPostgresStores } from "../../src/server/stores/postgres";
import { freshDatabase, type TestDatabase } from "../helpers/postgres";

let dataDir: string;
const saved = process.env.DATA_DIR;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-admin-"));
  process.env.DATA_DIR = dataDir;
});
afterEach(() => {
  process.env.DATA_DIR = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function admin(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdmin(argv, (l) => lines.push(l));
  return lines;
}

describe("npm run admin", () => {
  test("create-key prints a working key as the last line, once, and stores only its hash", async () => {
    const lines = await admin("create-key", "--email", "ops@example.com", "--name", "Model A");
    const key = lines[lines.length - 1];
    expect(parseKey(key)).not.toBeNull();
    expect(lines.filter((l) => l.includes(key.slice(24)))).toEqual([key]); // printed once
    const db = openAccountsDb(path.join(dataDir, "accounts.db"));
    const store = new KeyStore(db, loadPepper(dataDir));
    expect(store.verify(key)).not.toBeNull();
    const dump = JSON.stringify(db.prepare("SELECT * FROM api_keys").all());
    expect(dump).not.toContain(key.slice(24));
    // The pepper file is private to the owner.
    expect(fs.statSync(path.join(dataDir, "key-pepper")).mode & 0o077).toBe(0);
    const list = await admin("list-keys", "--email", "ops@example.com");
    expect(list).toHaveLength(1);
    expect(list[0]).not.toContain(key.slice(24, -4));
  });

  test("a second key goes to the same account; revoke-key revokes it", async () => {
    await admin("create-key", "--email", "ops@example.com", "--name", "A");
    const second = await admin("create-key", "--email", "OPS@example.com", "--name", "B");
    const keyId = parseKey(second[second.length - 1])!.keyId;
    expect(await admin("list-keys", "--email", "ops@example.com")).toHaveLength(2);
    expect(await admin("revoke-key", "--email", "ops@example.com", "--key-id", keyId)).toEqual(["Revoked."]);
    expect((await admin("list-keys", "--email", "ops@example.com")).join("\n")).toMatch(/REVOKED/);
  });

  test("--plan puts the account on a plan; set-plan moves it", async () => {
    await admin("create-key", "--email", "load@example.com", "--name", "bench", "--plan", "unlimited");
    const db = openAccountsDb(path.join(dataDir, "accounts.db"));
    const plan = () => db.prepare("SELECT plan FROM accounts WHERE email = ?").pluck().get("load@example.com");
    expect(plan()).toBe("unlimited");
    expect((await admin("set-plan", "--email", "load@example.com", "--plan", "explorer"))[0]).toMatch(/Explorer plan/);
    expect(plan()).toBe("explorer");
    await expect(admin("set-plan", "--email", "load@example.com", "--plan", "gold")).rejects.toThrow(
      /Unknown plan 'gold'.*explorer, unlimited/,
    );
    await expect(admin("create-key", "--email", "new@example.com", "--name", "x", "--plan", "gold")).rejects.toThrow(/Unknown plan/);
    expect(db.prepare("SELECT count(*) FROM accounts WHERE email = 'new@example.com'").pluck().get()).toBe(0);
  });

  test("bad input gets a clear error and creates nothing", async () => {
    await expect(admin("create-key", "--email", "not-an-email", "--name", "x")).rejects.toThrow(/not an email/);
    await expect(admin("create-key", "--email", "a@b.co")).rejects.toThrow(/--name is required/);
    await expect(admin("make-key")).rejects.toThrow(/Usage/);
    await expect(admin("revoke-key", "--email", "a@b.co", "--key-id", "nope")).rejects.toThrow(/No such active key/);
    const db = openAccountsDb(path.join(dataDir, "accounts.db"));
    expect(db.prepare("SELECT count(*) n FROM api_keys").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT count(*) n FROM accounts").get()).toEqual({ n: 0 });
  });

  test("an unknown option, a missing value or a stray argument is refused with the usage, before any database is opened", async () => {
    await expect(admin("create-key", "--email", "a@b.co", "--name", "x", "--bogus")).rejects.toThrow(/^Unknown option '--bogus'\.\nUsage:/);
    await expect(admin("create-key", "--email", "a@b.co", "--nmae", "x")).rejects.toThrow(/Unknown option '--nmae'/);
    await expect(admin("create-key", "--name", "x", "--email")).rejects.toThrow(/Option '--email <value>' argument missing\.\nUsage:/);
    await expect(admin("revoke-key", "--email", "a@b.co", "key_123")).rejects.toThrow(/Unexpected argument 'key_123'\.\nUsage:/);
    expect(fs.existsSync(path.join(dataDir, "accounts.db"))).toBe(false);
    expect((await admin("--help")).join("\n")).toMatch(/^Usage:\n {2}npm run admin -- create-key/);
  });

  test("from the command line, an unknown option exits with 1 and says which", async () => {
    const run = spawnSync(
      process.execPath,
      [require.resolve("tsx/cli"), "src/server/admin.ts", "list-keys", "--email", "a@b.co", "--bogus"],
      {
        cwd: path.join(__dirname, "../.."),
        env: { ...process.env, DATA_DIR: dataDir },
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Unknown option '--bogus'\.\nUsage:/);
    expect(run.stdout).toBe("");
  });
});

describe("npm run admin on PostgreSQL (DATABASE_URL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database?.drop());

  /** The command as an operator runs it: its own process, its exit code and output. */
  const cli = (...argv: string[]) =>
    spawnSync(process.execPath, [require.resolve("tsx/cli"), "src/server/admin.ts", ...argv], {
      cwd: path.join(__dirname, "../.."),
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: database.url },
      encoding: "utf8",
    });

  test("create-key exits 0 with the key as its last line, and the key is in the database", async () => {
    const run = cli("create-key", "--email", "pg-ops@example.com", "--name", "Model P");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const key = run.stdout.trim().split("\n").pop()!;
    expect(parseKey(key)).not.toBeNull();
    const stores = await openPostgresStores({ connectionString: database.url, pepper: loadPepper(dataDir) });
    try {
      expect(await stores.keys.verify(key)).not.toBeNull();
    } finally {
      await stores.close();
    }
    const list = cli("list-keys", "--email", "pg-ops@example.com");
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/Model P/);
  });
});
