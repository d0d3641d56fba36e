// The rollout as an operator runs it, against the service running in its own process: SIGHUP
// after a new file is renamed to SNAPSHOT_PATH, and `npm run admin -- rollout-snapshot`, which
// checks the file, moves it there and signals the process DATA_DIR/service.pid names.
import Database from "better-sqlite3";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAdmin } from "../../src/server/admin";
import { buildSnapshot } from "../../src/snapshot/build";
import { snapshotPath } from "../helpers/service";

const ROOT = path.resolve(__dirname, "../..");
let dir: string;
let dataDir: string;
let servedPath: string;
let child: ChildProcess;
let output = "";
let base: string;
let key: string;
let firstId: string;
let secondFile: string;
let secondId: string;
const savedEnv = {
  DATA_DIR: process.env.DATA_DIR,
  SNAPSHOT_PATH: process.env.SNAPSHOT_PATH,
  SNAPSHOTS_RETAIN_MONTHS: process.env.SNAPSHOTS_RETAIN_MONTHS,
};

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

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-rollout-process-"));
  dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir);
  servedPath = path.join(dataDir, "snapshot.db");
  fs.copyFileSync(snapshotPath(), servedPath);
  secondFile = path.join(dataDir, "snapshot-next.db");
  secondId = buildSnapshot({ out: secondFile, seed: 12, properties: 300 }).id;
  process.env.DATA_DIR = dataDir;
  process.env.SNAPSHOT_PATH = servedPath;
  // The longest retention: these processes run on the real clock, and the snapshots here are captured from 2026-11.
  process.env.SNAPSHOTS_RETAIN_MONTHS = "120";
  const lines = await admin("create-key", "--email", "ops@example.com", "--name", "rollout", "--plan", "unlimited");
  key = lines[lines.length - 1];

  await startChild();
  firstId = await servedId();
});

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
  process.env.DATA_DIR = savedEnv.DATA_DIR;
  process.env.SNAPSHOT_PATH = savedEnv.SNAPSHOT_PATH;
  if (savedEnv.DATA_DIR === undefined) delete process.env.DATA_DIR;
  if (savedEnv.SNAPSHOT_PATH === undefined) delete process.env.SNAPSHOT_PATH;
  if (savedEnv.SNAPSHOTS_RETAIN_MONTHS === undefined) delete process.env.SNAPSHOTS_RETAIN_MONTHS;
  else process.env.SNAPSHOTS_RETAIN_MONTHS = savedEnv.SNAPSHOTS_RETAIN_MONTHS;
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the service records its pid in DATA_DIR, and beside it when that process started", () => {
  expect(fs.readFileSync(path.join(dataDir, "service.pid"), "utf8").trim()).toBe(String(child.pid));
  expect(fs.readFileSync(path.join(dataDir, "service.pid.identity"), "utf8").trim()).toMatch(new RegExp(`^${child.pid} (proc|ps)-start:.`));
});

test("SIGHUP switches to the file now at SNAPSHOT_PATH", async () => {
  const next = path.join(dataDir, "by-hand.db");
  fs.copyFileSync(secondFile, next);
  fs.renameSync(next, servedPath);
  child.kill("SIGHUP");
  await until(async () => (await servedId()) === secondId);
  expect((await coverage()).serving.previous_id).toBe(firstId);
  expect(output).toMatch(/"msg":"snapshot switched"/);
});

test("SIGHUP with a bad file at SNAPSHOT_PATH: refused and logged, the current snapshot keeps serving", async () => {
  const before = await coverage();
  const junk = path.join(dataDir, "junk.db");
  fs.writeFileSync(junk, "not a snapshot\n".repeat(1000));
  fs.renameSync(junk, servedPath);
  child.kill("SIGHUP");
  await until(() => output.includes("snapshot refused"));
  expect(await coverage()).toEqual(before);
});

test("rollout-snapshot refuses a bad file, exits with the reason and moves nothing", async () => {
  const before = await coverage();
  const bad = path.join(dataDir, "bad.db");
  fs.writeFileSync(bad, "SQLite format 3\0".padEnd(8192, "x"));
  await expect(admin("rollout-snapshot", "--file", bad)).rejects.toThrow(/^Refused .*bad\.db: .*\nNothing was switched\.$/s);
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
  expect(run.stderr).toMatch(/^Refused .*bad\.db: .*\nNothing was switched\.\n$/s);
  expect(fs.existsSync(bad)).toBe(true);
  expect(await coverage()).toEqual(before);
});

test("rollout-snapshot checks the file, moves it to SNAPSHOT_PATH, keeps the replaced one and signals the service", async () => {
  const published = path.join(dataDir, "published.db");
  fs.copyFileSync(snapshotPath(), published);
  const lines = await admin("rollout-snapshot", "--file", published);
  expect(lines[0]).toBe(`Snapshot ${firstId} is now ${servedPath} (the one it replaced is ${servedPath}.previous).`);
  // The file it replaced was the junk an earlier test refused, so there is no older file to keep.
  expect(lines[1]).toBe(`Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${firstId} (latest).`);
  expect(lines[2]).toMatch(new RegExp(`^Sent SIGHUP to the service \\(pid ${child.pid}\\)`));
  expect(fs.existsSync(published)).toBe(false);
  await until(async () => (await servedId()) === firstId);
  const after = await coverage();
  expect(after.serving.previous_id).toBe(secondId);
  // It serves what is on disk: the snapshot published by hand before the junk was never linked
  // into snapshots/, so it is no longer kept (a restart would not find it either).
  expect(after.snapshots.map((s) => [s.id, s.latest])).toEqual([[firstId, true]]);
});

test("rollout-snapshot keeps the replaced file beside SNAPSHOT_PATH, and a restart serves the same snapshots", async () => {
  const published = path.join(dataDir, "published-again.db");
  fs.copyFileSync(secondFile, published);
  const lines = await admin("rollout-snapshot", "--file", published);
  expect(lines[1]).toMatch(
    new RegExp(`^Kept snapshots \\(SNAPSHOTS_RETAIN_MONTHS=120\\): ${secondId} \\(latest\\), ${firstId} \\(captured `),
  );
  expect(fs.existsSync(path.join(dataDir, "snapshots", `${firstId}.db`))).toBe(true);
  await until(async () => (await servedId()) === secondId);

  await stopChild();
  await startChild();
  const report = await coverage();
  expect(report.snapshot.id).toBe(secondId);
  expect(report.snapshots.map((s) => [s.id, s.latest]).sort()).toEqual(
    [
      [secondId, true],
      [firstId, false],
    ].sort(),
  );
  const pinned = await fetch(`${base}/v1/commercial/coverage?snapshot=${firstId}`, { headers: { authorization: `Bearer ${key}` } });
  expect(pinned.status).toBe(200);
  expect(pinned.headers.get("x-snapshot-id")).toBe(firstId);
  expect(((await pinned.json()) as { snapshot: { id: string } }).snapshot.id).toBe(firstId);
});

test("rollout-snapshot with no service running moves the file and says it is served at the next start", async () => {
  const otherData = path.join(dir, "idle");
  fs.mkdirSync(otherData);
  process.env.DATA_DIR = otherData;
  process.env.SNAPSHOT_PATH = path.join(otherData, "snapshot.db");
  try {
    const published = path.join(otherData, "first.db");
    fs.copyFileSync(snapshotPath(), published);
    const lines = await admin("rollout-snapshot", "--file", published);
    expect(lines).toEqual([
      `Snapshot ${firstId} is now ${process.env.SNAPSHOT_PATH}.`,
      `Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${firstId} (latest).`,
      expect.stringMatching(/^No service is running for .*; it serves .* when it starts\.$/),
    ]);
  } finally {
    process.env.DATA_DIR = dataDir;
    process.env.SNAPSHOT_PATH = servedPath;
  }
});

test("rollout-snapshot keeps the older files captured less than SNAPSHOTS_RETAIN_MONTHS ago, prunes the rest, refuses a second build of a kept id, and goes back with --rollback", async () => {
  const otherData = path.join(dir, "kept");
  fs.mkdirSync(otherData);
  const saved = { ...process.env };
  process.env.DATA_DIR = otherData;
  process.env.SNAPSHOT_PATH = path.join(otherData, "snapshot.db");
  process.env.SNAPSHOTS_RETAIN_MONTHS = "120";
  /** A copy of `from` with its meta changed, as another snapshot (or another build of one). */
  const variant = (from: string, name: string, meta: Record<string, string>) => {
    const file = path.join(otherData, name);
    fs.copyFileSync(from, file);
    const db = new Database(file);
    for (const [key, value] of Object.entries(meta)) db.prepare("UPDATE snapshot_meta SET value = ? WHERE key = ?").run(value, key);
    db.close();
    return file;
  };
  try {
    // Captured more than 120 months ago: pruned as soon as it is replaced.
    await admin("rollout-snapshot", "--file", variant(snapshotPath(), "a.db", { captured_at: "2010-01-01T00:00:00Z" }));
    const second = await admin("rollout-snapshot", "--file", variant(secondFile, "b.db", { captured_at: "2026-12-01T00:00:00Z" }));
    expect(second).toContain(`No longer kept: removed ${path.join(otherData, "snapshots", `${firstId}.db`)}.`);
    const thirdId = "snap_0000000000c3";
    const lines = await admin(
      "rollout-snapshot",
      "--file",
      variant(secondFile, "c.db", { id: thirdId, captured_at: "2027-01-01T00:00:00Z" }),
    );
    expect(lines).toContain(`Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${thirdId} (latest), ${secondId} (captured 2026-12-01).`);
    expect(fs.readdirSync(path.join(otherData, "snapshots"))).toEqual([`${secondId}.db`]);

    const twin = variant(secondFile, "b-again.db", { captured_at: "2026-12-01T00:00:00Z", built_at: "2026-12-02T00:00:00.000Z" });
    await expect(admin("rollout-snapshot", "--file", twin)).rejects.toThrow(
      new RegExp(`^Refused .*b-again\\.db: snapshot ${secondId} is already kept .*\nNothing was switched\\.$`, "s"),
    );
    expect(fs.existsSync(twin)).toBe(true);

    // Going back: the file the last rollout replaced is the latest again, and the one it replaced is kept.
    const served = process.env.SNAPSHOT_PATH!;
    await expect(admin("rollout-snapshot", "--file", `${served}.previous`)).rejects.toThrow(/is older than the latest.*--rollback/s);
    const back = await admin("rollout-snapshot", "--file", `${served}.previous`, "--rollback");
    expect(back[0]).toBe(`Snapshot ${secondId} is now ${served} (the one it replaced is ${served}.previous).`);
    expect(back[1]).toBe(`Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${secondId} (latest), ${thirdId} (captured 2027-01-01).`);
    const idOf = (file: string) => {
      const db = new Database(file, { readonly: true });
      const id = db.prepare("SELECT value FROM snapshot_meta WHERE key = 'id'").pluck().get();
      db.close();
      return id;
    };
    expect([idOf(served), idOf(`${served}.previous`)]).toEqual([secondId, thirdId]);
  } finally {
    for (const k of ["DATA_DIR", "SNAPSHOT_PATH", "SNAPSHOTS_RETAIN_MONTHS"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
});

describe("the service serves what is on disk", () => {
  /** A copy of the second snapshot as another one, captured on `date`, in DATA_DIR. */
  const month = (id: string, date: string) => {
    const file = path.join(dataDir, `${id}.next.db`);
    fs.copyFileSync(secondFile, file);
    const db = new Database(file);
    db.prepare("UPDATE snapshot_meta SET value = ? WHERE key = 'id'").run(id);
    db.prepare("UPDATE snapshot_meta SET value = ? WHERE key = 'captured_at'").run(`${date}T00:00:00Z`);
    db.close();
    return file;
  };
  /** The snapshots on disk for the service: SNAPSHOT_PATH's, and the kept directory's, by id. */
  const onDisk = () => [
    idOfFile(servedPath),
    ...fs
      .readdirSync(path.join(dataDir, "snapshots"))
      .map((n) => n.replace(/\.db$/, ""))
      .sort(),
  ];
  const idOfFile = (file: string) => {
    const db = new Database(file, { readonly: true });
    const id = db.prepare("SELECT value FROM snapshot_meta WHERE key = 'id'").pluck().get() as string;
    db.close();
    return id;
  };
  const served = async () => {
    const report = await coverage();
    return [
      report.snapshots.find((s) => s.latest)!.id,
      ...report.snapshots
        .filter((s) => !s.latest)
        .map((s) => s.id)
        .sort(),
    ];
  };
  const status = async (id: string) =>
    (await fetch(`${base}/v1/commercial/coverage?snapshot=${id}`, { headers: { authorization: `Bearer ${key}` } })).status;

  test("a publish the service was not told of is served after the next one, as a restart would serve it", async () => {
    expect(await servedId()).toBe(secondId);
    const pidFile = path.join(dataDir, "service.pid");
    // The first publish's signal never arrives (the pid file is out of the way meanwhile).
    fs.renameSync(pidFile, `${pidFile}.aside`);
    const dec = "snap_0000000000d1";
    expect((await admin("rollout-snapshot", "--file", month(dec, "2026-12-01"))).join("\n")).toMatch(/No service is running/);
    fs.renameSync(`${pidFile}.aside`, pidFile);
    const jan = "snap_0000000000d2";
    await admin("rollout-snapshot", "--file", month(jan, "2027-01-01"));
    await until(async () => (await servedId()) === jan);
    // Every capture here is within SNAPSHOTS_RETAIN_MONTHS (120) of the clock: all stay kept.
    expect(onDisk()).toEqual([jan, ...[dec, secondId, firstId].sort()]);
    expect(await served()).toEqual(onDisk());
    expect([await status(dec), await status(secondId), await status(firstId)]).toEqual([200, 200, 200]);
  });

  test("two publishes back to back: every process serves the disk's set, before and after a restart", async () => {
    const feb = "snap_0000000000d3";
    const mar = "snap_0000000000d4";
    const [febFile, marFile] = [month(feb, "2027-02-01"), month(mar, "2027-03-01")];
    await admin("rollout-snapshot", "--file", febFile);
    await admin("rollout-snapshot", "--file", marFile);
    await until(async () => (await servedId()) === mar);
    // Signals that arrive during a check make one more pass once it ends: wait for the set to settle on the disk's.
    await until(async () => JSON.stringify(await served()) === JSON.stringify(onDisk()));
    expect(onDisk()).toEqual([mar, ...[feb, "snap_0000000000d1", "snap_0000000000d2", firstId, secondId].sort()]);
    await stopChild();
    await startChild();
    expect(await served()).toEqual(onDisk());
  });
});
