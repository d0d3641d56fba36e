// Where the snapshots published before the latest are kept on disk. The latest is the file at
// SNAPSHOT_PATH; the older ones are in the `snapshots` directory beside it, one file per snapshot
// named by its id. What is on disk is the kept set: every service process serves the file at
// SNAPSHOT_PATH and the servable files of that directory still within their retention period
// (SNAPSHOTS_RETAIN_MONTHS after capture: data/snapshot-select.ts keptBeside) (at start-up and
// on each SIGHUP: LiveSnapshot.refresh), and `npm run admin -- rollout-snapshot` links the file it
// replaces there and prunes the directory by the same rule (server/snapshot-publish.ts).
import fs from "node:fs";
import path from "node:path";
import { readMeta } from "../../snapshot/snapshot-file";
import { snapshotIdProblem } from "../../snapshot/snapshot-id";
import Database from "better-sqlite3";
import { type SnapshotContext, openContext } from "./snapshot-context";
import { type Retention, type SnapshotStamp, keptBeside } from "./snapshot-select";

/** The directory of the older kept snapshots: `snapshots/` beside SNAPSHOT_PATH. */
export function keptDir(snapshotPath: string): string {
  return path.join(path.dirname(snapshotPath), "snapshots");
}

/** The kept file of a snapshot id; an id not of the snapshot id form names no file (it throws). */
export function keptFile(snapshotPath: string, id: string): string {
  const problem = snapshotIdProblem(id);
  if (problem) throw new Error(`No kept file for this snapshot: ${problem}.`);
  return path.join(keptDir(snapshotPath), `${id}.db`);
}

/** The `.db` files of the kept directory, by name. */
export function keptDirFiles(snapshotPath: string): string[] {
  const dir = keptDir(snapshotPath);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".db"))
    .sort()
    .map((name) => path.join(dir, name));
}

/**
 * Opens every snapshot in the kept directory (at start-up; the service keeps the newest of them).
 * A file that cannot be served (damaged, an older format, a malformed id) is reported through
 * `warn` and skipped: the service starts with the others rather than not at all.
 */
export function openKeptSnapshots(snapshotPath: string, warn: (message: string) => void): SnapshotContext[] {
  const out: SnapshotContext[] = [];
  for (const file of keptDirFiles(snapshotPath)) {
    try {
      out.push(openContext(file));
    } catch (err) {
      warn(`kept snapshot ${file} is not served: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}

/** A snapshot file's id and times, read from its meta; a malformed id throws. */
export function stampOf(file: string): SnapshotStamp {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const meta = readMeta(db);
    const problem = snapshotIdProblem(meta.id);
    if (problem) throw new Error(`${file}: ${problem}`);
    return { id: meta.id, captured_at: meta.captured_at, built_at: meta.built_at };
  } finally {
    db.close();
  }
}

/** The stamp of a file, or undefined when it is missing or not a snapshot with a well-formed id. */
export function safeStamp(file: string): SnapshotStamp | undefined {
  try {
    return stampOf(file);
  } catch {
    return undefined;
  }
}

/** The stamp of a file the service can serve (it opens as a snapshot: meta, id, format, layout), or undefined. */
export function servableStamp(file: string): SnapshotStamp | undefined {
  try {
    const context = openContext(file);
    const stamp = context.stamp;
    context.close();
    return stamp;
  } catch {
    return undefined;
  }
}

export interface KeptOnDisk {
  /** The older snapshots served beside the latest, newest first. */
  kept: { file: string; stamp: SnapshotStamp }[];
  /** Servable files of the directory not served: past their retention, a second of an id, or with the latest's id. */
  dropped: { file: string; stamp: SnapshotStamp }[];
}

/** The kept directory's files as the service serves them beside a latest snapshot with id `latestId`. */
export function keptOnDisk(snapshotPath: string, latestId: string, retention: Retention): KeptOnDisk {
  const servable = keptDirFiles(snapshotPath).flatMap((file) => {
    const stamp = servableStamp(file);
    return stamp ? [{ file, stamp }] : [];
  });
  return keptBeside(servable, latestId, retention);
}

/** The kept snapshot (not the latest) with this id, if the directory holds one. */
export function keptWithId(snapshotPath: string, id: string): { file: string; stamp: SnapshotStamp } | undefined {
  for (const file of keptDirFiles(snapshotPath)) {
    const stamp = safeStamp(file);
    if (stamp?.id === id) return { file, stamp };
  }
  return undefined;
}

/** Makes `link` a hard link of `file`, replacing what was there in one rename (never a moment without it). */
export function linkInPlace(file: string, link: string): void {
  const tmp = `${link}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.linkSync(file, tmp);
  fs.renameSync(tmp, link);
}
