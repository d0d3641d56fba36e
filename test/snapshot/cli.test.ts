// `npm run snapshot`: its command line refuses what it does not know before building anything,
// and next-month reports what the month changed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
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

  test("next-month builds the month after a snapshot and says what changed; a bad share is refused", () => {
    const from = path.join(root, "base.db");
    buildSnapshot({ out: from, seed: 3, properties: 200 });
    const out = path.join(root, "next.db");
    const bad = cli("next-month", "--from", from, "--changed", "120%", "--out", out);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^error: --changed must be a share from 0 to 1 \(or 0% to 100%\), got 120%\nusage:/);
    const run = cli("next-month", "--from", from, "--changed", "10%", "--out", out, "--quiet");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^built .*next\.db \(snap_[0-9a-f]{12}\), the month after snap_[0-9a-f]{12}, captured 2026-12-01T00:00:00Z, in /,
    );
    expect(run.stdout).toMatch(/\n {2}properties changed 20 of 200: sale \d+, /);
    expect(fs.existsSync(out)).toBe(true);
  });
});
