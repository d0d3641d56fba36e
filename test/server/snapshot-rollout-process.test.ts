// The rollout as an operator runs it, against the service running in its own process: the store
// made at the first start from SNAPSHOT_PATH and the files kept beside it, `npm run admin --
// rollout-snapshot`, which publishes a file into the store and signals the process
// DATA_DIR/service.pid names, the service answering throughout, a publish it was not signalled
// about served anyway, and going back with --rollback.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAdmin } from "../../src/server/admin";
import { adminProcess } from "../helpers/admin-process";
import { buildSnapshot } from "../../src/snapshot/build";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";

const ROOT = path.resolve(__dirname, "../..");
let dir: string;
let dataDir: string;
let child: ChildProcess;
let output = "";
let base: string;
let key: string;
/** Consecutive months, October 2026 to February 2027. */
const MONTHS = ["oct", "nov", "dec", "jan", "feb"] as const;
const months = {} as Record<(typeof MONTHS)[number], { file: string; id: string }>;
const savedEnv = { ...process.env };

async function admin(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdmin(argv, (l) => lines.push(l));
  return lines;
}

/** Checks again after a pause until `ready` resolves true (jest's timeout bounds the wait). */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((r) => setTimeout(r, 50));
}

async function coverage(): Promise<{
  snapshot: { id: string };
  serving: { since: string; previous_id: string | null };
  snapshots: { id: string; latest: boolean }[];
}> {
  const res = await fetch(`${base}/v1/commercial/coverage`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

async function servedId(): Promise<string> {
  return (await coverage()).snapshot.id;
}

const statusOf = async (id: string) =>
  (await fetch(`${base}/v1/commercial/coverage?snapshot=${id}`, { headers: { authorization: `Bearer ${key}` } })).status;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-rollout-process-"));
  dataDir = path.join(dir, "data");
  fs.mkdirSync(path.join(dataDir, "snapshots"), { recursive: true });
  const built = path.join(dir, "oct.db");
  months.oct = { file: built, id: buildSnapshot({ out: built, seed: 12, properties: 300, capturedAt: "2026-10-01" }).id };
  for (let i = 1; i < MONTHS.length; i++) {
    const next = nextMonthSnapshot({ from: months[MONTHS[i - 1]].file, out: path.join(dir, `${MONTHS[i]}.db`) });
    months[MONTHS[i]] = { file: next.path, id: next.id };
  }
  // What a deployment served before stores: November at SNAPSHOT_PATH, October kept beside it.
  fs.copyFileSync(months.nov.file, path.join(dataDir, "snapshot.db"));
  fs.copyFileSync(months.oct.file, path.join(dataDir, "snapshots", `${months.oct.id}.db`));
  process.env.DATA_DIR = dataDir;
  delete process.env.SNAPSHOT_PATH;
  delete process.env.SNAPSHOT_STORE;
  // The longest retention: these processes run on the real clock, and the snapshots here are captured from 2026-10.
  process.env.SNAPSHOTS_RETAIN_MONTHS = "120";
  const lines = await admin("create-key", "--email", "ops@example.com", "--name", "rollout", "--plan", "unlimited");
  key = lines[lines.length - 1];
  await startChild();
}, 120_000);

/** Starts the service in its own process, as `npm start` does, and waits until it listens. */
async function startChild(): Promise<void> {
  output = "";
  child = spawn(process.execPath, ["--require", require.resolve("tsx/cjs"), "src/server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ADDIN_DIR: path.join(dir, "no-addin") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`service exited (${code}):\n${output}`))));
  await Promise.race([until(() => /running at (http:\S+)/.test(output)), exited]);
  base = /running at (http:\S+)/.exec(output)![1];
}

async function stopChild(): Promise<void> {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

afterAll(async () => {
  await stopChild();
  for (const k of ["DATA_DIR", "SNAPSHOT_PATH", "SNAPSHOT_STORE", "SNAPSHOTS_RETAIN_MONTHS"]) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The snapshots the service serves: the latest first, then the others newest first. */
const servedSet = async () => (await coverage()).snapshots.map((s) => s.id);

test("the service records its pid in DATA_DIR, and beside it when that process started", () => {
  expect(fs.readFileSync(path.join(dataDir, "service.pid"), "utf8").trim()).toBe(String(child.pid));
  expect(fs.readFileSync(path.join(dataDir, "service.pid.identity"), "utf8").trim()).toMatch(new RegExp(`^${child.pid} (proc|ps)-start:.`));
});

test("at its first start the service makes the store from SNAPSHOT_PATH and the files kept beside it, and serves them all", async () => {
  expect(fs.existsSync(path.join(dataDir, "store.db"))).toBe(true);
  expect(output).toMatch(/No store at .*store\.db: making it from .*snapshot\.db and the 1 kept beside it/);
  expect(await servedSet()).toEqual([months.nov.id, months.oct.id]);
  expect(await statusOf(months.oct.id)).toBe(200);
});

test("rollout-snapshot refuses a bad file, exits with the reason and publishes nothing", async () => {
  const before = await coverage();
  const bad = path.join(dir, "bad.db");
  fs.writeFileSync(bad, "SQLite format 3\0".padEnd(8192, "x"));
  await expect(admin("rollout-snapshot", "--file", bad)).rejects.toThrow(/^Refused .*bad\.db: .*\nNothing was published\.$/s);
  // As the command runs it: the reason on standard error, a non-zero exit.
  const run = spawnSync(
    process.execPath,
    ["--require", require.resolve("tsx/cjs"), "src/server/admin.ts", "rollout-snapshot", "--file", bad],
    {
      cwd: ROOT,
      env: process.env,
      encoding: "utf8",
    },
  );
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/^Refused .*bad\.db: .*\nNothing was published\.\n$/s);
  expect(fs.existsSync(bad)).toBe(true);
  expect(await coverage()).toEqual(before);
});

test("rollout-snapshot publishes into the store and signals the service, which answers throughout and then serves it; the write-ahead log is emptied", async () => {
  // Calls made all through the publish, which runs in its own process as an operator runs it.
  let publishing = true;
  const statuses: number[] = [];
  const asking = (async () => {
    while (publishing) {
      const res = await fetch(`${base}/v1/commercial/properties?limit=20`, { headers: { authorization: `Bearer ${key}` } });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
  })();
  const run = await adminProcess("rollout-snapshot", "--file", months.dec.file);
  publishing = false;
  await asking;
  expect(run.status).toBe(0);
  expect(run.text).toContain(`Snapshot ${months.dec.id} (captured 2026-12-01) is now the latest in ${path.join(dataDir, "store.db")}.`);
  expect(run.text).toMatch(new RegExp(`Sent SIGHUP to the service \\(pid ${child.pid}\\)`));
  expect(run.text).not.toMatch(/still in use/);
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  await until(async () => (await servedId()) === months.dec.id);
  expect(await servedSet()).toEqual([months.dec.id, months.nov.id, months.oct.id]);
  expect((await coverage()).serving.previous_id).toBe(months.nov.id);
  expect(fs.statSync(path.join(dataDir, "store.db-wal")).size).toBe(0);
  expect(fs.existsSync(months.dec.file)).toBe(true); // the operator's file stays where it was
});

test("a publish the service was not signalled about is served within moments all the same", async () => {
  const pidFile = path.join(dataDir, "service.pid");
  fs.renameSync(pidFile, `${pidFile}.aside`);
  try {
    const lines = await admin("rollout-snapshot", "--file", months.jan.file);
    expect(lines.join("\n")).toMatch(/No service is running/);
  } finally {
    fs.renameSync(`${pidFile}.aside`, pidFile);
  }
  await until(async () => (await servedId()) === months.jan.id);
  expect(await servedSet()).toEqual([months.jan.id, months.dec.id, months.nov.id, months.oct.id]);
});

test("rollout-snapshot --rollback withdraws the latest: the service serves the month before, and a pin to the one withdrawn is a 404", async () => {
  const lines = await admin("rollout-snapshot", "--rollback");
  expect(lines[0]).toBe(
    `Withdrew snapshot ${months.jan.id}: it is no longer served. The latest is ${months.dec.id} (captured 2026-12-01) again.`,
  );
  await until(async () => (await servedId()) === months.dec.id);
  expect(await statusOf(months.jan.id)).toBe(404);
  // The next month is published over it as usual.
  await admin("rollout-snapshot", "--file", months.feb.file);
  await until(async () => (await servedId()) === months.feb.id);
});

test("a restart serves the same snapshots from the store", async () => {
  const before = await servedSet();
  expect(before).toEqual([months.feb.id, months.dec.id, months.nov.id, months.oct.id]);
  await stopChild();
  await startChild();
  expect(output).not.toMatch(/No store at/);
  expect(await servedSet()).toEqual(before);
  for (const id of before) expect(await statusOf(id)).toBe(200);
});
