// Where the snapshots published before the current one are kept on disk, so a restart serves the
// same set a running service keeps in memory. The latest is the file at SNAPSHOT_PATH, as always;
// the older ones are in the `snapshots` directory beside it, one file per snapshot named by its
// id. `npm run admin -- rollout-snapshot` links the file it replaces there (a hard link: no copy,
// and the same file system, which the rename needs anyway) and prunes the directory to the
// newest SNAPSHOTS_KEEP - 1 by the order the service keeps them by (snapshot-select.ts).
import fs from "node:fs";
import path from "node:path";
import { readMeta } from "../../snapshot/snapshot-file";
import Database from "better-sqlite3";
import { openContext } from "./live-snapshot";
import type { SnapshotContext } from "./snapshot-context";
import { type SnapshotStamp, newestFirst } from "./snapshot-select";

/** The directory of the older kept snapshots: `snapshots/` beside SNAPSHOT_PATH. */
export function keptDir(snapshotPath: string): string {
  return path.join(path.dirname(snapshotPath), "snapshots");
}

/** The kept file of a snapshot id. */
export function keptFile(snapshotPath: string, id: string): string {
  return path.join(keptDir(snapshotPath), `${id}.db`);
}

function snapshotFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".db"))
    .sort()
    .map((name) => path.join(dir, name));
}

/**
 * Opens every snapshot in the kept directory (at start-up; the service keeps the newest of them).
 * A file that cannot be served (damaged, an older format) is reported through `warn` and skipped:
 * the service starts with the others rather than not at all.
 */
export function openKeptSnapshots(snapshotPath: string, warn: (message: string) => void): SnapshotContext[] {
  const out: SnapshotContext[] = [];
  for (const file of snapshotFiles(keptDir(snapshotPath))) {
    try {
      out.push(openContext(file));
    } catch (err) {
      warn(`kept snapshot ${file} is not served: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}

/** A snapshot file's id and times, read from its meta. */
export function stampOf(file: string): SnapshotStamp {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const meta = readMeta(db);
    return { id: meta.id, captured_at: meta.captured_at, built_at: meta.built_at };
  } finally {
    db.close();
  }
}

/** The kept snapshot (not the latest) with this id, if the directory holds one. */
export function keptWithId(snapshotPath: string, id: string): { file: string; stamp: SnapshotStamp } | undefined {
  for (const file of snapshotFiles(keptDir(snapshotPath))) {
    const stamp = safeStamp(file);
    if (stamp?.id === id) return { file, stamp };
  }
  return undefined;
}

function safeStamp(file: string): SnapshotStamp | undefined {
  try {
    return stampOf(file);
  } catch {
    return undefined;
  }
}

/**
 * Keeps the snapshot file at SNAPSHOT_PATH, about to be replaced by `incoming` (the file
 * `incomingFile`), among the older ones, unless it has the incoming id (a rebuild of one snapshot
 * replaces it); drops a kept copy of the incoming snapshot (going back to it makes it the
 * latest); then removes the files beyond the newest `keep - 1`. Returns the files removed beyond `keep`. The service keeps
 * the same ones in memory (LiveSnapshot), so a restart serves what it served.
 */
export function keepReplaced(snapshotPath: string, incoming: SnapshotStamp, keep: number, incomingFile: string): string[] {
  const dir = keptDir(snapshotPath);
  const outgoing = fs.existsSync(snapshotPath) ? safeStamp(snapshotPath) : undefined;
  if (keep > 1 && outgoing && outgoing.id !== incoming.id) {
    fs.mkdirSync(dir, { recursive: true });
    const file = keptFile(snapshotPath, outgoing.id);
    fs.rmSync(file, { force: true });
    fs.linkSync(snapshotPath, file);
  }
  const stamped = snapshotFiles(dir).map((file) => ({ file, stamp: safeStamp(file) }));
  // A kept copy of the incoming snapshot (going back to it) leaves the directory: it is the latest now.
  for (const f of stamped) if (f.stamp?.id === incoming.id && f.file !== incomingFile) fs.rmSync(f.file, { force: true });
  const older = stamped
    .filter((f): f is { file: string; stamp: SnapshotStamp } => f.stamp !== undefined && f.stamp.id !== incoming.id)
    .sort((a, b) => newestFirst(a.stamp, b.stamp));
  const removed = older.slice(Math.max(0, keep - 1)).map((f) => f.file);
  for (const file of removed) fs.rmSync(file, { force: true });
  return removed;
}
