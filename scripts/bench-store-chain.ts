// The store `npm run bench:service -- --months N` serves: the benchmark's snapshot as the first
// month and N - 1 generated months after it (`next-month`, 5% of properties changed each),
// published one after another into DATA_DIR/store.db, each publish timed. The last month is left
// unpublished, so the benchmark can publish it while the service is under load. A store already
// there from the same snapshot, holding the months asked for, is reused with --reuse.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { nextMonthSnapshot } from "../src/snapshot/next-month";
import { readMetaOf } from "../src/snapshot/snapshot-file";
import { storeVersions } from "../src/snapshot/store/store-layout";
import { publishToStore } from "../src/snapshot/store/store-publish";

export interface BenchStore {
  store: string;
  /** The ids of the months in the store, oldest first. */
  ids: string[];
  /** Seconds each month after the first took to publish (empty when the store was reused). */
  publishSeconds: number[];
  /** The last month's file, built but not yet published (undefined when the store holds every month). */
  pending?: { file: string; id: string };
}

const idOf = (file: string): string => readMetaOf(file).id;

function versionIds(store: string): string[] {
  const db = new Database(store, { readonly: true });
  try {
    return storeVersions(db).map((v) => v.id);
  } finally {
    db.close();
  }
}

export function ensureBenchStore(
  dataDir: string,
  snapshotPath: string,
  months: number,
  reuse: boolean,
  log: (m: string) => void,
): BenchStore {
  const store = path.join(dataDir, "store.db");
  const first = idOf(snapshotPath);
  const pendingFile = path.join(dataDir, "month-pending.db");
  if (reuse && fs.existsSync(store)) {
    const ids = versionIds(store);
    if (ids[0] === first && ids.length === months) return { store, ids, publishSeconds: [] };
    if (ids[0] === first && ids.length === months - 1 && fs.existsSync(pendingFile)) {
      return { store, ids, publishSeconds: [], pending: { file: pendingFile, id: idOf(pendingFile) } };
    }
  }
  for (const side of ["", "-wal", "-shm"]) fs.rmSync(`${store}${side}`, { force: true });
  log(`Publishing ${months} month(s) into ${store} ...`);
  publishToStore(store, snapshotPath);
  const ids = [first];
  const publishSeconds: number[] = [];
  let previous = snapshotPath;
  for (let month = 1; month < months; month++) {
    const out = month === months - 1 ? pendingFile : path.join(dataDir, `month-${month}.db`);
    const next = nextMonthSnapshot({ from: previous, out });
    if (previous !== snapshotPath) fs.rmSync(previous, { force: true });
    previous = next.path;
    if (month === months - 1) return { store, ids, publishSeconds, pending: { file: next.path, id: next.id } };
    const started = performance.now();
    publishToStore(store, next.path);
    publishSeconds.push((performance.now() - started) / 1000);
    ids.push(next.id);
    log(`  month ${month}: ${next.id} published in ${publishSeconds[publishSeconds.length - 1].toFixed(1)} s`);
  }
  return { store, ids, publishSeconds };
}
