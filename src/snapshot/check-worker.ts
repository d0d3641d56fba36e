// Worker-thread entry (see snapshot-check.ts): checks one snapshot file on its own connection,
// so the service's thread keeps answering while quick_check reads every page. Nothing happens
// when this module is imported outside such a worker.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { checkSnapshotFile } from "./snapshot-file";
import type { CheckWorkerData, CheckWorkerResult } from "./snapshot-check";

function run(data: CheckWorkerData): void {
  let result: CheckWorkerResult;
  try {
    result = { meta: checkSnapshotFile(data.file) };
  } catch (err) {
    result = { error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(result);
}

if (!isMainThread && (workerData as CheckWorkerData | null)?.role === "snapshot-check") run(workerData as CheckWorkerData);
