// Imports captured data: one file per resource in a directory (`<resource>.ndjson` or
// `<resource>.csv`), and optionally captured market history (`market_history`), every row
// checked against the same record schemas the API serves, then references checked across files
// (and each history row against the markets derived from the rows). Any error means nothing is written: the snapshot is built
// in `<out>.tmp` and renamed into place only when the whole import is clean, so an existing
// snapshot stays untouched. The derived tables and the coverage report then describe the data.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SNAPSHOT_RESOURCES, type SnapshotResource } from "../contract/records";
import type { Coverage } from "./derive/coverage";
import { deriveTables, finishSnapshot, normaliseCapturedAt } from "./derive";
import { captureDate } from "./derive/windows";
import { isStopped, loadFile, type ImportError, type LineIndex, type LoadContext, type ResourceFile } from "./import/load";
import { brokenReferences } from "./import/references";
import { SnapshotWriter } from "./snapshot-file";
import { capturedHistoryProblems } from "./import/history-checks";
import { IMPORT_FILES, OPTIONAL_FILES, type ImportedTable } from "./import/tables-imported";

export type { ImportError } from "./import/load";

export interface ImportOptions {
  dir: string;
  out: string;
  /** When the data was captured; defaults to the latest date found in the data. */
  capturedAt?: string;
  log?: (msg: string) => void;
}

export type ImportResult = { ok: true; path: string; id: string; counts: Coverage["counts"] } | { ok: false; errors: ImportError[] };

/** An import stops collecting after this many errors. */
export const MAX_ERRORS = 1000;
const RESOURCES = Object.keys(SNAPSHOT_RESOURCES) as SnapshotResource[];

export function findResourceFiles(dir: string): { files: ResourceFile[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    return { files: [], errors: [{ file: dir, line: 0, reason: "not a directory" }] };
  const files: ResourceFile[] = [];
  const stems = Object.keys(IMPORT_FILES);
  for (const name of fs.readdirSync(dir).sort()) {
    const m = /^(.+)\.(ndjson|csv)$/i.exec(name);
    if (!m) continue; // README and the like
    const stem = m[1];
    if (!stems.includes(stem)) {
      errors.push({
        file: name,
        line: 0,
        reason: `not a resource file: expected ${RESOURCES.join(", ")} (or ${OPTIONAL_FILES.join(", ")}) as .ndjson or .csv`,
      });
      continue;
    }
    if (files.some((f) => f.resource === IMPORT_FILES[stem])) {
      errors.push({ file: name, line: 0, reason: `${stem} is given twice: keep one of .ndjson and .csv` });
      continue;
    }
    files.push({ resource: IMPORT_FILES[stem], path: path.join(dir, name), name, format: m[2].toLowerCase() as ResourceFile["format"] });
  }
  if (!files.some((f) => (RESOURCES as string[]).includes(f.resource)) && !errors.length)
    errors.push({ file: dir, line: 0, reason: "no resource files (<resource>.ndjson or <resource>.csv) found" });
  // Load in the order of IMPORT_FILES (the resources, then captured history), whatever the directory listing order.
  const order = Object.values(IMPORT_FILES);
  files.sort((a, b) => order.indexOf(a.resource) - order.indexOf(b.resource));
  return { files, errors };
}

/** The latest date in the data, as the capture time when none is given. */
function latestDataDate(ctx: LoadContext): string {
  const row = ctx.w.db
    .prepare(
      `SELECT MAX(d) AS d FROM (SELECT MAX(sale_date) AS d FROM sales UNION ALL SELECT MAX(status_date) FROM listings
      UNION ALL SELECT MAX(lease_start) FROM tenancies UNION ALL SELECT MAX(last_sale_date) FROM parcels)`,
    )
    .get() as { d: string | null };
  return row.d ?? new Date().toISOString().slice(0, 10);
}

export function importSnapshot(opts: ImportOptions): ImportResult {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const found = findResourceFiles(opts.dir);
  if (found.errors.length) return { ok: false, errors: found.errors };
  const out = path.resolve(opts.out);
  const tmp = `${out}.tmp`;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const ctx: LoadContext = { w: new SnapshotWriter(tmp), hash: createHash("sha256"), errors: [], maxErrors: MAX_ERRORS };
  const discard = () => {
    ctx.w.close();
    fs.rmSync(tmp, { force: true });
  };
  try {
    const lines = new Map<ImportedTable, LineIndex>();
    ctx.w.transaction(() => {
      for (const f of found.files) {
        if (isStopped(ctx)) break;
        ctx.hash.update(`\0${f.name}\0`);
        lines.set(f.resource, loadFile(ctx, f));
        log(`${f.name}: read in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    });
    if (!ctx.errors.length) {
      const fileOf = new Map(found.files.map((f) => [f.resource, f.name]));
      for (const b of brokenReferences(ctx.w.db, MAX_ERRORS)) {
        ctx.errors.push({ file: fileOf.get(b.table) ?? `${b.table}`, line: lines.get(b.table)?.lineOf(b.rowid) ?? 0, reason: b.reason });
      }
    }
    const refused = () => {
      discard();
      const errors = ctx.errors.slice(0, MAX_ERRORS);
      if (ctx.errors.length >= MAX_ERRORS) errors.push({ file: "", line: 0, reason: `stopped after ${MAX_ERRORS} errors` });
      return { ok: false as const, errors };
    };
    if (ctx.errors.length) return refused();
    const capturedAt = normaliseCapturedAt(opts.capturedAt ?? latestDataDate(ctx));
    // Captured history names markets, so the markets come first; then its rows are checked against them.
    deriveTables(ctx.w, capturedAt, log);
    const historyFile = found.files.find((f) => f.resource === "captured_market_history");
    if (historyFile) {
      const lineOf = (rowid: number) => lines.get(historyFile.resource)?.lineOf(rowid) ?? 0;
      for (const p of capturedHistoryProblems(ctx.w.db, captureDate(capturedAt), MAX_ERRORS, lineOf)) {
        ctx.errors.push({ file: historyFile.name, line: lineOf(p.rowid), reason: p.reason });
      }
      if (ctx.errors.length) return refused();
    }
    const id = `snap_${ctx.hash.update(`\0captured_at\0${capturedAt}`).digest("hex").slice(0, 12)}`;
    const coverage = finishSnapshot(ctx.w, { id, capturedAt, source: "imported", startedAt: started, derived: true, log });
    ctx.w.close();
    fs.renameSync(tmp, out);
    return { ok: true, path: out, id, counts: coverage.counts };
  } catch (err) {
    discard();
    throw err;
  }
}
