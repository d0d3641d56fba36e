// What `npm start` does before serving: make sure the store of snapshots exists, that its
// snapshots are in the layout this version reads, that its replaced contents have the
// statistics, read from every row, the query planner reads them by (store-layout.ts
// analyzeOldTables), and that it has
// its text index over every version (version-text-index.ts) and its match index (match-keys.ts).
//
// With no store yet, it is made from what a deployment served before stores: the snapshot file
// at SNAPSHOT_PATH and the older files kept beside it (`snapshots/<id>.db`), published oldest
// first, so the pins to them keep answering; with no such file, from the default snapshot, built
// for it. The store is made beside its path and renamed into place when whole, so a start that
// fails part way leaves no store behind and the next start begins again.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { buildSnapshot } from "../build";
import { ensureSnapshot, rebuildSnapshot } from "../ensure-snapshot";
import { formatOf, isCurrentFormat, readMeta, readMetaOf } from "../snapshot-file";
import { analyzeOldTablesIfNeeded, indexMatchKeysIfNone, keyVersionTextIndexIfNone, publishToStore } from "./store-publish";

type Log = (msg: string) => void;

/** The meta of the store's latest rows (its newest version's), or an error naming a file that is not a store. */
function newestMeta(storePath: string): Record<string, string> {
  try {
    const db = new Database(storePath, { readonly: true, fileMustExist: true });
    try {
      db.prepare("SELECT 1 FROM store_versions LIMIT 1").get();
      return readMeta(db);
    } finally {
      db.close();
    }
  } catch (err) {
    throw new Error(`${storePath} is not a store of snapshots (${(err as Error).message}); move it away and start again`);
  }
}

/**
 * Makes the store at `storePath` if there is none (from `snapshotPath` and its kept files, or the
 * default snapshot), and makes a store of a generated snapshot in an older layout again from its
 * newest snapshot (its older ones are not kept: generated data is built again at will). A store
 * of imported snapshots in an older layout is an error saying how to import them again.
 */
export function ensureStore(storePath: string, snapshotPath: string, log: Log = () => {}): void {
  if (fs.existsSync(storePath)) {
    const meta = newestMeta(storePath);
    if (isCurrentFormat(meta)) {
      const analyzed = analyzeOldTablesIfNeeded(storePath);
      if (analyzed.length) log(`Gave the store's replaced contents full statistics (${analyzed.join(", ")}).`);
      const started = performance.now();
      const keyed = keyVersionTextIndexIfNone(storePath);
      if (keyed !== undefined)
        log(`Made the store's text index over every version (${keyed} rows, ${Math.round(performance.now() - started)} ms).`);
      const matchStarted = performance.now();
      const matchKeys = indexMatchKeysIfNone(storePath);
      if (matchKeys !== undefined)
        log(`Made the store's match index over every version (${matchKeys} keys, ${Math.round(performance.now() - matchStarted)} ms).`);
      return;
    }
    const rebuilt = `${storePath}.rebuild.db`;
    rebuildSnapshot(meta, rebuilt, `The store ${storePath} (latest snapshot ${meta.id})`, log);
    for (const side of ["", "-wal", "-shm"]) fs.rmSync(`${storePath}${side}`, { force: true });
    publishToStore(storePath, rebuilt, { consume: true });
    log(`Made the store ${storePath} again from snapshot ${meta.id}, in format ${formatOf(readMetaOf(storePath))}.`);
    return;
  }
  fs.mkdirSync(path.dirname(storePath), { recursive: true });
  const making = `${storePath}.making`;
  for (const side of ["", "-wal", "-shm"]) fs.rmSync(`${making}${side}`, { force: true });
  if (fs.existsSync(snapshotPath)) {
    ensureSnapshot(snapshotPath, log);
    const files = [...keptFilesBeside(snapshotPath, log), snapshotPath];
    log(
      `No store at ${storePath}: making it from ${files.length === 1 ? snapshotPath : `${snapshotPath} and the ${files.length - 1} kept beside it`}...`,
    );
    for (const file of files) {
      const { version } = publishToStore(making, file);
      log(`  published ${version.id} (captured ${version.captured_at.slice(0, 10)})`);
    }
  } else {
    log(`No store at ${storePath}: building the default snapshot into it (first run only)...`);
    const first = `${storePath}.first.db`;
    const built = buildSnapshot({ out: first, log: (m) => log(`  ${m}`) });
    publishToStore(making, first, { consume: true });
    log(`Built snapshot ${built.id} in ${built.seconds.toFixed(1)} s.`);
  }
  fs.renameSync(making, storePath);
  // A read-only connection to a store in WAL mode leaves its (empty) side files behind.
  for (const side of ["-wal", "-shm"]) fs.rmSync(`${making}${side}`, { force: true });
}

/**
 * The older snapshot files a deployment kept beside `snapshotPath` before stores (`snapshots/*.db`),
 * oldest capture first, those this version reads and captured before the file at `snapshotPath`;
 * any other is named in the log and left out.
 */
function keptFilesBeside(snapshotPath: string, log: Log): string[] {
  const dir = path.join(path.dirname(snapshotPath), "snapshots");
  if (!fs.existsSync(dir)) return [];
  const latest = readMetaOf(snapshotPath);
  const found: { file: string; captured_at: string }[] = [];
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".db"))) {
    const file = path.join(dir, name);
    let meta: Record<string, string>;
    try {
      meta = readMetaOf(file);
    } catch (err) {
      log(`  left out ${file}: not a snapshot (${(err as Error).message})`);
      continue;
    }
    if (!isCurrentFormat(meta)) log(`  left out ${file}: format ${formatOf(meta)}, older than this version reads`);
    else if (meta.id === latest.id || meta.captured_at >= latest.captured_at)
      log(`  left out ${file}: not captured before ${snapshotPath}`);
    else found.push({ file, captured_at: meta.captured_at });
  }
  return found.sort((a, b) => (a.captured_at < b.captured_at ? -1 : 1)).map((f) => f.file);
}
