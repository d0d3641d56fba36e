// `npm run admin -- ...` run as an operator runs it: in its own process, with this process's
// environment (DATA_DIR, SNAPSHOT_STORE, ...), its standard output and error together.
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

export function adminProcess(...args: string[]): Promise<{ status: number | null; text: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--require", require.resolve("tsx/cjs"), "src/server/admin.ts", ...args], {
      cwd: ROOT,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    p.stdout!.on("data", (c) => (text += c));
    p.stderr!.on("data", (c) => (text += c));
    p.once("exit", (status) => resolve({ status, text }));
  });
}
