// The pid file through which operator commands reach the running service: DATA_DIR/service.pid
// names the process to send SIGHUP to when a new snapshot is published (docs/deployment.md).
// With several service processes on one machine, the file names the one that receives signals
// for all of them (a cluster's primary, which forwards SIGHUP to its workers).
import fs from "node:fs";
import path from "node:path";

export function pidFilePath(dataDir: string): string {
  return path.join(dataDir, "service.pid");
}

/** Records this process as the service to signal, replacing a file left by one that is gone. */
export function writePidFile(dataDir: string, pid = process.pid): string {
  const file = pidFilePath(dataDir);
  const tmp = `${file}.${pid}.tmp`;
  fs.writeFileSync(tmp, `${pid}\n`);
  fs.renameSync(tmp, file);
  return file;
}

/** Removes the pid file if it still names this process (another may have started since). */
export function removePidFile(dataDir: string, pid = process.pid): void {
  const file = pidFilePath(dataDir);
  try {
    if (fs.readFileSync(file, "utf8").trim() === String(pid)) fs.rmSync(file);
  } catch {
    // already gone
  }
}

/**
 * Sends SIGHUP to the service the pid file names. Returns its pid, or null when no service is
 * running there (no pid file, or its process is gone).
 */
export function signalService(dataDir: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(pidFilePath(dataDir), "utf8").trim();
  } catch {
    return null;
  }
  const pid = Number(text);
  if (!/^\d+$/.test(text) || pid <= 1) throw new Error(`${pidFilePath(dataDir)} does not hold a process id ('${text.slice(0, 20)}').`);
  try {
    process.kill(pid, "SIGHUP");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return null;
    throw err;
  }
  return pid;
}
