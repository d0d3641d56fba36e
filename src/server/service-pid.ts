// The pid file through which operator commands reach the running service: DATA_DIR/service.pid
// names the process to send SIGHUP to when a new snapshot is published (docs/deployment.md).
// With several service processes on one machine, the file names the one that receives signals
// for all of them (a cluster's primary, which forwards SIGHUP to its workers).
//
// A pid outlives its process: after a crash the file stays, and the system may give its pid to
// an unrelated process. So the service also records its identity, its start time as the system
// reports it, in DATA_DIR/service.pid.identity, and a command signals the pid only when the
// process now running under it started at that same time. The start time is field 22 of
// /proc/<pid>/stat (Linux), else what `ps -o lstart=` prints; where neither answers, no identity
// is recorded and the pid is signalled as it stands.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function pidFilePath(dataDir: string): string {
  return path.join(dataDir, "service.pid");
}

export function identityFilePath(dataDir: string): string {
  return path.join(dataDir, "service.pid.identity");
}

/** When the process `pid` started, as the system says, or undefined when it cannot tell (or there is no such process). */
export function processIdentity(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = fields[22 - 3];
    if (start && /^\d+$/.test(start)) return `proc-start:${start}`;
  } catch {
    if (fs.existsSync("/proc/self/stat")) return undefined; // /proc is there: the process is gone
  }
  try {
    const started = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      env: { ...process.env, LC_ALL: "C", TZ: "UTC" },
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return started ? `ps-start:${started}` : undefined;
  } catch {
    return undefined;
  }
}

function writeAtomically(file: string, text: string, pid: number): void {
  const tmp = `${file}.${pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/** Records this process as the service to signal (its pid, and its identity beside it), replacing files left by one that is gone. */
export function writePidFile(dataDir: string, pid = process.pid): string {
  const file = pidFilePath(dataDir);
  const identity = processIdentity(pid);
  if (identity) writeAtomically(identityFilePath(dataDir), `${pid} ${identity}\n`, pid);
  else fs.rmSync(identityFilePath(dataDir), { force: true });
  writeAtomically(file, `${pid}\n`, pid);
  return file;
}

/** Removes the pid file (and its identity) if it still names this process (another may have started since). */
export function removePidFile(dataDir: string, pid = process.pid): void {
  const file = pidFilePath(dataDir);
  try {
    if (fs.readFileSync(file, "utf8").trim() === String(pid)) {
      fs.rmSync(file);
      fs.rmSync(identityFilePath(dataDir), { force: true });
    }
  } catch {
    // already gone
  }
}

export type SignalOutcome =
  | { signalled: true; pid: number }
  /** No service runs: no pid file, its process is gone, or the pid now names another process (`stale`). */
  | { signalled: false; pid?: number; stale?: string };

/**
 * Sends SIGHUP to the service the pid file names, once it has checked that the process under that
 * pid is the one that wrote the file. A pid whose process is gone, or is another process now,
 * is not signalled.
 */
export function signalService(dataDir: string): SignalOutcome {
  let text: string;
  try {
    text = fs.readFileSync(pidFilePath(dataDir), "utf8").trim();
  } catch {
    return { signalled: false };
  }
  const pid = Number(text);
  if (!/^\d+$/.test(text) || pid <= 1) throw new Error(`${pidFilePath(dataDir)} does not hold a process id ('${text.slice(0, 20)}').`);
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return { signalled: false, pid };
    throw err;
  }
  const now = processIdentity(pid);
  if (now !== undefined) {
    let recorded: string | undefined;
    try {
      const line = fs.readFileSync(identityFilePath(dataDir), "utf8").trim();
      const space = line.indexOf(" ");
      if (line.slice(0, space) === String(pid)) recorded = line.slice(space + 1);
    } catch {
      // no identity recorded
    }
    if (recorded !== now) {
      const why =
        recorded === undefined
          ? `${identityFilePath(dataDir)} does not record which process wrote it`
          : `process ${pid} started at another time (${now}) than the service that wrote it (${recorded})`;
      return { signalled: false, pid, stale: why };
    }
  }
  try {
    process.kill(pid, "SIGHUP");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return { signalled: false, pid };
    throw err;
  }
  return { signalled: true, pid };
}
