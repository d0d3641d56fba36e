// Makes sure dist/addin/ is a build of the current sources before the contract tests read it.
// It rebuilds only when an input is newer than the build, and takes a lock (an atomic mkdir)
// so test files running in parallel workers never build over each other.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");
export const DIST = path.join(ROOT, "dist/addin");
const LOCK = path.join(ROOT, "dist/.addin-build.lock");
const STALE_LOCK_MS = 5 * 60_000;

/** Everything the build reads (as `npm start` counts it); a change to any of them makes the build stale. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script, run by Node as it is
const INPUTS = (require("../../scripts/build-if-stale.js") as { TARGETS: { addin: { inputs: string[] } } }).TARGETS.addin.inputs;
/** Files every build writes; one missing means there is no complete build. */
const OUTPUTS = ["functions.json", "functions.js", "taskpane.js", "taskpane.html", "manifest.xml"];

export async function ensureAddinBuild(): Promise<string> {
  await withLock(async () => {
    if (isStale()) await runWebpack();
  });
  return DIST;
}

function isStale(): boolean {
  const built = OUTPUTS.map((file) => path.join(DIST, file));
  if (!built.every((file) => fs.existsSync(file))) return true;
  const builtAt = Math.min(...built.map((file) => fs.statSync(file).mtimeMs));
  return INPUTS.some((input) => newestMtime(path.join(ROOT, input)) > builtAt);
}

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

function runWebpack(): Promise<void> {
  const cli = require.resolve("webpack-cli/bin/cli.js", { paths: [ROOT] });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "--mode", "production"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`webpack failed (exit ${code}):\n${output}`))));
  });
}

async function withLock(body: () => Promise<void>): Promise<void> {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      // A lock left by a killed run would block forever; treat an old one as abandoned.
      if (Date.now() - fs.statSync(LOCK).mtimeMs > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await body();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

export function readDist(file: string): string {
  return fs.readFileSync(path.join(DIST, file), "utf8");
}
