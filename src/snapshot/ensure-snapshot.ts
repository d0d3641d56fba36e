// Making sure a snapshot file exists and is in the layout this version reads: the default
// snapshot built when there is none, and a file written by an older version built again.
import fs from "node:fs";
import { type BuildOptions, buildSnapshot } from "./build";
import { lineageOf, rebuildLineage } from "./next-month";
import { SNAPSHOT_FORMAT, formatOf, outdatedSnapshot } from "./snapshot-file";

/**
 * Builds the default snapshot at `file` when there is none. A snapshot written by an older
 * version lacks what this one reads: it is built again (rebuildSnapshot).
 */
export function ensureSnapshot(file: string, log: (msg: string) => void = () => {}): void {
  if (!fs.existsSync(file)) {
    log(`No snapshot at ${file}: building the default snapshot (first run only)...`);
    const built = buildSnapshot({ out: file, log: (m) => log(`  ${m}`) });
    log(`Built snapshot ${built.id} in ${built.seconds.toFixed(1)} s.`);
    return;
  }
  const meta = outdatedSnapshot(file);
  if (meta) rebuildSnapshot(meta, file, `Snapshot ${meta.id} at ${file}`, log);
}

/**
 * Builds at `out`, in the current layout, the snapshot whose meta (of an older format) is
 * `meta`: a generated one again from its own seed, size and capture date (the same data), and a
 * next month (next-month.ts) from its lineage, the base build and each month after it; an
 * imported one must be imported again from its files, which only the operator has, so that is an
 * error saying how. `what` names the snapshot in the messages.
 */
export function rebuildSnapshot(meta: Record<string, string>, out: string, what: string, log: (msg: string) => void): void {
  const why = `${what} has format ${formatOf(meta)}; this version reads format ${SNAPSHOT_FORMAT}.`;
  if (meta.source !== "generated" || meta.seed === undefined) {
    throw new Error(`${why} Import its files again: npm run snapshot -- import --dir <files> --out ${out}`);
  }
  if (meta.next_from !== undefined) {
    const lineage = lineageOf(meta);
    log(
      `${why} Building it again: seed ${lineage.seed} (${lineage.properties} properties), then ${lineage.next_months.length} month(s)...`,
    );
    const built = rebuildLineage(lineage, out, (m) => log(`  ${m}`));
    log(`Built snapshot ${built.id}.`);
    return;
  }
  const properties = (JSON.parse(meta.coverage) as { counts: { properties: number } }).counts.properties;
  log(`${why} Building it again from seed ${meta.seed} (${properties} properties)...`);
  const opts: Omit<BuildOptions, "out" | "log"> = { seed: Number(meta.seed), properties, capturedAt: meta.captured_at };
  const built = buildSnapshot({ ...opts, out, log: (m) => log(`  ${m}`) });
  log(`Built snapshot ${built.id} in ${built.seconds.toFixed(1)} s.`);
}
