// `npm run snapshot`: its command line refuses what it does not know before building anything.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "./files";

let root: string;
beforeEach(() => {
  root = tempDir("snapshot-cli-");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function cli(...args: string[]) {
  return spawnSync(process.execPath, [require.resolve("tsx/cli"), "src/snapshot/cli.ts", ...args], {
    cwd: path.join(__dirname, "../.."),
    encoding: "utf8",
  });
}

describe("npm run snapshot", () => {
  test("an unknown option, or one the command does not take, exits with 1 and the usage, and writes nothing", () => {
    const out = path.join(root, "snapshot.db");
    const misspelt = cli("build", "--sed", "7", "--out", out);
    expect(misspelt.status).toBe(1);
    expect(misspelt.stderr).toMatch(/^error: Unknown option '--sed'\nusage:\n {2}cli\.ts build/);
    const misplaced = cli("import", "--dir", root, "--seed", "7", "--out", out);
    expect(misplaced.status).toBe(1);
    expect(misplaced.stderr).toMatch(/^error: import takes no --seed\nusage:/);
    expect(fs.readdirSync(root)).toEqual([]);
  });
});
