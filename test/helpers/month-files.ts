// Consecutive monthly snapshot files for store tests: a built first month captured on
// 2026-11-01 and `months - 1` generated months after it (next-month), all in `dir`.
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { nextMonthSnapshot } from "../../src/snapshot/next-month";
import { publishToStore } from "../../src/snapshot/store/store-publish";

export function monthFiles(dir: string, opts: { seed: number; properties: number; months: number }): { files: string[]; ids: string[] } {
  const files = [path.join(dir, "m0.db")];
  const ids = [buildSnapshot({ out: files[0], seed: opts.seed, properties: opts.properties, capturedAt: "2026-11-01" }).id];
  for (let month = 1; month < opts.months; month++) {
    const next = nextMonthSnapshot({ from: files[month - 1], out: path.join(dir, `m${month}.db`) });
    files.push(next.path);
    ids.push(next.id);
  }
  return { files, ids };
}

/** The month files of `monthFiles`, each published in turn into a new store at `dir`/store.db. */
export function publishedMonths(
  dir: string,
  opts: { seed: number; properties: number; months: number },
): { files: string[]; ids: string[]; store: string } {
  const made = monthFiles(dir, opts);
  const store = path.join(dir, "store.db");
  for (const file of made.files) publishToStore(store, file);
  return { ...made, store };
}
