// Builds the default (generated) snapshot: seeded rows from real US geography, then the
// derived tables, indexes and meta. Written to `<out>.tmp` and renamed into place, so a reader
// never sees a half-built file and a failed build leaves the previous snapshot untouched.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Coverage } from "./derive/coverage";
import { deriveTables, finishSnapshot, normaliseCapturedAt } from "./derive";
import { startGeneration, type Generation } from "./generate/generate";
import { SnapshotWriter } from "./snapshot-file";
import { cycleHistory } from "./generate/cycle-history";
import { readMarkets } from "./derive/history-inputs";

/** Bump when the generator's output changes for the same options (it is part of the id). */
export const GENERATOR_VERSION = "3";
export const DEFAULT_SEED = 7;
export const DEFAULT_PROPERTIES = 20_000;
export const DEFAULT_CAPTURED_AT = "2026-11-01T00:00:00Z";

/** From this many properties up, parcels, listings and sales are written by a worker thread. */
export const PARALLEL_FROM = 100_000;

export interface BuildOptions {
  out: string;
  seed?: number;
  properties?: number;
  capturedAt?: string;
  log?: (msg: string) => void;
  /** Use a second thread (default: from PARALLEL_FROM properties). The output is the same either way. */
  parallel?: boolean;
}

export interface BuildResult {
  path: string;
  id: string;
  seconds: number;
  counts: Coverage["counts"];
}

export function snapshotIdFor(seed: number, properties: number, capturedAt: string): string {
  const h = createHash("sha256")
    .update(JSON.stringify({ generator: GENERATOR_VERSION, seed, properties, capturedAt }))
    .digest("hex");
  return `snap_${h.slice(0, 12)}`;
}

export function buildSnapshot(opts: BuildOptions): BuildResult {
  const started = performance.now();
  const seed = opts.seed ?? DEFAULT_SEED;
  const properties = opts.properties ?? DEFAULT_PROPERTIES;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`seed must be an integer 0..4294967295, got ${seed}`);
  if (!Number.isInteger(properties) || properties < 1) throw new Error(`properties must be a positive integer, got ${properties}`);
  const capturedAt = normaliseCapturedAt(opts.capturedAt ?? DEFAULT_CAPTURED_AT);
  const log = opts.log ?? (() => {});
  const id = snapshotIdFor(seed, properties, capturedAt);
  const out = path.resolve(opts.out);
  const tmp = `${out}.tmp`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const w = new SnapshotWriter(tmp);
  let coverage: Coverage;
  let gen: Generation | undefined;
  try {
    const parallel = opts.parallel ?? properties >= PARALLEL_FROM;
    gen = startGeneration(w, { seed, properties, capturedAt, log, partPath: parallel ? `${tmp}.part` : undefined });
    const lap = (what: string) => log(`${what} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
    lap(`generated ${JSON.stringify(gen.counts)}`);
    // While the part worker (if any) is still busy: derive from and index this thread's tables.
    deriveTables(w, capturedAt, log, gen.salesGroups());
    if (gen.writesHistory) {
      // The worker holds the sales: it writes the market history while this thread indexes.
      gen.writeHistory(readMarkets(w.db));
      lap("market history's markets read");
    }
    w.createIndexes(["properties", "tenancies", "companies", "markets", "diligence"]);
    lap("indexed");
    w.createTextIndex();
    lap("text index built");
    w.renderPropertyDocs();
    lap("property documents rendered");
    gen.finish();
    lap("parcels, listings and sales complete");
    const history = cycleHistory(seed);
    coverage = finishSnapshot(w, {
      id,
      capturedAt,
      source: "generated",
      seed,
      startedAt: started,
      derived: true,
      history,
      historyCoverage: gen.historyCoverage(),
      partPlaces: gen.partPlaces(),
      log,
    });
    w.close();
  } catch (err) {
    gen?.abort();
    w.close();
    fs.rmSync(tmp, { force: true });
    fs.rmSync(`${tmp}.part`, { force: true });
    throw err;
  }
  fs.renameSync(tmp, out);
  return { path: out, id, seconds: Math.round((performance.now() - started) / 10) / 100, counts: coverage.counts };
}
