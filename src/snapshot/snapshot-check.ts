// checkSnapshotFile in a worker thread: the running service checks a new snapshot this way
// before switching to it, so requests are answered meanwhile.
import { Worker } from "node:worker_threads";
import { workerScript } from "./worker-script";

export interface CheckWorkerData {
  role: "snapshot-check";
  file: string;
}

export type CheckWorkerResult = { meta: Record<string, string> } | { error: string };

/** The file's meta once it passes checkSnapshotFile; rejects with checkSnapshotFile's error otherwise. */
export function checkSnapshotFileOffThread(file: string): Promise<Record<string, string>> {
  const { file: script, execArgv } = workerScript(__filename, "check-worker");
  const data: CheckWorkerData = { role: "snapshot-check", file };
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: data, execArgv });
    let settled = false;
    worker.once("message", (result: CheckWorkerResult) => {
      settled = true;
      if ("meta" in result) resolve(result.meta);
      else reject(new Error(result.error));
      void worker.terminate();
    });
    worker.once("error", (err) => {
      settled = true;
      reject(err);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`checking ${file}: the worker exited (${code}) without an answer`));
    });
  });
}
