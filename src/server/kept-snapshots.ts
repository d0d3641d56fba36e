// The older snapshots a service keeps on disk, so a restart serves the same ones: one file per
// snapshot in DATA_DIR/snapshots, named by its id. Publishing a snapshot (admin.ts) links the
// file it replaces there and removes the oldest beyond SNAPSHOTS_KEEP - 1; the service opens the
// newest of them beside SNAPSHOT_PATH when it starts.
import fs from "node:fs";
import path from "node:path";
import { readMeta } from "../snapshot/snapshot-file";
import Database from "better-sqlite3";
import { openContext } from "./data/live-snapshot";
import type { SnapshotContext } from "./data/snapshot-context";

interface KeptFile {
  file: string;
  id: string;
  capturedAt: string;
}

/** The snapshot files in `dir`, newest capture first; files that are not snapshots are skipped (and reported). */
function keptFiles(dir: string, onSkip: (file: string, reason: string) => void): KeptFile[] {
  if (!fs.existsSync(dir)) return [];
  const found: KeptFile[] = [];
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".db"))) {
    const file = path.join(dir, name);
    try {
      const meta = metaOf(file);
      found.push({ file, id: meta.id, capturedAt: meta.captured_at });
    } catch (err) {
      onSkip(file, (err as Error).message);
    }
  }
  return found.sort((a, b) => b.capturedAt.localeCompare(a.capturedAt));
}

function metaOf(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const meta = readMeta(db);
    if (!meta.id || !meta.captured_at) throw new Error("its meta names no id or capture time");
    return meta;
  } finally {
    db.close();
  }
}

/**
 * Keeps the snapshot at `current` (about to be replaced) in `dir`, linked as <id>.db, and removes
 * the oldest files there beyond keep - 1. Returns the id kept, or null when there was no
 * snapshot there to keep (no file, or one that is not a snapshot: the service refused it).
 */
export function keepReplaced(current: string, dir: string, keep: number): string | null {
  if (!fs.existsSync(current)) return null;
  let id: string;
  try {
    id = metaOf(current).id;
  } catch {
    return null;
  }
  fs.mkdirSync(dir, { recursive: true });
  const kept = path.join(dir, `${id}.db`);
  if (!fs.existsSync(kept)) fs.linkSync(current, kept);
  for (const old of keptFiles(dir, () => {}).slice(Math.max(0, keep - 1))) fs.rmSync(old.file, { force: true });
  return id;
}

/** Opens the newest keep - 1 snapshots in `dir` other than `latestId`, for the service to serve beside the latest. */
export function openKept(dir: string, latestId: string, keep: number, onSkip: (file: string, reason: string) => void): SnapshotContext[] {
  const contexts: SnapshotContext[] = [];
  for (const kept of keptFiles(dir, onSkip).filter((k) => k.id !== latestId)) {
    if (contexts.length >= keep - 1) break;
    try {
      contexts.push(openContext(kept.file));
    } catch (err) {
      onSkip(kept.file, (err as Error).message);
    }
  }
  return contexts;
}
