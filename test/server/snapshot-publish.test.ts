// `npm run admin -- rollout-snapshot` on its own (no service running): one publish at a time under
// a lock the system releases when its holder dies, publishes applied in capture order unless the
// operator says --rollback, and files refused before anything moves: a malformed id (which would
// name a path), a missing table, view or column, a file in WAL mode.
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAdmin } from "../../src/server/admin";
import { keptFile, openKeptSnapshots } from "../../src/server/data/kept-files";
import { openContext } from "../../src/server/data/snapshot-context";
import { publishLockPath, tryPublishLock } from "../../src/server/publish-lock";
import { snapshotPath } from "../helpers/service";

const ROOT = path.resolve(__dirname, "../..");
const saved = { ...process.env };
let dataDir: string;
let served: string;
let ids: Record<"nov" | "dec" | "jan", string>;

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-publish-"));
  served = path.join(dataDir, "snapshot.db");
  process.env.DATA_DIR = dataDir;
  process.env.SNAPSHOT_PATH = served;
  process.env.SNAPSHOTS_RETAIN_MONTHS = "120";
  ids = { nov: "snap_00000000a011", dec: "snap_00000000a012", jan: "snap_00000000a101" };
});
afterEach(() => {
  for (const k of ["DATA_DIR", "SNAPSHOT_PATH", "SNAPSHOTS_RETAIN_MONTHS"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function admin(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdmin(argv, (l) => lines.push(l));
  return lines;
}

/** A copy of the test snapshot in DATA_DIR, changed by `sql` (run on the copy). */
function copy(name: string, ...sql: string[]): string {
  const file = path.join(dataDir, name);
  fs.copyFileSync(snapshotPath(), file);
  const db = new Database(file);
  for (const s of sql) db.exec(s);
  db.close();
  return file;
}

/** The test snapshot as another snapshot: its id and capture date. */
function month(name: keyof typeof ids): string {
  const captured = { nov: "2026-11-01", dec: "2026-12-01", jan: "2027-01-01" }[name];
  return copy(
    `${name}.db`,
    `UPDATE snapshot_meta SET value = '${ids[name]}' WHERE key = 'id'`,
    `UPDATE snapshot_meta SET value = '${captured}T00:00:00Z' WHERE key = 'captured_at'`,
  );
}

function idOf(file: string): string {
  const db = new Database(file, { readonly: true });
  const id = db.prepare("SELECT value FROM snapshot_meta WHERE key = 'id'").pluck().get() as string;
  db.close();
  return id;
}
const keptNames = () => fs.readdirSync(path.join(dataDir, "snapshots")).sort();

/** Resolves once `ready()` holds, checking after each turn of the event loop. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10));
}

describe("publishing in capture order", () => {
  test("an older capture than the latest is refused without --rollback, and nothing moves", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    await admin("rollout-snapshot", "--file", month("jan"));
    const dec = month("dec");
    await expect(admin("rollout-snapshot", "--file", dec)).rejects.toThrow(
      new RegExp(
        `^Refused .*dec\\.db: snapshot ${ids.dec} \\(captured 2026-12-01.*\\) is older than the latest, ${ids.jan} .*--rollback.*\nNothing was switched\\.$`,
        "s",
      ),
    );
    expect(fs.existsSync(dec)).toBe(true);
    expect(idOf(served)).toBe(ids.jan);
    expect(keptNames()).toEqual([`${ids.nov}.db`]);
  });

  test("--rollback makes an older capture the latest and keeps the one it replaced; going back to .previous too", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    await admin("rollout-snapshot", "--file", month("jan"));
    const lines = await admin("rollout-snapshot", "--file", month("dec"), "--rollback");
    expect(lines[0]).toBe(`Snapshot ${ids.dec} is now ${served} (the one it replaced is ${served}.previous).`);
    expect(lines[1]).toBe(
      `Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${ids.dec} (latest), ${ids.jan} (captured 2027-01-01), ${ids.nov} (captured 2026-11-01).`,
    );
    await expect(admin("rollout-snapshot", "--file", `${served}.previous`)).resolves.toContain(
      `Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${ids.jan} (latest), ${ids.dec} (captured 2026-12-01), ${ids.nov} (captured 2026-11-01).`,
    );
    await expect(admin("rollout-snapshot", "--file", `${served}.previous`)).rejects.toThrow(/is older than the latest/);
    await admin("rollout-snapshot", "--file", `${served}.previous`, "--rollback");
    expect(idOf(served)).toBe(ids.dec);
    expect(keptNames()).toEqual([`${ids.nov}.db`, `${ids.jan}.db`].sort());
  });

  test("a kept older snapshot's own file can be rolled back to; it leaves the kept directory", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    await admin("rollout-snapshot", "--file", month("dec"));
    await admin("rollout-snapshot", "--file", month("jan"));
    await admin("rollout-snapshot", "--rollback", "--file", path.join(dataDir, "snapshots", `${ids.nov}.db`));
    expect(idOf(served)).toBe(ids.nov);
    expect(keptNames()).toEqual([`${ids.dec}.db`, `${ids.jan}.db`].sort());
  });
});

describe("one publish at a time", () => {
  test("a publish waits while another holds the lock, and moves nothing until it is released", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    const held = tryPublishLock(served)!;
    expect(held).toBeDefined();
    const dec = month("dec");
    const lines: string[] = [];
    const publishing = runAdmin(["rollout-snapshot", "--file", dec], (l) => lines.push(l));
    const first = await Promise.race([until(() => lines.length > 0).then(() => "said something"), publishing.then(() => "finished")]);
    expect(first).toBe("said something");
    expect(lines).toEqual([`Another rollout-snapshot is publishing to ${served}; waiting for it to finish.`]);
    expect([fs.existsSync(dec), idOf(served)]).toEqual([true, ids.nov]);
    held.release();
    await publishing;
    expect(idOf(served)).toBe(ids.dec);
    expect(lines[1]).toBe(`Snapshot ${ids.dec} is now ${served} (the one it replaced is ${served}.previous).`);
  });

  test("two commands at once: the newer capture is the latest, whatever order they run in, and the disk holds one set", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    const [dec, jan] = [month("dec"), month("jan")];
    const run = (file: string) =>
      new Promise<{ status: number | null; text: string }>((resolve) => {
        const p = spawn(
          process.execPath,
          ["--require", require.resolve("tsx/cjs"), "src/server/admin.ts", "rollout-snapshot", "--file", file],
          {
            cwd: ROOT,
            env: process.env,
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let text = "";
        p.stdout!.on("data", (c) => (text += c));
        p.stderr!.on("data", (c) => (text += c));
        p.once("exit", (status) => resolve({ status, text }));
      });
    const [decRun, janRun] = await Promise.all([run(dec), run(jan)]);
    expect(janRun).toMatchObject({ status: 0, text: expect.stringContaining(`Snapshot ${ids.jan} is now ${served}`) });
    // dec went first (and is kept), or after jan (and is refused as older, staying where it was).
    if (decRun.status === 0) expect(keptNames()).toEqual([`${ids.nov}.db`, `${ids.dec}.db`].sort());
    else {
      expect(decRun.text).toMatch(/is older than the latest/);
      expect([fs.existsSync(dec), keptNames()]).toEqual([true, [`${ids.nov}.db`]]);
    }
    expect(idOf(served)).toBe(ids.jan);
  });

  test("a publisher killed while it holds the lock leaves no lock behind", async () => {
    fs.writeFileSync(publishLockPath(served), "");
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = new (require("better-sqlite3"))(${JSON.stringify(publishLockPath(served))}); db.exec("BEGIN EXCLUSIVE"); console.log("locked"); setInterval(() => {}, 1000);`,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let said = "";
    holder.stdout!.on("data", (c) => (said += c));
    await until(() => said.includes("locked"));
    expect(tryPublishLock(served)).toBeUndefined(); // held by the other process
    const died = new Promise((r) => holder.once("exit", r));
    holder.kill("SIGKILL");
    await died;
    const lines = await admin("rollout-snapshot", "--file", month("nov"));
    expect(lines[0]).toBe(`Snapshot ${ids.nov} is now ${served}.`);
  });
});

describe("files refused before anything moves", () => {
  test("an id that is not of the snapshot id form names no file, and is refused", async () => {
    expect(() => keptFile(served, "../../evil")).toThrow(/not a snapshot id/);
    const evil = copy("evil.db", "UPDATE snapshot_meta SET value = '../../evil' WHERE key = 'id'");
    await expect(admin("rollout-snapshot", "--file", evil)).rejects.toThrow(
      /^Refused .*evil\.db: .*its id "\.\.\/\.\.\/evil" is not a snapshot id/s,
    );
    expect(fs.existsSync(served)).toBe(false);
  });

  test("a file with a malformed id at SNAPSHOT_PATH is replaced, never kept under a path its id builds", async () => {
    const evilId = `../../evil-${path.basename(dataDir)}`;
    const outside = path.resolve(dataDir, "snapshots", `${evilId}.db`);
    fs.renameSync(copy("evil.db", `UPDATE snapshot_meta SET value = '${evilId}' WHERE key = 'id'`), served);
    try {
      await admin("rollout-snapshot", "--file", month("nov"));
      expect(fs.existsSync(outside)).toBe(false);
      expect(idOf(served)).toBe(ids.nov);
      expect(fs.existsSync(path.join(dataDir, "snapshots")) ? keptNames() : []).toEqual([]);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  const broken: [string, string, RegExp][] = [
    ["the properties table dropped", "DROP TABLE properties", /table properties is missing/],
    ["the market history table dropped", "DROP TABLE market_history", /table market_history is missing/],
    [
      "the market history's figures column dropped",
      "ALTER TABLE market_history DROP COLUMN figures",
      /table market_history lacks column figures/,
    ],
    ["a column the routes read dropped", "ALTER TABLE sales DROP COLUMN sale_date", /table sales lacks column sale_date/],
    ["the text index dropped", "DROP TABLE properties_fts", /table properties_fts is missing/],
  ];
  test.each(broken)("a file with %s is refused by rollout-snapshot and not served from the kept directory", async (_what, sql, reason) => {
    const file = copy(
      "broken.db",
      "DROP INDEX IF EXISTS ix_sales_property_id_sale_date",
      "DROP INDEX IF EXISTS ix_sales_asset_type_state_code_sale_date",
      sql,
    );
    await expect(admin("rollout-snapshot", "--file", file)).rejects.toThrow(reason);
    expect(fs.existsSync(served)).toBe(false);
    // Put in the kept directory by hand, it is not served at start-up.
    fs.mkdirSync(path.join(dataDir, "snapshots"));
    fs.renameSync(file, path.join(dataDir, "snapshots", `${ids.nov}.db`));
    const warnings: string[] = [];
    expect(openKeptSnapshots(served, (m) => warnings.push(m))).toEqual([]);
    expect(warnings.join("\n")).toMatch(reason);
    expect(() => openContext(path.join(dataDir, "snapshots", `${ids.nov}.db`))).toThrow(reason);
  });

  test("a file in WAL mode is refused: its pages may be in its -wal file, which no link or rename takes along", async () => {
    const file = copy("wal.db", "PRAGMA journal_mode = WAL");
    await expect(admin("rollout-snapshot", "--file", file)).rejects.toThrow(/it is in WAL mode/);
    expect(fs.existsSync(served)).toBe(false);
  });
});

test("a stale service.pid naming an unrelated live process: the command does not signal it and says so", async () => {
  const other = spawn("sleep", ["30"], { stdio: "ignore" });
  const ended = new Promise((r) => other.once("exit", (_code, signal) => r(signal)));
  try {
    // Left by a service that crashed; the system has since given its pid to `sleep`.
    fs.writeFileSync(path.join(dataDir, "service.pid"), `${other.pid}\n`);
    fs.writeFileSync(path.join(dataDir, "service.pid.identity"), `${other.pid} proc-start:1\n`);
    const lines = await admin("rollout-snapshot", "--file", month("nov"));
    expect(lines[2]).toMatch(
      new RegExp(`^Did not signal pid ${other.pid}: .*service\\.pid names it, but it is not the service that wrote it`),
    );
    expect(lines.join("\n")).not.toMatch(/Sent SIGHUP/);
  } finally {
    other.kill("SIGTERM");
  }
  expect(await ended).toBe("SIGTERM"); // not SIGHUP, which would have ended it first
});

test("a kept file removed while a process serves it keeps answering from its open handle", () => {
  const file = month("nov");
  const context = openContext(file);
  try {
    fs.rmSync(file);
    expect(fs.existsSync(`${file}-wal`) || fs.existsSync(`${file}-journal`)).toBe(false);
    // Every page read after the removal, none from the cache.
    expect(context.value<string>("PRAGMA quick_check")).toBe("ok");
    expect(context.value<number>("SELECT count(*) FROM sales")).toBeGreaterThan(0);
  } finally {
    context.close();
  }
});
