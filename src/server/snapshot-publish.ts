// Publishing a snapshot file to a service: `npm run admin -- rollout-snapshot --file <path>`.
// It checks the file as the service will, then, holding the publish lock (publish-lock.ts), keeps
// the file it replaces among the older snapshots (data/kept-files.ts), renames the new one to
// SNAPSHOT_PATH, signals the service (service-pid.ts) and prunes the kept directory. The disk is
// the kept set: every service process serves what is there (LiveSnapshot.refresh), so publishes
// are applied one at a time and in capture order; an older capture becomes the latest only when
// the operator says it is a rollback.
import fs from "node:fs";
import path from "node:path";
import { checkSnapshotFile } from "../snapshot/snapshot-file";
import { keptFile, keptOnDisk, keptWithId, linkInPlace, servableStamp } from "./data/kept-files";
import { openContext } from "./data/snapshot-context";
import { type SnapshotStamp, newestFirst } from "./data/snapshot-select";
import { takePublishLock } from "./publish-lock";
import { identityFilePath, pidFilePath, signalService } from "./service-pid";

export interface PublishOptions {
  /** SNAPSHOT_PATH: where the service finds its latest snapshot. */
  snapshotPath: string;
  /** DATA_DIR, where service.pid names the service to signal. */
  dataDir: string;
  /** SNAPSHOTS_RETAIN_MONTHS: the latest and the older ones captured less than this many months ago stay. */
  retainMonths: number;
  /** The operator's word that an older capture is to become the latest (going back). */
  rollback: boolean;
  out: (line: string) => void;
}

const NOTHING = "\nNothing was switched.";

/** Publishes `file` (an absolute path); throws with the reason, and "Nothing was switched.", when it is refused. */
export async function publishSnapshot(file: string, opts: PublishOptions): Promise<void> {
  const refused = (why: string) => new Error(`Refused ${file}: ${why}${NOTHING}`);
  let stamp: SnapshotStamp;
  try {
    checkSnapshotFile(file);
    const context = openContext(file); // the checks the service makes of the meta
    stamp = context.stamp;
    context.close();
  } catch (err) {
    throw refused((err as Error).message);
  }
  const target = opts.snapshotPath;
  const lock = await takePublishLock(target, () =>
    opts.out(`Another rollout-snapshot is publishing to ${target}; waiting for it to finish.`),
  );
  try {
    // Another publish may have moved or replaced the file while this one waited.
    const now = fs.existsSync(file) ? servableStamp(file) : undefined;
    if (!now || now.id !== stamp.id || now.built_at !== stamp.built_at) {
      throw refused("it was moved or changed while this publish waited for another one");
    }
    publishLocked(file, stamp, opts, refused);
  } finally {
    lock.release();
  }
}

function publishLocked(file: string, stamp: SnapshotStamp, opts: PublishOptions, refused: (why: string) => Error): void {
  const { out, retainMonths } = opts;
  const target = opts.snapshotPath;
  const id = stamp.id;
  const twin = keptWithId(target, id);
  if (twin && twin.stamp.built_at !== stamp.built_at) {
    throw refused(
      `snapshot ${id} is already kept (${twin.file}, built ${twin.stamp.built_at}); this file has the same id ` +
        `but was built ${stamp.built_at}, and snapshot=${id} must name one snapshot. Publish it with another capture date.`,
    );
  }
  // The file at SNAPSHOT_PATH, if it is one the service can serve: it is kept when replaced.
  const outgoing = file !== target && fs.existsSync(target) ? servableStamp(target) : undefined;
  if (outgoing && outgoing.id !== id && newestFirst(stamp, outgoing) > 0 && !opts.rollback) {
    throw refused(
      `snapshot ${id} (captured ${stamp.captured_at}) is older than the latest, ${outgoing.id} (captured ${outgoing.captured_at}). ` +
        "Publishing it would go back: give --rollback if that is what you mean.",
    );
  }
  let removed: string[] = [];
  if (file !== target) {
    const previous = `${target}.previous`;
    if (file === previous) {
      // Going back: the file is about to be replaced by a link to the current one, so move it aside first.
      const aside = `${target}.going-back`;
      fs.renameSync(file, aside);
      file = aside;
    }
    if (retainMonths > 0 && outgoing && outgoing.id !== id) {
      const kept = keptFile(target, outgoing.id);
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      linkInPlace(target, kept);
    }
    if (fs.existsSync(target)) linkInPlace(target, previous);
    try {
      fs.renameSync(file, target); // atomic: the service opens either the old file or the new one
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EXDEV") {
        throw new Error(`${file} is on another file system than ${target}: publish it in ${path.dirname(target)} and run this again.`);
      }
      throw err;
    }
    const disk = keptOnDisk(target, id, { months: retainMonths, now: new Date() });
    removed = disk.dropped.map((d) => d.file);
    out(`Snapshot ${id} is now ${target}${fs.existsSync(previous) ? ` (the one it replaced is ${previous})` : ""}.`);
    const older = disk.kept.map((k) => `${k.stamp.id} (captured ${k.stamp.captured_at.slice(0, 10)})`);
    out(`Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=${retainMonths}): ${[`${id} (latest)`, ...older].join(", ")}.`);
  } else {
    out(`Snapshot ${id} is already ${target}.`);
  }
  const signal = signalService(opts.dataDir);
  if (signal.signalled) {
    out(`Sent SIGHUP to the service (pid ${signal.pid}): it checks the file again and switches, or logs why it refused it.`);
    out(`GET /v1/commercial/coverage shows the snapshot it serves (snapshot.id) and since when (serving.since).`);
  } else if (signal.stale) {
    out(
      `Did not signal pid ${signal.pid}: ${pidFilePath(opts.dataDir)} names it, but it is not the service that wrote it ` +
        `(${signal.stale}; see ${identityFilePath(opts.dataDir)}). A running service serves ${id} once it receives SIGHUP, or when it starts.`,
    );
  } else {
    out(`No service is running for ${opts.dataDir} (no live process in ${pidFilePath(opts.dataDir)}); it serves ${id} when it starts.`);
  }
  // Removed once the service has been told: it retires them on that SIGHUP, and until then reads
  // them through its open handles (each is one file, no journal beside it: snapshot-file.ts).
  for (const r of removed) {
    fs.rmSync(r, { force: true });
    out(`No longer kept: removed ${r}.`);
  }
}
