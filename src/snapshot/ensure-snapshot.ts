// What `npm start` does before serving: make sure the snapshot file exists and is in the layout
// this version reads.
import fs from "node:fs";
import { type BuildOptions, buildSnapshot } from "./build";
import { lineageOf, rebuildLineage } from "./next-month";
import { SNAPSHOT_FORMAT, formatOf, outdatedSnapshot } from "./snapshot-file";

/**
 * Builds the default snapshot at `file` when there is none. A snapshot written by an older
 * version lacks what this one reads: a generated one is built again from its own seed, size and
 * capture date (the same data, in the current layout), and a next month (next-month.ts) again
 * from its lineage, the base build and each month after it; an imported one must be imported again
 * from its files, which only the operator has, so that is an error saying how.
 */
export function ensureSnapshot(file: string, log: (msg: string) => void = () => {}): void {
  const build = (opts: Omit<BuildOptions, "out" | "log">) => {
    const built = buildSnapshot({ ...opts, out: file, log: (m) => log(`  ${m}`) });
    log(`Built snapshot ${built.id} in ${built.seconds.toFixed(1)} s.`);
  };
  if (!fs.existsSync(file)) {
    log(`No snapshot at ${file}: building the default snapshot (first run only)...`);
    return build({});
  }
  const meta = outdatedSnapshot(file);
  if (!meta) return;
  const why = `Snapshot ${meta.id} at ${file} has format ${formatOf(meta)}; this version reads format ${SNAPSHOT_FORMAT}.`;
  if (meta.source !== "generated" || meta.seed === undefined) {
    throw new Error(`${why} Import its files again: npm run snapshot -- import --dir <files> --out ${file}`);
  }
  if (meta.next_from !== undefined) {
    const lineage = lineageOf(meta);
    log(
      `${why} Building it again: seed ${lineage.seed} (${lineage.properties} properties), then ${lineage.next_months.length} month(s)...`,
    );
    const built = rebuildLineage(lineage, file, (m) => log(`  ${m}`));
    log(`Built snapshot ${built.id}.`);
    return;
  }
  const properties = (JSON.parse(meta.coverage) as { counts: { properties: number } }).counts.properties;
  log(`${why} Building it again from seed ${meta.seed} (${properties} properties)...`);
  build({ seed: Number(meta.seed), properties, capturedAt: meta.captured_at });
}
