// One writer at a time per store of snapshots (SNAPSHOT_STORE): a publish, a rollback, or the
// service making the store at its first start. The lock is SQLite's exclusive lock on a small
// database beside it (SNAPSHOT_STORE.publish-lock), which SQLite takes as an operating-system file
// lock (fcntl on POSIX, LockFileEx on Windows): the system releases it when the process holding it
// exits, crashes or is killed, so a publisher that died leaves no lock behind to detect or clear.
// The file itself stays; it holds nothing.
import Database from "better-sqlite3";
import { setTimeout as sleep } from "node:timers/promises";

/** How long a publish waits for another to finish before it gives up. */
export const PUBLISH_LOCK_WAIT_MS = 60_000;
const RETRY_MS = 100;

export interface PublishLock {
  release(): void;
}

export function publishLockPath(storePath: string): string {
  return `${storePath}.publish-lock`;
}

/** Takes the lock at once, or returns undefined when another process (or connection) holds it. */
export function tryPublishLock(storePath: string): PublishLock | undefined {
  const db = new Database(publishLockPath(storePath), { timeout: 0 });
  try {
    db.exec("BEGIN EXCLUSIVE");
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === "SQLITE_BUSY") return undefined;
    throw err;
  }
  return {
    release() {
      if (!db.open) return;
      db.exec("ROLLBACK");
      db.close();
    },
  };
}

/**
 * Takes the lock, waiting while another publish holds it (`onWait` is told once, when it starts
 * waiting); throws after `waitMs`.
 */
export async function takePublishLock(storePath: string, onWait: () => void, waitMs = PUBLISH_LOCK_WAIT_MS): Promise<PublishLock> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    const lock = tryPublishLock(storePath);
    if (lock) return lock;
    if (!told) onWait();
    told = true;
    if (Date.now() >= deadline) {
      throw new Error(
        `Another publish to ${storePath} has held ${publishLockPath(storePath)} for ${Math.round(waitMs / 1000)} s; nothing was published. ` +
          "Run this again once it has finished.",
      );
    }
    await sleep(RETRY_MS);
  }
}
