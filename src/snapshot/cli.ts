// Command line for building and importing snapshots (the only entry file of src/snapshot):
//   npx tsx src/snapshot/cli.ts build [--seed 7] [--properties 20000] [--captured-at 2026-11-01T00:00:00Z] [--out data/snapshot.db]
//   npx tsx src/snapshot/cli.ts import --dir <dir> [--out data/snapshot.db] [--captured-at <iso>]
// Prints what it did and how long it took; a bad import prints every error and exits with 1.
import { buildSnapshot, DEFAULT_CAPTURED_AT, DEFAULT_PROPERTIES, DEFAULT_SEED } from "./build";
import { importSnapshot } from "./import";

const USAGE = `usage:
  cli.ts build  [--seed N] [--properties N] [--captured-at ISO] [--out FILE] [--quiet]
  cli.ts import --dir DIR [--out FILE] [--captured-at ISO] [--quiet]
defaults: --seed ${DEFAULT_SEED} --properties ${DEFAULT_PROPERTIES} --captured-at ${DEFAULT_CAPTURED_AT} --out data/snapshot.db`;

function parseArgs(argv: string[]): { command: string; flags: Map<string, string> } {
  const [command = "", ...rest] = argv;
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    if (a === "--quiet") flags.set("quiet", "1");
    else if (i + 1 < rest.length) flags.set(a.slice(2), rest[++i]);
    else throw new Error(`${a} needs a value`);
  }
  return { command, flags };
}

function integer(flags: Map<string, string>, name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v.replace(/_/g, ""));
  if (!Number.isInteger(n)) throw new Error(`--${name} must be an integer, got ${v}`);
  return n;
}

function main(argv: string[]): number {
  const { command, flags } = parseArgs(argv);
  const log = flags.has("quiet") ? undefined : (msg: string) => console.log(`  ${msg}`);
  const out = flags.get("out") ?? "data/snapshot.db";
  if (command === "build") {
    const r = buildSnapshot({ out, seed: integer(flags, "seed"), properties: integer(flags, "properties"), capturedAt: flags.get("captured-at"), log });
    console.log(`built ${r.path} (${r.id}) in ${r.seconds} s`);
    console.log(`  ${Object.entries(r.counts).map(([k, v]) => `${k} ${v}`).join(", ")}`);
    return 0;
  }
  if (command === "import") {
    const dir = flags.get("dir");
    if (!dir) throw new Error("import needs --dir");
    const started = performance.now();
    const r = importSnapshot({ dir, out, capturedAt: flags.get("captured-at"), log });
    if (!r.ok) {
      console.error(`import failed: ${r.errors.length} error(s); nothing was written`);
      for (const e of r.errors) console.error(`  ${e.file}${e.line ? `:${e.line}` : ""}: ${e.reason}`);
      return 1;
    }
    console.log(`imported ${r.path} (${r.id}) in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    console.log(`  ${Object.entries(r.counts).map(([k, v]) => `${k} ${v}`).join(", ")}`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exitCode = 1;
}
