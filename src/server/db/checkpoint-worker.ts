// Worker-thread entry (see wal-checkpoints.ts): checkpoints one SQLite database's write-ahead
// log on its own connection, so the service's thread never waits for those disk flushes.
// Nothing happens when this module is imported outside such a worker.
import fs from "node:fs";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import type { CheckpointWorkerData } from "./wal-checkpoints";

/**
 * A failure as a plain Error: the parent receives a worker's error through a structured clone,
 * which keeps only a plain Error's message (an SqliteError arrives as `{ code }` alone).
 */
function reported<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const e = err as Error & { code?: string };
    throw new Error(`${what}: ${e.message}${e.code ? ` (${e.code})` : ""}`);
  }
}

function run(data: CheckpointWorkerData): void {
  const db = reported(`opening ${data.file}`, () => new Database(data.file, { fileMustExist: true }));
  db.pragma("busy_timeout = 5000");
  const walBytes = () => {
    try {
      return fs.statSync(`${data.file}-wal`).size;
    } catch {
      return 0; // no log yet
    }
  };
  const checkpoint = () => {
    // PASSIVE copies what it can without blocking the service's reads or writes, and the log
    // starts over at the next commit after one has copied everything. Under steady writes that
    // moment may not come, so past a size TRUNCATE takes the writer's lock, copies everything
    // and empties the file; a ledger write in that moment waits for it (once per 64 MB of log
    // by default).
    const mode = walBytes() > data.truncateAboveBytes ? "TRUNCATE" : "PASSIVE";
    reported(`checkpointing ${data.file}`, () => db.pragma(`wal_checkpoint(${mode})`));
  };
  const timer = setInterval(checkpoint, data.intervalMs);
  parentPort!.on("message", (msg) => {
    if (msg !== "stop") return;
    clearInterval(timer);
    checkpoint();
    db.close();
    parentPort!.close();
  });
  parentPort!.postMessage("ready");
}

if (!isMainThread && (workerData as CheckpointWorkerData | null)?.role === "wal-checkpoints") run(workerData as CheckpointWorkerData);
