// The account the embedded PostgreSQL server runs as, and whether that account can reach a folder.
// PostgreSQL refuses to run as root, so root hands the server to another account: `postgres` where
// the machine has one, else `nobody`, which every Unix system has; anyone else runs it as themself.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface Account {
  name: string;
  uid: number;
  gid: number;
}

/** The accounts root hands the server to, in order of preference. */
export const SERVER_ACCOUNTS = ["postgres", "nobody"] as const;

/** The uid and gid of a named account (through `id`, so any name service counts), or undefined. */
export function lookupAccount(name: string): Account | undefined {
  try {
    const id = (flag: string) =>
      Number.parseInt(execFileSync("id", [flag, name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }), 10);
    const uid = id("-u");
    const gid = id("-g");
    return Number.isInteger(uid) && Number.isInteger(gid) ? { name, uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The account to run the server as: undefined for a user other than root (the server runs as that
 * user); for root, the first of SERVER_ACCOUNTS the machine has. Throws when it has none.
 */
export function serverAccount(uid: number, lookup: (name: string) => Account | undefined = lookupAccount): Account | undefined {
  if (uid !== 0) return undefined;
  for (const name of SERVER_ACCOUNTS) {
    const account = lookup(name);
    if (account) return account;
  }
  throw new Error(
    `PostgreSQL does not run as root, and this machine has no ${SERVER_ACCOUNTS.join(" or ")} account to run it as: ` +
      "create one, run as another user, or set TEST_DATABASE_URL (or DATABASE_URL) to a server you run yourself",
  );
}

/** Whether `account` may pass through every folder on the way to `dir` (and `dir` itself). */
export function canReach(account: Account, dir: string): boolean {
  let current = path.resolve(dir);
  for (;;) {
    const stat = fs.statSync(current);
    const bits = stat.uid === account.uid ? 0o100 : stat.gid === account.gid ? 0o010 : 0o001;
    if (!(stat.mode & bits)) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}
