// The embedded PostgreSQL server starts for any user in any folder: as root it runs as another
// account, with binaries that account can reach, and on a machine without a `postgres` account it
// falls back to `nobody`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type RunningPostgres } from "../../scripts/embedded-postgres";
import { lookupAccount, serverAccount, type Account } from "../../scripts/postgres-account";

const ROOT = path.resolve(__dirname, "../..");
const asRoot = process.getuid?.() === 0 ? test : test.skip;

async function queryOne(url: string, sql: string): Promise<Record<string, unknown>> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query(sql)).rows[0] as Record<string, unknown>;
  } finally {
    await client.end();
  }
}

describe("the account the server runs as", () => {
  const accounts: Record<string, Account> = {
    postgres: { name: "postgres", uid: 101, gid: 104 },
    nobody: { name: "nobody", uid: 65534, gid: 65534 },
  };

  test("a user other than root runs the server as themself", () => {
    expect(serverAccount(1000, (name) => accounts[name])).toBeUndefined();
  });

  test("root runs it as postgres when the machine has that account", () => {
    expect(serverAccount(0, (name) => accounts[name])).toEqual(accounts.postgres);
  });

  test("root on a machine without a postgres account runs it as nobody", () => {
    expect(serverAccount(0, (name) => (name === "postgres" ? undefined : accounts[name]))).toEqual(accounts.nobody);
  });

  test("root on a machine with neither account gets an error that names TEST_DATABASE_URL", () => {
    expect(() => serverAccount(0, () => undefined)).toThrow(/no postgres or nobody account.*TEST_DATABASE_URL/);
  });

  test("accounts are looked up on this machine, and an unknown name is none", () => {
    expect(lookupAccount("root")).toEqual({ name: "root", uid: 0, gid: 0 });
    expect(lookupAccount("propintel-no-such-account")).toBeUndefined();
  });
});

describe("a real server", () => {
  let dir: string;
  let running: RunningPostgres | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-private-"));
    fs.chmodSync(dir, 0o700);
  });

  afterEach(async () => {
    await running?.stop();
    running = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("starts from a checkout inside a folder only its owner can enter, and answers a query", () => {
    // A checkout in a 0700 folder, seen through its own path: node_modules and scripts are links to
    // this one's, and Node keeps the linked paths (NODE_PRESERVE_SYMLINKS), so the binaries are
    // found under the private folder, as in a clone there.
    const checkout = path.join(dir, "x");
    fs.mkdirSync(checkout);
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(checkout, "node_modules"));
    fs.symlinkSync(path.join(ROOT, "scripts"), path.join(checkout, "scripts"));
    fs.writeFileSync(
      path.join(checkout, "probe.ts"),
      [
        'import pg from "pg";',
        'import { startEmbeddedPostgres } from "./scripts/embedded-postgres";',
        "(async () => {",
        "  const server = await startEmbeddedPostgres();",
        "  const client = new pg.Client(server.url);",
        "  await client.connect();",
        '  const { rows } = await client.query("SELECT 6 * 7 AS answer");',
        "  await client.end();",
        "  await server.stop();",
        "  console.log(`answer ${rows[0].answer}`);",
        "})().catch((err) => {",
        "  console.error(err);",
        "  process.exit(1);",
        "});",
      ].join("\n"),
    );
    const output = execFileSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "probe.ts"], {
      cwd: checkout,
      env: { ...process.env, NODE_PRESERVE_SYMLINKS: "1" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(output).toContain("answer 42");
  });

  asRoot("runs as nobody when told to, as on a machine without a postgres account: its data folder is nobody's", async () => {
    const nobody = lookupAccount("nobody");
    if (!nobody) throw new Error("this machine has no nobody account");
    running = await startEmbeddedPostgres({ account: nobody });
    const { data_directory } = await queryOne(running.url, "SHOW data_directory");
    expect(fs.statSync(String(data_directory)).uid).toBe(nobody.uid);
    expect(await queryOne(running.url, "SELECT 6 * 7 AS answer")).toEqual({ answer: 42 });
  });

  test("stopping the server removes everything it wrote", async () => {
    running = await startEmbeddedPostgres();
    const { data_directory } = await queryOne(running.url, "SHOW data_directory");
    await running.stop();
    running = undefined;
    expect(fs.existsSync(String(data_directory))).toBe(false);
  });
});
