// Command line for building and importing snapshots (the only entry file of src/snapshot):
//   npx tsx src/snapshot/cli.ts build [--seed 7] [--properties 20000] [--captured-at 2026-11-01T00:00:00Z] [--out data/snapshot.db]
//   npx tsx src/snapshot/cli.ts import --dir <dir> [--out data/snapshot.db] [--captured-at <iso>]
//   npx tsx src/snapshot/cli.ts next-month --from <snapshot> [--changed 0.05] [--out data/snapshot-next.db]
// Prints what it did and how long it took; a bad import prints every error and exits with 1.
import { buildSnapshot, DEFAULT_CAPTURED_AT, DEFAULT_PROPERTIES, DEFAULT_SEED } from "./build";
import { importSnapshot } from "./import";
import { DEFAULT_CHANGED_SHARE, nextMonthSnapshot } from "./next-month";
import { parseArgs } from "node:util";

const USAGE = `usage:
  cli.ts build  [--seed N] [--properties N] [--captured-at ISO] [--out FILE] [--quiet]
  cli.ts import --dir DIR [--out FILE] [--captured-at ISO] [--quiet]
  cli.ts next-month --from FILE [--changed SHARE] [--out FILE] [--quiet]
  cli.ts --help
defaults: --seed ${DEFAULT_SEED} --properties ${DEFAULT_PROPERTIES} --captured-at ${DEFAULT_CAPTURED_AT} --out data/snapshot.db
next-month: a generated snapshot one month later, --changed ${DEFAULT_CHANGED_SHARE} (or 5%) of properties changed, --out data/snapshot-next.db`;

const OPTIONS = {
  seed: { type: "string" },
  properties: { type: "string" },
  "captured-at": { type: "string" },
  out: { type: "string" },
  dir: { type: "string" },
  from: { type: "string" },
  changed: { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The options each command takes (every command also takes --help). */
const COMMAND_OPTIONS: Record<string, (keyof typeof OPTIONS)[]> = {
  build: ["seed", "properties", "captured-at", "out", "quiet"],
  import: ["dir", "out", "captured-at", "quiet"],
  "next-month": ["from", "changed", "out", "quiet"],
};

type Flags = ReturnType<typeof parseCliArgs>["flags"];

/** A mistake in the command line: printed with the usage. */
class UsageError extends Error {}

/** The command and its options; an unknown option, one the command does not take, a missing value or a stray argument throws. */
function parseCliArgs(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    if (!String((err as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")) throw err;
    // node:util's message, without its hint about quoting arguments that start with "-".
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, ""));
  }
  const [command = "", ...rest] = parsed.positionals;
  if (rest.length) throw new UsageError(`unexpected argument ${rest[0]}`);
  const allowed = COMMAND_OPTIONS[command] as (keyof typeof OPTIONS)[] | undefined;
  const other = allowed && Object.keys(parsed.values).find((name) => name !== "help" && !allowed.includes(name as keyof typeof OPTIONS));
  if (other) throw new UsageError(`${command} takes no --${other}`);
  return { command, flags: parsed.values };
}

function integer(flags: Flags, name: "seed" | "properties"): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = Number(v.replace(/_/g, ""));
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be an integer, got ${v}`);
  return n;
}

/** A share as 0.05 or 5%. */
function share(flags: Flags): number | undefined {
  const v = flags.changed;
  if (v === undefined) return undefined;
  const n = v.endsWith("%") ? Number(v.slice(0, -1)) / 100 : Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`--changed must be a share from 0 to 1 (or 0% to 100%), got ${v}`);
  return n;
}

function main(argv: string[]): number {
  const { command, flags } = parseCliArgs(argv);
  if (flags.help) {
    console.log(USAGE);
    return 0;
  }
  const log = flags.quiet ? undefined : (msg: string) => console.log(`  ${msg}`);
  const out = flags.out ?? (command === "next-month" ? "data/snapshot-next.db" : "data/snapshot.db");
  if (command === "build") {
    const r = buildSnapshot({
      out,
      seed: integer(flags, "seed"),
      properties: integer(flags, "properties"),
      capturedAt: flags["captured-at"],
      log,
    });
    console.log(`built ${r.path} (${r.id}) in ${r.seconds} s`);
    console.log(
      `  ${Object.entries(r.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    return 0;
  }
  if (command === "import") {
    const dir = flags.dir;
    if (!dir) throw new UsageError("import needs --dir");
    const started = performance.now();
    const r = importSnapshot({ dir, out, capturedAt: flags["captured-at"], log });
    if (!r.ok) {
      console.error(`import failed: ${r.errors.length} error(s); nothing was written`);
      for (const e of r.errors) console.error(`  ${e.file}${e.line ? `:${e.line}` : ""}: ${e.reason}`);
      return 1;
    }
    console.log(`imported ${r.path} (${r.id}) in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    console.log(
      `  ${Object.entries(r.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    return 0;
  }
  if (command === "next-month") {
    if (!flags.from) throw new UsageError("next-month needs --from (the previous snapshot)");
    const r = nextMonthSnapshot({ from: flags.from, out, changed: share(flags), log });
    const t = r.tallies;
    console.log(`built ${r.path} (${r.id}), the month after ${r.previousId}, captured ${r.capturedAt}, in ${r.seconds} s`);
    console.log(
      `  properties changed ${t.properties_changed} of ${t.properties}: ${Object.entries(t.by_event)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}; leases renewed ${t.leases_renewed}`,
    );
    console.log(
      `  listings: ${Object.entries(t.listings)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    return 0;
  }
  console.error(USAGE);
  return 2;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  console.error(`error: ${(err as Error).message}${err instanceof UsageError ? `\n${USAGE}` : ""}`);
  process.exitCode = 1;
}
