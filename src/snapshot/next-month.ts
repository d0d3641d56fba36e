// The next month's snapshot from a previous generated one: the same records a month later, with
// a realistic share of them changed (next/*.ts says what and how often), then the derived tables,
// indexes, property documents and meta by the same steps as a build (derive.ts). Properties that
// did not change keep their rows, so their stored documents are byte for byte the previous
// file's. Deterministic: the same previous snapshot and options give the same data and id.
//
// Only a generated snapshot has a next month here: an imported one is a team's captured data,
// and made-up changes on top of it would be served as if they had been captured. Its next month
// is the team's next capture, imported.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { SNAPSHOT_RESOURCES } from "../contract/records";
import { type BuildResult, buildSnapshot } from "./build";
import { deriveTables, finishSnapshot } from "./derive";
import { cycleHistory } from "./generate/cycle-history";
import { dayOf } from "./generate/dates";
import { renewLeases } from "./next/lease-renewals";
import { moveListings } from "./next/listing-moves";
import { type NextMonthTallies, nextContext, oneMonthLater } from "./next/next-context";
import { changeProperties } from "./next/property-events";
import { SNAPSHOT_FORMAT, SnapshotWriter, formatOf, isCurrentFormat, readMeta } from "./snapshot-file";
import { columnsOf, TABLES, type TableName } from "./tables";

/** Bump when next-month output changes for the same inputs (it is part of the id). */
export const NEXT_MONTH_VERSION = "3";
/** Share of properties whose record changes in a month, unless given. */
export const DEFAULT_CHANGED_SHARE = 0.05;

export interface NextMonthOptions {
  /** The previous snapshot file. */
  from: string;
  out: string;
  /** Share of properties whose record changes, 0..1 (default DEFAULT_CHANGED_SHARE). */
  changed?: number;
  log?: (msg: string) => void;
}

export interface NextMonthResult extends BuildResult {
  previousId: string;
  capturedAt: string;
  tallies: NextMonthTallies;
}

/**
 * How to build a generated snapshot again from nothing: the base build's options and the share
 * of each next month after it (meta `lineage`). npm start uses it when a new version reads
 * another format (ensure-snapshot.ts).
 */
export interface Lineage {
  seed: number;
  properties: number;
  captured_at: string;
  next_months: number[];
}

export function lineageOf(meta: Record<string, string>): Lineage {
  if (meta.lineage) return JSON.parse(meta.lineage) as Lineage;
  const properties = (JSON.parse(meta.coverage) as { counts: { properties: number } }).counts.properties;
  return { seed: Number(meta.seed), properties, captured_at: meta.captured_at, next_months: [] };
}

export function nextMonthId(previousId: string, changed: number, capturedAt: string): string {
  const h = createHash("sha256").update(JSON.stringify({ next_month: NEXT_MONTH_VERSION, from: previousId, changed, capturedAt }));
  return `snap_${h.digest("hex").slice(0, 12)}`;
}

function previousMeta(from: string): Record<string, string> {
  if (!fs.existsSync(from)) throw new Error(`there is no snapshot at ${from}`);
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    return readMeta(db);
  } catch (err) {
    throw new Error(`${from} is not a snapshot (${(err as Error).message})`);
  } finally {
    db.close();
  }
}

export function nextMonthSnapshot(opts: NextMonthOptions): NextMonthResult {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const changed = opts.changed ?? DEFAULT_CHANGED_SHARE;
  if (!(changed >= 0 && changed <= 1)) throw new Error(`the share of properties changed must be between 0 and 1, got ${changed}`);
  const from = path.resolve(opts.from);
  const meta = previousMeta(from);
  if (!isCurrentFormat(meta)) {
    throw new Error(`snapshot ${meta.id} at ${from} has format ${formatOf(meta)}; build it again in format ${SNAPSHOT_FORMAT} first`);
  }
  if (meta.source !== "generated" || meta.seed === undefined) {
    throw new Error(
      `snapshot ${meta.id} at ${from} is imported: its next month is your next capture (npm run snapshot -- import). ` +
        "Made-up changes on captured data would be served as if they had been captured.",
    );
  }
  const capturedAt = oneMonthLater(meta.captured_at);
  const id = nextMonthId(meta.id, changed, capturedAt);
  const lineage = lineageOf(meta);
  const out = path.resolve(opts.out);
  const tmp = `${out}.tmp`;
  if (out === from) throw new Error("--out must name another file than --next-from");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const w = new SnapshotWriter(tmp);
  const lap = (what: string) => log(`${what} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
  try {
    w.db.prepare("ATTACH DATABASE ? AS prev").run(from);
    const ctx = nextContext(w, `${meta.id}:${changed}:${capturedAt}`, dayOf(meta.captured_at), dayOf(capturedAt), 0);
    w.transaction(() => {
      // The records as they were, in their order; the derived tables are derived again below.
      for (const table of Object.keys(SNAPSHOT_RESOURCES) as TableName[]) {
        const cols = columnsOf(TABLES[table]).join(", ");
        w.db.exec(`INSERT INTO main.${table} (${cols}) SELECT ${cols} FROM prev.${table} ORDER BY rowid`);
      }
      lap("previous records copied");
      ctx.tallies.properties = w.db.prepare("SELECT count(*) FROM main.properties").pluck().get() as number;
      const closed = changeProperties(ctx, changed);
      renewLeases(ctx);
      moveListings(ctx, closed);
      const setCount = w.db.prepare("UPDATE main.companies SET property_count = max(0, property_count + ?) WHERE id = ?");
      for (const [company, by] of [...ctx.companyDelta].sort()) if (by !== 0) setCount.run(by, company);
    });
    w.db.exec("DETACH DATABASE prev");
    lap(`month applied ${JSON.stringify(ctx.tallies)}`);
    w.createIndexes(["properties", "tenancies", "companies", "sales"]);
    deriveTables(w, capturedAt, log);
    // Market history keeps the previous file's completed quarters; the cycles model the base
    // build used fills in only a market the previous month did not have.
    w.db.prepare("ATTACH DATABASE ? AS prev").run(from);
    const coverage = finishSnapshot(w, {
      id,
      capturedAt,
      source: "generated",
      seed: lineage.seed,
      startedAt: started,
      derived: true,
      history: cycleHistory(lineage.seed),
      previous: "prev",
      log,
    });
    w.db.exec("DETACH DATABASE prev");
    w.setMeta("next_from", meta.id);
    w.setMeta("lineage", { ...lineage, next_months: [...lineage.next_months, changed] });
    w.close();
    fs.renameSync(tmp, out);
    return {
      path: out,
      id,
      previousId: meta.id,
      capturedAt,
      seconds: Math.round((performance.now() - started) / 10) / 100,
      counts: coverage.counts,
      tallies: ctx.tallies,
    };
  } catch (err) {
    if (w.db.open) w.close();
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Builds a generated snapshot again from its lineage: the base build, then each next month,
 * through temporary files beside `out`. The same ids and data as the first time.
 */
export function rebuildLineage(lineage: Lineage, out: string, log: (msg: string) => void = () => {}): BuildResult {
  let file = `${out}.base`;
  let built: BuildResult = buildSnapshot({
    out: file,
    seed: lineage.seed,
    properties: lineage.properties,
    capturedAt: lineage.captured_at,
    log,
  });
  lineage.next_months.forEach((changed, i) => {
    const next = i === lineage.next_months.length - 1 ? `${out}.next` : `${out}.month${i + 1}`;
    built = nextMonthSnapshot({ from: file, out: next, changed, log });
    fs.rmSync(file, { force: true });
    file = next;
  });
  fs.renameSync(file, out);
  return { ...built, path: out };
}
