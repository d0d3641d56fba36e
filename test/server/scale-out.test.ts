// Several service processes on one PostgreSQL store, as deployed: the real entry point run with
// WORKERS=2 and DATABASE_URL (one port, node:cluster), driven over HTTP. Credits stay exact
// across the processes, a revocation reaches both, and killing one leaves the other answering.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { loadPepper } from "../../src/server/config";
import { openPostgresStores } from "../../src/server/stores/postgres";
import { snapshotPath } from "../helpers/service";
import { freshDatabase } from "../helpers/postgres";

const ROOT = path.resolve(__dirname, "../..");
const TSX = require.resolve("tsx/cli");

interface Running {
  child: ChildProcess;
  base: string;
  output: () => string;
}

async function startWorkers(databaseUrl: string, dataDir: string): Promise<Running> {
  let output = "";
  const child = spawn(process.execPath, [TSX, "src/server/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      WORKERS: "2",
      DATABASE_URL: databaseUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited: ${output}`);
    const running = /is running at (http:\S+)/.exec(output);
    if (running) return { child, base: running[1], output: () => output };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service did not start: ${output}`);
}

/** The service processes: the children of the supervisor, which DATA_DIR/service.pid names. */
function workerPids(): number[] {
  const supervisor = fs.readFileSync(path.join(dataDir, "service.pid"), "utf8").trim();
  return fs.readFileSync(`/proc/${supervisor}/task/${supervisor}/children`, "utf8").split(" ").filter(Boolean).map(Number);
}

async function get(base: string, url: string, key: string, timeoutMs?: number): Promise<number> {
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const res = await fetch(base + url, { headers: { authorization: `Bearer ${key}` }, signal });
  await res.arrayBuffer();
  return res.status;
}

let db: Awaited<ReturnType<typeof freshDatabase>>;
let stores: Awaited<ReturnType<typeof openPostgresStores>>;
let service: Running;
let dataDir: string;
let detailUrls: string[];

beforeAll(async () => {
  db = await freshDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-scale-"));
  fs.symlinkSync(snapshotPath(), path.join(dataDir, "snapshot.db"));
  service = await startWorkers(db.url, dataDir);
  stores = await openPostgresStores({ connectionString: db.url, pepper: loadPepper(dataDir) });
  const snapshot = new Database(snapshotPath(), { readonly: true });
  detailUrls = (snapshot.prepare("SELECT id FROM properties LIMIT 200").all() as { id: string }[]).map(
    (r) => `/v1/commercial/properties/${r.id}`,
  );
  snapshot.close();
}, 120_000);

afterAll(async () => {
  if (service?.child.exitCode === null) {
    const exited = new Promise((r) => service.child.once("exit", r));
    service.child.kill("SIGTERM");
    await exited;
  }
  await stores?.close();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("two processes share one port, and the banner says so", () => {
  expect(workerPids()).toHaveLength(2);
  expect(service.output()).toMatch(/Processes: +2 \(WORKERS\)/);
  expect(service.output()).toMatch(/Accounts: +PostgreSQL/);
});

test("50 clients over 2 processes on one Explorer account are charged exactly its 1,000 credits, then get 402", async () => {
  const account = await stores.accounts.create("team@example.com");
  const keys: string[] = [];
  for (let k = 0; k < 10; k++) keys.push((await stores.keys.createKey(account.id, `workbook ${k}`)).raw);
  const counts = { ok: 0, paymentRequired: 0, other: [] as number[] };
  let n = 0;
  await Promise.all(
    Array.from({ length: 50 }, async (_, client) => {
      for (;;) {
        const res = await fetch(service.base + detailUrls[n++ % detailUrls.length], {
          headers: { authorization: `Bearer ${keys[client % keys.length]}` },
        });
        await res.arrayBuffer();
        if (res.status === 200) counts.ok++;
        else if (res.status === 402) return void counts.paymentRequired++;
        else if (res.status === 429) await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
        else return void counts.other.push(res.status);
      }
    }),
  );
  expect(counts).toEqual({ ok: 1000, paymentRequired: 50, other: [] });
  const client = new pg.Client(db.url);
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT (SELECT count(*) FROM credit_ledger WHERE account_id = $1)::int AS rows,
              (SELECT coalesce(sum(cost), 0) FROM credit_ledger WHERE account_id = $1)::int AS ledger,
              (SELECT coalesce(sum(used), 0) FROM credit_usage WHERE account_id = $1)::int AS used`,
      [account.id],
    );
    expect(rows[0]).toEqual({ rows: 1000, ledger: 1000, used: 1000 });
  } finally {
    await client.end();
  }
}, 120_000);

test("a key revoked by another process is refused by both service processes within the revocation bound", async () => {
  const account = await stores.accounts.create("revoke@example.com", "unlimited");
  const { raw, summary } = await stores.keys.createKey(account.id, "soon revoked");
  for (let i = 0; i < 10; i++) expect(await get(service.base, detailUrls[i], raw)).toBe(200); // cached by both
  expect(await stores.keys.revokeKey(account.id, summary.key_id)).toBe(true);
  // Wait out the bound (each process polls for revocations), then every request is refused.
  let refusedInARow = 0;
  for (let attempt = 0; attempt < 200 && refusedInARow < 20; attempt++) {
    refusedInARow = (await get(service.base, detailUrls[attempt % detailUrls.length], raw)) === 401 ? refusedInARow + 1 : 0;
    if (refusedInARow === 0) await new Promise((r) => setTimeout(r, 100));
  }
  expect(refusedInARow).toBe(20);
}, 60_000);

test("kill -9 of one process: the other keeps answering, its key still works, and the Explorer plan's credits match the ledger", async () => {
  const account = await stores.accounts.create("survivor@example.com");
  const { raw } = await stores.keys.createKey(account.id, "survivor");
  const [victim] = workerPids();
  process.kill(victim, "SIGKILL");
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    try {
      // Bounded: a request caught by the kill must fail, not hang the test.
      statuses.push(await get(service.base, detailUrls[i % detailUrls.length], raw, 5_000));
    } catch {
      statuses.push(0); // a connection the killed process held
    }
  }
  expect(statuses.slice(-20)).toEqual(Array(20).fill(200));
  expect(service.child.exitCode).toBeNull(); // the supervisor stays up
  // Credits on a plan with a limit: charged for the answered calls, within the plan, and the
  // period's total equals its ledger rows (the store's flush waits out give-backs in flight).
  await stores.credits.flush();
  const usage = await stores.credits.usage(account.id, 100);
  const charged = usage.recent.reduce((sum, r) => sum + r.cost, 0);
  expect(usage.plan.id).toBe("explorer");
  expect(usage.used).toBeGreaterThanOrEqual(20);
  expect(usage.used).toBeLessThanOrEqual(usage.plan.monthly_credits);
  expect(charged).toBe(usage.used);
}, 60_000);
