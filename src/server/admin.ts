// Operator commands, run without the web pages:
//   npm run admin -- create-key --email <email> --name <key name>
//   npm run admin -- list-keys --email <email>
//   npm run admin -- revoke-key --email <email> --key-id <key id>
//   npm run admin -- set-plan --email <email> --plan <explorer|unlimited>
//   printf '%s' "$PASSWORD" | npm run admin -- set-password --email <email>
//   npm run admin -- rollout-snapshot --file <new snapshot file>
// create-key prints the raw key as the last line of its output, once; it is not stored.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { KeyLimitError } from "./auth/key-store";
import { hashPasswordSync, passwordProblem } from "./web/passwords";
import { loadConfig, loadPepper } from "./config";
import { DEFAULT_PLAN, PLANS } from "./auth/plans";
import { openStores } from "./open-stores";
import { type ServiceStores, sqliteStores } from "./stores";
import { openContext } from "./data/live-snapshot";
import { keepReplaced, keptDir, keptWithId, stampOf } from "./data/kept-files";
import { type SnapshotStamp, newestFirst } from "./data/snapshot-select";
import { checkSnapshotFile } from "../snapshot/snapshot-file";
import { pidFilePath, signalService } from "./service-pid";

const USAGE = `Usage:
  npm run admin -- create-key --email <email> --name <key name> [--test] [--plan <plan>]
  npm run admin -- list-keys --email <email>
  npm run admin -- revoke-key --email <email> --key-id <key id>
  npm run admin -- set-plan --email <email> --plan <plan>
  npm run admin -- set-password --email <email>   (reads the password from standard input)
  npm run admin -- rollout-snapshot --file <path>  (checks a new snapshot file, moves it to SNAPSHOT_PATH, signals the service)
  npm run admin -- --help
Plans: ${Object.keys(PLANS).join(", ")} (new accounts get ${DEFAULT_PLAN}).`;

const OPTIONS = {
  email: { type: "string" },
  name: { type: "string" },
  test: { type: "boolean" },
  plan: { type: "string" },
  "key-id": { type: "string" },
  file: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Flags = ReturnType<typeof parseAdminArgs>["flags"];

/** The command and its options; an unknown option, a missing value or a stray argument throws with the usage. */
export function parseAdminArgs(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    if (!String((err as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")) throw err;
    // node:util's message, without its hint about quoting arguments that start with "-".
    const message = (err as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, "");
    throw new Error(`${message}${message.endsWith(".") ? "" : "."}\n${USAGE}`);
  }
  const [command = "", ...rest] = parsed.positionals;
  if (rest.length) throw new Error(`Unexpected argument '${rest[0]}'.\n${USAGE}`);
  return { command, flags: parsed.values };
}

function need(flags: Flags, name: "email" | "name" | "plan" | "key-id" | "file"): string {
  const v = flags[name];
  if (v === undefined || v.trim() === "") throw new Error(`--${name} is required.\n${USAGE}`);
  return v.trim();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `readSecret` gives the password for set-password: standard input, never an argument
 *  (arguments show in `ps` and in shell history). */
export async function runAdmin(argv: string[], out: (line: string) => void, readSecret = () => fs.readFileSync(0, "utf8")): Promise<void> {
  const { command, flags } = parseAdminArgs(argv);
  if (flags.help) {
    out(USAGE);
    return;
  }
  const config = loadConfig();
  if (command === "rollout-snapshot") return rolloutSnapshot(path.resolve(need(flags, "file")), config, out);
  const pepper = loadPepper(config.dataDir);
  const opened = await openStores(config, pepper);
  const stores = opened.stores ?? sqliteStores(opened.accountsDb, pepper);
  try {
    await runCommand(command, flags, stores, out, readSecret);
  } finally {
    // PostgreSQL's stores are the opened ones, closed (once) by opened.close(); the SQLite
    // stores built here write what they hold before the database closes.
    if (!opened.stores) await stores.close();
    await opened.close();
  }
}

async function runCommand(command: string, flags: Flags, stores: ServiceStores, out: (line: string) => void, readSecret: () => string) {
  const { keys } = stores;
  if (command === "create-key") {
    const email = need(flags, "email");
    const name = need(flags, "name");
    if (!EMAIL.test(email)) throw new Error(`'${email}' is not an email address.`);
    if (name.length > 100) throw new Error("--name must be at most 100 characters.");
    const plan = flags.plan === undefined ? undefined : need(flags, "plan");
    let account = (await keys.accounts.findByEmail(email)) ?? (await keys.accounts.create(email, plan ?? DEFAULT_PLAN));
    if (plan !== undefined && account.plan !== plan) {
      await keys.accounts.setPlan(account.id, plan);
      account = { ...account, plan };
    }
    let created;
    try {
      created = await keys.createKey(account.id, name, flags.test ? "test" : "live");
    } catch (err) {
      if (err instanceof KeyLimitError) throw new Error(`${err.message}\nSee them with list-keys; revoke one with revoke-key.`);
      throw err;
    }
    const { raw, summary } = created;
    out(`Account ${account.id} (${account.email}), plan ${account.plan}.`);
    out(`Created key '${summary.name}' (key id ${summary.key_id}). It is shown once and cannot be recovered:`);
    out(raw);
  } else if (command === "list-keys") {
    const account = await keys.accounts.findByEmail(need(flags, "email"));
    if (!account) throw new Error("No account with that email.");
    for (const k of await keys.listKeys(account.id)) {
      out(
        `${k.key_id}  ...${k.last_chars}  ${k.name}  created ${k.created_at}  last used ${k.last_used_at ?? "never"}${k.revoked_at ? `  REVOKED ${k.revoked_at}` : ""}`,
      );
    }
  } else if (command === "revoke-key") {
    const account = await keys.accounts.findByEmail(need(flags, "email"));
    if (!account || !(await keys.revokeKey(account.id, need(flags, "key-id")))) throw new Error("No such active key on that account.");
    out("Revoked.");
  } else if (command === "set-plan") {
    const account = await keys.accounts.findByEmail(need(flags, "email"));
    if (!account) throw new Error("No account with that email.");
    const plan = need(flags, "plan");
    await keys.accounts.setPlan(account.id, plan);
    out(`Account ${account.id} (${account.email}) is now on the ${PLANS[plan].name} plan.`);
  } else if (command === "set-password") {
    // Accounts made by create-key have no password; this lets their owner log in to the web
    // pages. It also resets a forgotten password (the service sends no email).
    const account = await keys.accounts.findByEmail(need(flags, "email"));
    if (!account) throw new Error("No account with that email.");
    const password = readSecret().replace(/\r?\n$/, "");
    const problem = passwordProblem(password, account.email);
    if (problem) throw new Error(`Password not set: ${problem}`);
    await keys.accounts.setPassword(account.id, hashPasswordSync(password));
    const ended = await stores.sessions.endAll(account.id);
    out(`Password set for ${account.email}; they can log in at /account/login.${ended ? ` ${ended} open session(s) ended.` : ""}`);
  } else {
    throw new Error(USAGE);
  }
}

/**
 * Publishes a snapshot file to the running service: checks it as the service will (quick_check,
 * meta, format), renames it to SNAPSHOT_PATH (the file the replaced one had becomes
 * SNAPSHOT_PATH.previous, for going back, and is kept in the snapshots directory beside it while
 * SNAPSHOTS_KEEP allows: data/kept-files.ts), and sends SIGHUP to the service DATA_DIR/service.pid
 * names. A file that fails the checks, or has the id of a kept snapshot but another build, is
 * refused with the reason and nothing is moved.
 */
function rolloutSnapshot(file: string, config: ReturnType<typeof loadConfig>, out: (line: string) => void): void {
  let stamp: SnapshotStamp;
  try {
    checkSnapshotFile(file);
    const context = openContext(file); // the checks the service makes of the meta
    stamp = context.stamp;
    context.close();
  } catch (err) {
    throw new Error(`Refused ${file}: ${(err as Error).message}\nNothing was switched.`);
  }
  const id = stamp.id;
  const target = config.snapshotPath;
  const twin = keptWithId(target, id);
  if (twin && twin.stamp.built_at !== stamp.built_at) {
    throw new Error(
      `Refused ${file}: snapshot ${id} is already kept (${twin.file}, built ${twin.stamp.built_at}); this file has the same id ` +
        `but was built ${stamp.built_at}, and snapshot=${id} must name one snapshot. Publish it with another capture date.\nNothing was switched.`,
    );
  }
  if (file !== target) {
    const previous = `${target}.previous`;
    if (file === previous) {
      // Going back: the file is about to be replaced by a link to the current one, so move it aside first.
      const aside = `${target}.going-back`;
      fs.renameSync(file, aside);
      file = aside;
    }
    // The file being replaced stays served as an older snapshot (SNAPSHOTS_KEEP), so a restart finds it.
    const removed = keepReplaced(target, stamp, config.snapshotsKeep, file);
    if (fs.existsSync(target)) {
      fs.rmSync(previous, { force: true });
      fs.linkSync(target, previous);
    }
    try {
      fs.renameSync(file, target); // atomic: the service opens either the old file or the new one
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EXDEV") {
        throw new Error(`${file} is on another file system than ${target}: publish it in ${path.dirname(target)} and run this again.`);
      }
      throw err;
    }
    out(`Snapshot ${id} is now ${target}${fs.existsSync(previous) ? ` (the one it replaced is ${previous})` : ""}.`);
    out(`Kept snapshots (SNAPSHOTS_KEEP=${config.snapshotsKeep}): ${keptSummary(target)}.`);
    for (const r of removed) out(`No longer kept: removed ${r}.`);
  } else {
    out(`Snapshot ${id} is already ${target}.`);
  }
  const pid = signalService(config.dataDir);
  if (pid === null) {
    out(`No service is running for ${config.dataDir} (no live process in ${pidFilePath(config.dataDir)}); it serves ${id} when it starts.`);
  } else {
    out(`Sent SIGHUP to the service (pid ${pid}): it checks the file again and switches, or logs why it refused it.`);
    out(`GET /v1/commercial/coverage shows the snapshot it serves (snapshot.id) and since when (serving.since).`);
  }
}

/** The latest snapshot and the older ones kept beside it, newest first, for the command's report. */
function keptSummary(target: string): string {
  const dir = keptDir(target);
  const older = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith(".db"))
        .map((n) => stampOf(path.join(dir, n)))
        .sort(newestFirst)
    : [];
  return [`${stampOf(target).id} (latest)`, ...older.map((s) => `${s.id} (captured ${s.captured_at.slice(0, 10)})`)].join(", ");
}

if (require.main === module) {
  runAdmin(process.argv.slice(2), (line) => console.log(line)).catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
