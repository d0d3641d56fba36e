// `npm run admin -- rollout-snapshot` on its own (no service running): each file published into
// the store at SNAPSHOT_STORE as its latest, one publish at a time under a lock the system
// releases when its holder dies, in capture order (going back is withdrawing the latest with
// --rollback), versions past SNAPSHOTS_RETAIN_MONTHS retired, and files refused before anything is
// published: a malformed id, a missing table, view or column, a file in WAL mode, another format.
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runAdmin } from "../../src/server/admin";
import { adminProcess } from "../helpers/admin-process";
import { servedVersions } from "../../src/server/data/store-snapshots";
import { publishLockPath, tryPublishLock } from "../../src/server/publish-lock";
import { buildSnapshot } from "../../src/snapshot/build";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";

const ROOT = path.resolve(__dirname, "../..");
const saved = { ...process.env };
let chain: string;
/** Three consecutive months (captured 2026-11-01, 2026-12-01, 2027-01-01), built once; each test publishes copies. */
const built: Record<"nov" | "dec" | "jan", { file: string; id: string }> = {
  nov: { file: "", id: "" },
  dec: { file: "", id: "" },
  jan: { file: "", id: "" },
};
const ids = { nov: "", dec: "", jan: "" };
let dataDir: string;
let store: string;

beforeAll(() => {
  chain = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-publish-chain-"));
  built.nov.file = path.join(chain, "nov.db");
  built.nov.id = buildSnapshot({ out: built.nov.file, seed: 41, properties: 300, capturedAt: "2026-11-01" }).id;
  for (const [from, to] of [
    ["nov", "dec"],
    ["dec", "jan"],
  ] as const) {
    const next = nextMonthSnapshot({ from: built[from].file, out: path.join(chain, `${to}.db`) });
    built[to] = { file: next.path, id: next.id };
  }
  for (const k of ["nov", "dec", "jan"] as const) ids[k] = built[k].id;
}, 120_000);
afterAll(() => fs.rmSync(chain, { recursive: true, force: true }));

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-publish-"));
  store = path.join(dataDir, "store.db");
  process.env.DATA_DIR = dataDir;
  delete process.env.SNAPSHOT_STORE;
  process.env.SNAPSHOTS_RETAIN_MONTHS = "120";
});
afterEach(() => {
  for (const k of ["DATA_DIR", "SNAPSHOT_STORE", "SNAPSHOTS_RETAIN_MONTHS"]) {
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

/** A copy of a month in DATA_DIR, changed by `sql` (run on the copy). */
function copy(name: keyof typeof built, ...sql: string[]): string {
  const file = path.join(dataDir, `${name}-${fs.readdirSync(dataDir).length}.db`);
  fs.copyFileSync(built[name].file, file);
  if (sql.length) {
    const db = new Database(file);
    for (const s of sql) db.exec(s);
    db.close();
  }
  return file;
}
const month = (name: keyof typeof built) => copy(name);

/** The store's versions served, oldest first, by id. */
const served = () => (fs.existsSync(store) ? servedVersions(store).map((v) => v.stamp.id) : []);
/** Lines that say what was published and kept (without the per-table lines of the publish). */
const said = (lines: string[]) => lines.filter((l) => !l.startsWith("  "));

/** Resolves once `ready()` holds, checking after each turn of the event loop. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10));
}

describe("publishing in capture order", () => {
  test("each month becomes the store's latest, the months before it kept, the file left where it was", async () => {
    expect(said(await admin("rollout-snapshot", "--file", month("nov")))).toEqual([
      `Snapshot ${ids.nov} (captured 2026-11-01) is now the latest in ${store}.`,
      `Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${ids.nov} (latest).`,
      `No service is running for ${dataDir} (no live process in ${path.join(dataDir, "service.pid")}); it serves the store's latest when it starts.`,
    ]);
    const dec = month("dec");
    const lines = await admin("rollout-snapshot", "--file", dec);
    expect(lines).toContain(`Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=120): ${ids.dec} (latest), ${ids.nov} (captured 2026-11-01).`);
    expect(lines.some((l) => /^ {2}properties: \d+ changed, 0 removed, 0 added/.test(l))).toBe(true);
    expect(fs.existsSync(dec)).toBe(true);
    expect(served()).toEqual([ids.nov, ids.dec]);
  });

  test("an older capture than the latest is refused, nothing is published, and the refusal says how to go back", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    await admin("rollout-snapshot", "--file", month("jan"));
    await expect(admin("rollout-snapshot", "--file", month("dec"))).rejects.toThrow(
      new RegExp(
        `^Refused .*: snapshot ${ids.dec} was captured 2026-12-01.*before the store's newest \\(${ids.jan}.*--rollback\nNothing was published\\.$`,
        "s",
      ),
    );
    expect(served()).toEqual([ids.nov, ids.jan]);
  });

  test("--rollback withdraws the latest: the month before is the latest again, and the one withdrawn is not published again", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    await admin("rollout-snapshot", "--file", month("dec"));
    const lines = await admin("rollout-snapshot", "--rollback");
    expect(lines[0]).toBe(`Withdrew snapshot ${ids.dec}: it is no longer served. The latest is ${ids.nov} (captured 2026-11-01) again.`);
    expect(served()).toEqual([ids.nov]);
    await expect(admin("rollout-snapshot", "--rollback")).rejects.toThrow(`snapshot ${ids.nov} is the only one the store serves`);
    await expect(admin("rollout-snapshot", "--file", month("dec"))).rejects.toThrow(`snapshot ${ids.dec} is already in the store`);
    // The next month is published over the withdrawn one as usual.
    await admin("rollout-snapshot", "--file", month("jan"));
    expect(served()).toEqual([ids.nov, ids.jan]);
    await expect(admin("rollout-snapshot", "--rollback", "--file", month("nov"))).rejects.toThrow(
      /--rollback withdraws the latest snapshot and takes no --file/,
    );
  });

  test("the versions past SNAPSHOTS_RETAIN_MONTHS are retired when a month is published; the latest always stays", async () => {
    process.env.SNAPSHOTS_RETAIN_MONTHS = "0";
    await admin("rollout-snapshot", "--file", month("nov"));
    const lines = await admin("rollout-snapshot", "--file", month("dec"));
    expect(lines).toContain(`No longer kept: retired ${ids.nov} (captured 2026-11-01).`);
    expect(served()).toEqual([ids.dec]);
  });
});

describe("one publish at a time", () => {
  test("a publish waits while another holds the lock, and moves nothing until it is released", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    const held = tryPublishLock(store)!;
    expect(held).toBeDefined();
    const dec = month("dec");
    const lines: string[] = [];
    const publishing = runAdmin(["rollout-snapshot", "--file", dec], (l) => lines.push(l));
    const first = await Promise.race([until(() => lines.length > 0).then(() => "said something"), publishing.then(() => "finished")]);
    expect(first).toBe("said something");
    expect(lines).toEqual([`Another rollout-snapshot is publishing to ${store}; waiting for it to finish.`]);
    expect(served()).toEqual([ids.nov]);
    held.release();
    await publishing;
    expect(served()).toEqual([ids.nov, ids.dec]);
  });

  test("two commands at once: the newer capture is the latest, whatever order they run in", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    const [dec, jan] = [month("dec"), month("jan")];
    const run = (file: string) => adminProcess("rollout-snapshot", "--file", file);
    const [decRun, janRun] = await Promise.all([run(dec), run(jan)]);
    expect(janRun).toMatchObject({
      status: 0,
      text: expect.stringContaining(`Snapshot ${ids.jan} (captured 2027-01-01) is now the latest`),
    });
    // dec went first (and is kept), or after jan (and is refused as captured before it).
    if (decRun.status === 0) expect(served()).toEqual([ids.nov, ids.dec, ids.jan]);
    else {
      expect(decRun.text).toMatch(/before the store's newest/);
      expect(served()).toEqual([ids.nov, ids.jan]);
    }
  });

  test("a publisher killed while it holds the lock leaves no lock behind", async () => {
    fs.writeFileSync(publishLockPath(store), "");
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = new (require("better-sqlite3"))(${JSON.stringify(publishLockPath(store))}); db.exec("BEGIN EXCLUSIVE"); console.log("locked"); setInterval(() => {}, 1000);`,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let printed = "";
    holder.stdout!.on("data", (c) => (printed += c));
    await until(() => printed.includes("locked"));
    expect(tryPublishLock(store)).toBeUndefined(); // held by the other process
    const died = new Promise((r) => holder.once("exit", r));
    holder.kill("SIGKILL");
    await died;
    const lines = await admin("rollout-snapshot", "--file", month("nov"));
    expect(said(lines)[0]).toBe(`Snapshot ${ids.nov} (captured 2026-11-01) is now the latest in ${store}.`);
  });
});

describe("files refused before anything is published", () => {
  test("an id that is not of the snapshot id form is refused", async () => {
    const evil = copy("nov", "UPDATE snapshot_meta SET value = '../../evil' WHERE key = 'id'");
    await expect(admin("rollout-snapshot", "--file", evil)).rejects.toThrow(
      /^Refused .*: .*its id "\.\.\/\.\.\/evil" is not a snapshot id/s,
    );
    expect(fs.existsSync(store)).toBe(false);
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
  test.each(broken)("a file with %s is refused, as the first of a store and as a later month", async (_what, sql, reason) => {
    const drop = [
      "DROP INDEX IF EXISTS ix_sales_property_id_sale_date",
      "DROP INDEX IF EXISTS ix_sales_asset_type_state_code_sale_date",
      sql,
    ];
    await expect(admin("rollout-snapshot", "--file", copy("nov", ...drop))).rejects.toThrow(reason);
    expect(fs.existsSync(store)).toBe(false);
    await admin("rollout-snapshot", "--file", month("nov"));
    await expect(admin("rollout-snapshot", "--file", copy("dec", ...drop))).rejects.toThrow(reason);
    expect(served()).toEqual([ids.nov]);
  });

  test("a file in WAL mode is refused: its pages may be in its -wal file", async () => {
    const file = copy("nov", "PRAGMA journal_mode = WAL");
    await expect(admin("rollout-snapshot", "--file", file)).rejects.toThrow(/it is in WAL mode/);
    expect(fs.existsSync(store)).toBe(false);
  });

  test("a file of another snapshot format than the store's is refused", async () => {
    await admin("rollout-snapshot", "--file", month("nov"));
    const later = copy("dec", "UPDATE snapshot_meta SET value = '99' WHERE key = 'format'");
    await expect(admin("rollout-snapshot", "--file", later)).rejects.toThrow(
      /has format 99 and the store's snapshots format \d+: a store holds snapshots of one format/,
    );
    expect(served()).toEqual([ids.nov]);
  });
});

test("a stale service.pid naming an unrelated live process: the command does not signal it and says so", async () => {
  const other = spawn("sleep", ["30"], { stdio: "ignore" });
  const ended = new Promise((r) => other.once("exit", (_code, signal) => r(signal)));
  try {
    // Left by a service that crashed; the system has since given its pid to `sleep`.
    fs.writeFileSync(path.join(dataDir, "service.pid"), `${other.pid}\n`);
    fs.writeFileSync(path.join(dataDir, "service.pid.identity"), `${other.pid} proc-start:1\n`);
    const lines = said(await admin("rollout-snapshot", "--file", month("nov")));
    expect(lines[2]).toMatch(
      new RegExp(`^Did not signal pid ${other.pid}: .*service\\.pid names it, but it is not the service that wrote it`),
    );
    expect(lines.join("\n")).not.toMatch(/Sent SIGHUP/);
  } finally {
    other.kill("SIGTERM");
  }
  expect(await ended).toBe("SIGTERM"); // not SIGHUP, which would have ended it first
});
