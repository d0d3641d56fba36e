// Checkpoints of the accounts database's write-ahead log, off the service's event loop.
//
// Why: by default SQLite checkpoints inside the commit that takes the log past 1,000 pages.
// That commit copies the pages into the database file and waits for two fsyncs (1–8 ms each on
// this machine's disk). In the service that commit is the credit ledger's flush, so every
// request in hand would wait with it, raising the p99 under load (docs/benchmarks.md).
// Instead, a worker thread with its
// own connection checkpoints once a second, and this connection's automatic checkpoints are
// off while, and only while, that worker is running.
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { workerScript } from "../../snapshot/worker-script";

export interface CheckpointWorkerData {
  role: "wal-checkpoints";
  file: string;
  intervalMs: number;
  /** Past this log size the worker waits for the writer to copy everything and empty the log. */
  truncateAboveBytes: number;
}

export interface WalCheckpoints {
  /** Stops the worker after a last checkpoint; automatic checkpoints are back on before it returns. */
  stop(): Promise<void>;
}

export interface WalCheckpointOptions {
  intervalMs?: number;
  truncateAboveBytes?: number;
  /** Told when the worker fails; checkpoints then go back to SQLite's automatic ones. */
  onError?: (err: unknown) => void;
}

/** SQLite's own default (pages of log); restored whenever the worker is not running. */
const AUTOCHECKPOINT_PAGES = 1000;

export function startWalCheckpoints(db: Database.Database, opts: WalCheckpointOptions = {}): WalCheckpoints {
  // Only a file in WAL mode has a log to checkpoint (tests use in-memory databases).
  if (db.memory || db.pragma("journal_mode", { simple: true }) !== "wal") return { stop: async () => {} };
  const data: CheckpointWorkerData = {
    role: "wal-checkpoints",
    file: db.name,
    intervalMs: opts.intervalMs ?? 1000,
    truncateAboveBytes: opts.truncateAboveBytes ?? 64 * 2 ** 20,
  };
  const { file, execArgv } = workerScript(__filename, "checkpoint-worker");
  let worker: Worker;
  try {
    worker = new Worker(file, { workerData: data, execArgv });
  } catch (err) {
    // The service runs on with SQLite's own checkpoints, which were never turned off.
    opts.onError?.(err);
    return { stop: async () => {} };
  }
  worker.unref(); // a checkpointer never keeps the process alive
  let running = false;
  let stopping = false;
  let exited = false;
  let failed = false;
  const automatic = () => {
    if (!running) return;
    running = false;
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  const fail = (err: unknown) => {
    automatic();
    if (failed || stopping) return;
    failed = true;
    opts.onError?.(err);
  };
  worker.on("message", (msg) => {
    if (msg !== "ready" || stopping || !db.open) return;
    db.pragma("wal_autocheckpoint = 0");
    running = true;
  });
  worker.on("error", fail);
  worker.on("exit", (code) => {
    exited = true;
    fail(new Error(`the WAL checkpoint worker stopped (exit code ${code})`));
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        automatic();
        if (exited) return resolve();
        worker.once("exit", () => resolve());
        worker.postMessage("stop");
      }),
  };
}
