// The admin command and the web pages share accounts: set-password lets an account made by
// create-key log in, and create-key respects the same key cap as the keys page.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAdmin } from "../../src/server/admin";
import { openAccountsDb } from "../../src/server/stores/sqlite/accounts-db";
import { MAX_ACTIVE_KEYS } from "../../src/server/auth/ports";
import { verifyPassword } from "../../src/server/web/passwords";
import { SessionStore } from "../../src/server/stores/sqlite/sessions";

let dataDir: string;
const saved = process.env.DATA_DIR;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-web-admin-"));
  process.env.DATA_DIR = dataDir;
});
afterEach(() => {
  process.env.DATA_DIR = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function admin(argv: string[], secret = ""): Promise<string[]> {
  const lines: string[] = [];
  await runAdmin(
    argv,
    (l) => lines.push(l),
    () => secret,
  );
  return lines;
}
const db = () => openAccountsDb(path.join(dataDir, "accounts.db"));

test("set-password reads the password from standard input and lets a create-key account log in", async () => {
  await admin(["create-key", "--email", "ops@example.com", "--name", "A"]);
  expect(db().prepare("SELECT count(*) FROM account_passwords").pluck().get()).toBe(0);
  await expect(admin(["set-password", "--email", "ops@example.com"], "short\n")).rejects.toThrow(
    /Password not set: Use at least 12 characters/,
  );
  await expect(admin(["set-password", "--email", "nobody@example.com"], "a long enough password\n")).rejects.toThrow(/No account/);
  const accountId = db().prepare("SELECT id FROM accounts").pluck().get() as string;
  new SessionStore(db()).create(accountId); // logged in somewhere: a password reset ends it
  const out = await admin(["set-password", "--email", "OPS@example.com"], "a long enough password\n");
  expect(db().prepare("SELECT count(*) FROM web_sessions").pluck().get()).toBe(0);
  expect(out.join("\n")).toMatch(/Password set for ops@example.com/);
  expect(out.join("\n")).not.toContain("a long enough password");
  const stored = db().prepare("SELECT hash FROM account_passwords").pluck().get() as string;
  expect(await verifyPassword("a long enough password", stored)).toBe(true);
  expect(await verifyPassword("a long enough password\n", stored)).toBe(false);
});

test(`create-key refuses a key past the cap of ${MAX_ACTIVE_KEYS} active keys, with a clear message`, async () => {
  for (let i = 0; i < MAX_ACTIVE_KEYS; i++) await admin(["create-key", "--email", "ops@example.com", "--name", `k${i}`]);
  await expect(admin(["create-key", "--email", "ops@example.com", "--name", "one more"])).rejects.toThrow(
    /already has 10 active keys, the most allowed[\s\S]*revoke-key/,
  );
  expect(db().prepare("SELECT count(*) FROM api_keys").pluck().get()).toBe(MAX_ACTIVE_KEYS);
  const keyId = (await admin(["list-keys", "--email", "ops@example.com"]))[0].split(" ")[0];
  await admin(["revoke-key", "--email", "ops@example.com", "--key-id", keyId]);
  expect(await admin(["create-key", "--email", "ops@example.com", "--name", "one more"])).toHaveLength(3);
});
