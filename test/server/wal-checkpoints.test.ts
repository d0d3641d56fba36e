// The accounts database's log is checkpointed by a worker thread, not inside the service's
// commits; when the worker is not running, SQLite's automatic checkpoints are back on.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { openAccountsDb } from "../../src/server/stores/sqlite/accounts-db";
import { startWalCheckpoints } from "../../src/server/db/wal-checkpoints";
import { workerScript } from "../../src/snapshot/worker-script";

let dir: string;
let db: Database.Database;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-wal-"));
  db = openAccountsDb(path.join(dir, "accounts.db"));
});
afterEach(() => {
  if (db.open) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const autocheckpoint = () => db.pragma("wal_autocheckpoint", { simple: true }) as number;
const fileBytes = () => fs.statSync(db.name).size;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, test: () => boolean, ms = 15_000) {
  for (const start = Date.now(); !test(); await sleep(20)) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting until ${what}`);
  }
}

/** About 12 MB of log in one commit: far past the 1,000 pages at which SQLite would checkpoint. */
function writeMuch() {
  db.exec("CREATE TABLE IF NOT EXISTS filler (b BLOB)");
  const insert = db.prepare("INSERT INTO filler (b) VALUES (randomblob(4000))");
  db.transaction(() => {
    for (let i = 0; i < 3000; i++) insert.run();
  })();
}

test("a worker checkpoints the log, and the service's commits no longer do", async () => {
  const checkpoints = startWalCheckpoints(db, { intervalMs: 50 });
  try {
    await until("the worker is running", () => autocheckpoint() === 0);
    const before = fileBytes();
    writeMuch(); // the commit writes only the log; the worker copies it into the file
    await until("the worker has copied the log into the file", () => fileBytes() > before + 10_000_000);
    expect(fs.statSync(`${db.name}-wal`).size).toBeGreaterThan(10_000_000); // below the limit: kept for reuse
  } finally {
    await checkpoints.stop();
  }
  expect(autocheckpoint()).toBe(1000); // stopped: SQLite checkpoints by itself again
});

test("a log past its size limit is copied and emptied", async () => {
  const walBytes = () => fs.statSync(`${db.name}-wal`).size;
  const checkpoints = startWalCheckpoints(db, { intervalMs: 50, truncateAboveBytes: 1_000_000 });
  try {
    await until("the worker is running", () => autocheckpoint() === 0);
    writeMuch();
    expect(walBytes()).toBeGreaterThan(10_000_000);
    await until("the log is emptied", () => walBytes() === 0);
    expect(db.prepare("SELECT count(*) FROM filler").pluck().get()).toBe(3000);
  } finally {
    await checkpoints.stop();
  }
});

test("without the worker, nothing would have copied the log (the test above can fail)", async () => {
  db.pragma("wal_autocheckpoint = 0");
  const before = fileBytes();
  writeMuch();
  await sleep(500);
  expect(fileBytes()).toBe(before);
});

test("a worker that cannot start leaves SQLite's automatic checkpoints on and reports why", async () => {
  const file = db.name;
  fs.renameSync(file, `${file}.moved`); // this connection keeps its open file; the worker finds none
  const errors: unknown[] = [];
  const checkpoints = startWalCheckpoints(db, { intervalMs: 50, onError: (err) => errors.push(err) });
  await until("the failure is reported", () => errors.length > 0);
  expect((errors[0] as Error).message).toMatch(/unable to open|does not exist|no such file/i);
  expect(errors).toHaveLength(1);
  expect(autocheckpoint()).toBe(1000);
  await checkpoints.stop(); // already gone: returns at once
});

test("a worker that cannot even be created (node run with V8 flags) leaves the service running", () => {
  // From sources the worker is given execArgv explicitly, and Node refuses V8 flags there.
  const script = `
    const { openAccountsDb } = require("./src/server/stores/sqlite/accounts-db");
    const { startWalCheckpoints } = require("./src/server/db/wal-checkpoints");
    const db = openAccountsDb(process.argv[1]);
    startWalCheckpoints(db, { onError: (err) => console.log("reported:", err.code) });
    console.log("autocheckpoint", db.pragma("wal_autocheckpoint", { simple: true }));`;
  const out = execFileSync(process.execPath, ["--trace-gc", "--require", require.resolve("tsx/cjs"), "-e", script, db.name], {
    cwd: path.join(__dirname, "../.."),
    encoding: "utf8",
  });
  expect(out).toContain("reported: ERR_WORKER_INVALID_EXEC_ARGV");
  expect(out).toContain("autocheckpoint 1000");
});

test("compiled, the worker inherits node's options instead of being handed them", () => {
  expect(workerScript("/srv/dist/db/wal-checkpoints.js", "checkpoint-worker")).toEqual({ file: "/srv/dist/db/checkpoint-worker.js" });
});

test("an in-memory database has no log and gets no worker", async () => {
  // The module object itself (an import would get a copy), so the spy sees what the code under test calls.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const threads = require("node:worker_threads") as typeof import("node:worker_threads");
  const workers = jest.spyOn(threads, "Worker");
  try {
    const memory = openAccountsDb(":memory:");
    const errors: unknown[] = [];
    const checkpoints = startWalCheckpoints(memory, { onError: (err) => errors.push(err) });
    await checkpoints.stop();
    expect(workers).not.toHaveBeenCalled();
    expect(errors).toEqual([]);
    expect(memory.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    memory.close();
    // The spy sees the worker a database file gets, so the check above can fail.
    const file = startWalCheckpoints(db, { intervalMs: 50 });
    expect(workers).toHaveBeenCalledTimes(1);
    await file.stop();
  } finally {
    workers.mockRestore();
  }
});
