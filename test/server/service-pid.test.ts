// The pid file names the service to signal; a pid outlives its process, so the command signals it
// only when the process running under it now is the one that wrote the file.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { identityFilePath, pidFilePath, processIdentity, removePidFile, signalService, writePidFile } from "../../src/server/service-pid";

let dataDir: string;
let other: ChildProcess;
let otherExit: Promise<NodeJS.Signals | null>;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-pid-"));
  // An unrelated live process, whose pid a stale pid file may name (SIGHUP would end it).
  other = spawn("sleep", ["30"], { stdio: "ignore" });
  otherExit = new Promise((r) => other.once("exit", (_code, signal) => r(signal)));
});
afterEach(async () => {
  other.kill("SIGTERM");
  await otherExit;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The signal that ended the unrelated process, once it is ended here after the command ran. */
async function endedBy(): Promise<NodeJS.Signals | null> {
  other.kill("SIGTERM");
  return otherExit;
}

test("the service records its pid and its start time; removing the file removes both", () => {
  writePidFile(dataDir);
  expect(fs.readFileSync(pidFilePath(dataDir), "utf8")).toBe(`${process.pid}\n`);
  expect(fs.readFileSync(identityFilePath(dataDir), "utf8")).toBe(`${process.pid} ${processIdentity(process.pid)}\n`);
  expect(processIdentity(process.pid)).toMatch(/^(proc|ps)-start:./);
  removePidFile(dataDir);
  expect([fs.existsSync(pidFilePath(dataDir)), fs.existsSync(identityFilePath(dataDir))]).toEqual([false, false]);
});

test("a stale pid file whose pid now names an unrelated process: that process is not signalled", async () => {
  // The service that wrote these crashed; its pid went to `sleep`, which started at another time.
  fs.writeFileSync(pidFilePath(dataDir), `${other.pid}\n`);
  fs.writeFileSync(identityFilePath(dataDir), `${other.pid} proc-start:1\n`);
  const outcome = signalService(dataDir);
  expect(outcome).toEqual({ signalled: false, pid: other.pid, stale: expect.stringMatching(/started at another time/) });
  expect(await endedBy()).toBe("SIGTERM");
});

test("a pid file with no identity beside it, naming an unrelated process: not signalled", async () => {
  fs.writeFileSync(pidFilePath(dataDir), `${other.pid}\n`);
  expect(signalService(dataDir)).toEqual({ signalled: false, pid: other.pid, stale: expect.stringMatching(/does not record/) });
  expect(await endedBy()).toBe("SIGTERM");
});

test("the process that wrote the pid file is signalled", async () => {
  writePidFile(dataDir, other.pid);
  expect(signalService(dataDir)).toEqual({ signalled: true, pid: other.pid });
  expect(await otherExit).toBe("SIGHUP");
});

test("a pid file naming a process that is gone: no service", async () => {
  await endedBy();
  fs.writeFileSync(pidFilePath(dataDir), `${other.pid}\n`);
  expect(signalService(dataDir)).toEqual({ signalled: false, pid: other.pid });
});
