// Operator commands, run without the web pages:
//   npm run admin -- create-key --email <email> --name <key name>
//   npm run admin -- list-keys --email <email>
//   npm run admin -- revoke-key --email <email> --key-id <key id>
//   npm run admin -- set-plan --email <email> --plan <explorer|unlimited>
//   printf '%s' "$PASSWORD" | npm run admin -- set-password --email <email>
//   npm run admin -- rollout-snapshot --file <new snapshot file>
//   npm run admin -- rollout-snapshot --rollback
// create-key prints the raw key as the last line of its output, once; it is not stored.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { KeyLimitError } from "./auth/ports";
import { hashPasswordSync, passwordProblem } from "./web/passwords";
import { loadConfig, loadPepper } from "./config";
import { DEFAULT_PLAN, PLANS, planOf } from "./auth/plans";
import { openStores } from "./open-stores";
import type { ServiceStores } from "./stores/service-stores";
import { publishSnapshot, withdrawSnapshot } from "./snapshot-publish";

const USAGE = `Usage:
  npm run admin -- create-key --email <email> --name <key name> [--test] [--plan <plan>]
  npm run admin -- list-keys --email <email>
  npm run admin -- revoke-key --email <email> --key-id <key id>
  npm run admin -- set-plan --email <email> --plan <plan>
  npm run admin -- set-password --email <email>   (reads the password from standard input)
  npm run admin -- rollout-snapshot --file <path>
      (checks a new snapshot file, publishes it into the store at SNAPSHOT_STORE as the latest, signals the service)
  npm run admin -- rollout-snapshot --rollback
      (withdraws the latest snapshot from the store: the one before it is the latest again; signals the service)
  npm run admin -- --help
Plans: ${Object.keys(PLANS).join(", ")} (new accounts get ${DEFAULT_PLAN}).`;

const OPTIONS = {
  email: { type: "string" },
  name: { type: "string" },
  test: { type: "boolean" },
  plan: { type: "string" },
  "key-id": { type: "string" },
  file: { type: "string" },
  rollback: { type: "boolean" },
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
  if (command === "rollout-snapshot") {
    const publish = { storePath: config.snapshotStore, dataDir: config.dataDir, retainMonths: config.snapshotsRetainMonths, out };
    if (flags.rollback === true) {
      if (flags.file !== undefined) throw new Error(`--rollback withdraws the latest snapshot and takes no --file.\n${USAGE}`);
      return withdrawSnapshot(publish);
    }
    return publishSnapshot(path.resolve(need(flags, "file")), publish);
  }
  const pepper = loadPepper(config.dataDir);
  const { stores } = await openStores(config, pepper);
  try {
    await runCommand(command, flags, stores, out, readSecret);
  } finally {
    await stores.close();
  }
}

async function runCommand(command: string, flags: Flags, stores: ServiceStores, out: (line: string) => void, readSecret: () => string) {
  const { accounts, keys } = stores;
  if (command === "create-key") {
    const email = need(flags, "email");
    const name = need(flags, "name");
    if (!EMAIL.test(email)) throw new Error(`'${email}' is not an email address.`);
    if (name.length > 100) throw new Error("--name must be at most 100 characters.");
    const plan = flags.plan === undefined ? undefined : need(flags, "plan");
    let account = (await accounts.findByEmail(email)) ?? (await accounts.create(email, plan ?? DEFAULT_PLAN));
    if (plan !== undefined && account.plan !== plan) {
      await accounts.setPlan(account.id, plan);
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
    const account = await accounts.findByEmail(need(flags, "email"));
    if (!account) throw new Error("No account with that email.");
    for (const k of await keys.listKeys(account.id)) {
      out(
        `${k.key_id}  ...${k.last_chars}  ${k.name}  created ${k.created_at}  last used ${k.last_used_at ?? "never"}${k.revoked_at ? `  REVOKED ${k.revoked_at}` : ""}`,
      );
    }
  } else if (command === "revoke-key") {
    const account = await accounts.findByEmail(need(flags, "email"));
    if (!account || !(await keys.revokeKey(account.id, need(flags, "key-id")))) throw new Error("No such active key on that account.");
    out("Revoked.");
  } else if (command === "set-plan") {
    const account = await accounts.findByEmail(need(flags, "email"));
    if (!account) throw new Error("No account with that email.");
    const plan = need(flags, "plan");
    await accounts.setPlan(account.id, plan);
    out(`Account ${account.id} (${account.email}) is now on the ${planOf(plan).name} plan.`);
  } else if (command === "set-password") {
    // Accounts made by create-key have no password; this lets their owner log in to the web
    // pages. It also resets a forgotten password (the service sends no email).
    const account = await accounts.findByEmail(need(flags, "email"));
    if (!account) throw new Error("No account with that email.");
    const password = readSecret().replace(/\r?\n$/, "");
    const problem = passwordProblem(password, account.email);
    if (problem) throw new Error(`Password not set: ${problem}`);
    await accounts.setPassword(account.id, hashPasswordSync(password));
    const ended = await stores.sessions.endAll(account.id);
    out(`Password set for ${account.email}; they can log in at /account/login.${ended ? ` ${ended} open session(s) ended.` : ""}`);
  } else {
    throw new Error(USAGE);
  }
}

if (require.main === module) {
  runAdmin(process.argv.slice(2), (line) => console.log(line)).catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
