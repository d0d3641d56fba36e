// Publishing a snapshot to a service: `npm run admin -- rollout-snapshot --file <path>`. It checks
// the file as the service will, then, holding the publish lock (publish-lock.ts), adds it to the
// store at SNAPSHOT_STORE as its newest version (src/snapshot/store: only what changed is added,
// in one transaction, while the service keeps answering), retires the versions past
// SNAPSHOTS_RETAIN_MONTHS and signals the service (service-pid.ts), whose every process then
// serves what the store holds (LiveSnapshot.refresh). Publishes are applied one at a time and in
// capture order; going back is withdrawing the latest (`--rollback`), never publishing an older one.
import { checkSnapshotFile } from "../snapshot/snapshot-file";
import { emptyLog, publishToStore, retireThrough, withdrawLatest } from "../snapshot/store/store-publish";
import { openContext } from "./data/snapshot-context";
import { servedVersions } from "./data/store-snapshots";
import { retained } from "./data/snapshot-select";
import { takePublishLock } from "./publish-lock";
import { identityFilePath, pidFilePath, signalService } from "./service-pid";

export interface PublishOptions {
  /** SNAPSHOT_STORE: the store the service serves. */
  storePath: string;
  /** DATA_DIR, where service.pid names the service to signal. */
  dataDir: string;
  /** SNAPSHOTS_RETAIN_MONTHS: the latest and the older ones captured less than this many months ago stay. */
  retainMonths: number;
  out: (line: string) => void;
  now?: () => Date;
  /** How long to wait for the service's readers to move on so the write-ahead log can be emptied (LOG_WAIT_MS unless given). */
  logWaitMs?: number;
}

const LOG_WAIT_MS = 30_000;

/** Publishes `file` (an absolute path) into the store; throws with the reason, and "Nothing was published.", when it is refused. */
export async function publishSnapshot(file: string, opts: PublishOptions): Promise<void> {
  const refused = (why: string) => new Error(`Refused ${file}: ${why}\nNothing was published.`);
  try {
    checkSnapshotFile(file);
    openContext(file).close(); // the checks the service makes of the meta
  } catch (err) {
    throw refused((err as Error).message);
  }
  const now = opts.now ?? (() => new Date());
  await withLock(opts, () => {
    let published;
    try {
      published = publishToStore(opts.storePath, file, { now, log: (m) => opts.out(`  ${m}`) }).version;
    } catch (err) {
      const why = (err as Error).message;
      throw refused(
        /captured .* before the store's newest/.test(why)
          ? `${why}. To go back to an earlier snapshot, withdraw the latest: rollout-snapshot --rollback`
          : why,
      );
    }
    opts.out(`Snapshot ${published.id} (captured ${published.captured_at.slice(0, 10)}) is now the latest in ${opts.storePath}.`);
    retirePastRetention(opts, now());
  });
}

/** Withdraws the latest snapshot (`rollout-snapshot --rollback`): the one before it is the latest again. */
export async function withdrawSnapshot(opts: PublishOptions): Promise<void> {
  await withLock(opts, () => {
    const { withdrawn, latest } = withdrawLatest(opts.storePath, { now: opts.now });
    opts.out(
      `Withdrew snapshot ${withdrawn.id}: it is no longer served. The latest is ${latest.id} (captured ${latest.captured_at.slice(0, 10)}) again.`,
    );
    retirePastRetention(opts, (opts.now ?? (() => new Date()))());
  });
}

async function withLock(opts: PublishOptions, work: () => void): Promise<void> {
  const lock = await takePublishLock(opts.storePath, () =>
    opts.out(`Another rollout-snapshot is publishing to ${opts.storePath}; waiting for it to finish.`),
  );
  try {
    work();
    signal(opts);
    // Once the service has moved on to what was published, the log of the publish can go into the store.
    if (!(await emptyLog(opts.storePath, opts.logWaitMs ?? LOG_WAIT_MS))) {
      opts.out(`The store's write-ahead log (${opts.storePath}-wal) is still in use by a reader; the next publish empties it.`);
    }
  } finally {
    lock.release();
  }
}

/** Retires the older versions past their retention (the rule the service serves by), and says which are kept. */
function retirePastRetention(opts: PublishOptions, now: Date): void {
  const served = servedVersions(opts.storePath);
  const latest = served[served.length - 1];
  const retention = { months: opts.retainMonths, now };
  const past = served.slice(0, -1).filter((v) => !retained(v.stamp, retention));
  if (past.length) {
    for (const v of retireThrough(opts.storePath, past[past.length - 1].seq, { now: () => now })) {
      opts.out(`No longer kept: retired ${v.id} (captured ${v.captured_at.slice(0, 10)}).`);
    }
  }
  const kept = servedVersions(opts.storePath)
    .slice(0, -1)
    .reverse()
    .map((v) => `${v.stamp.id} (captured ${v.stamp.captured_at.slice(0, 10)})`);
  opts.out(`Kept snapshots (SNAPSHOTS_RETAIN_MONTHS=${opts.retainMonths}): ${[`${latest.stamp.id} (latest)`, ...kept].join(", ")}.`);
}

function signal(opts: PublishOptions): void {
  const { out } = opts;
  const result = signalService(opts.dataDir);
  if (result.signalled) {
    out(`Sent SIGHUP to the service (pid ${result.pid}): it serves what the store holds now, or logs why it cannot.`);
    out(`GET /v1/commercial/coverage shows the snapshot it serves (snapshot.id) and since when (serving.since).`);
  } else if (result.stale) {
    out(
      `Did not signal pid ${result.pid}: ${pidFilePath(opts.dataDir)} names it, but it is not the service that wrote it ` +
        `(${result.stale}; see ${identityFilePath(opts.dataDir)}). A running service serves the store's latest once it receives SIGHUP, or when it starts.`,
    );
  } else {
    out(
      `No service is running for ${opts.dataDir} (no live process in ${pidFilePath(opts.dataDir)}); it serves the store's latest when it starts.`,
    );
  }
}
