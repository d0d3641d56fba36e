// The snapshot the service answers from, and switching it while the service runs (a rollout).
//
// `current` is a plain field: a request takes it once, when it arrives (`acquire`), and is
// answered from that snapshot even if a rollout switches to another before its handler runs; it
// gives it back when its answer is sent or it is aborted (`release`). A replaced snapshot is
// "retired": its database closes when its last request has given it back, and no request that
// arrives after the switch can take it. Each SnapshotContext owns its caches, so the next one
// starts with none of the old one's.
//
// `rollout(file)` checks the new file off the service's thread (quick_check and its meta), opens
// it and switches; a file that fails is refused (logged, resolved as `refused`) and the current
// snapshot keeps serving. Rollouts run one at a time: one asked for during another runs after it.
import { openSnapshot } from "../../snapshot/snapshot-file";
import { checkSnapshotFileOffThread } from "../../snapshot/snapshot-check";
import { SnapshotContext } from "./snapshot-context";

export type RolloutOutcome =
  | { outcome: "switched"; id: string; previous_id: string }
  | { outcome: "unchanged"; id: string }
  | { outcome: "refused"; id: string; reason: string };

/** Where a rollout reports: the app's logger (pino's argument order). */
export interface RolloutLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export class LiveSnapshot {
  /** The snapshot requests that arrive now are answered from. */
  current: SnapshotContext;
  private running: Promise<RolloutOutcome> | undefined;
  private queued: { file: string; promise: Promise<RolloutOutcome> } | undefined;

  constructor(
    first: SnapshotContext,
    private readonly log: RolloutLog,
    private readonly now: () => Date = () => new Date(),
  ) {
    first.serving = { since: this.now().toISOString(), previous_id: null };
    this.current = first;
  }

  /** The current snapshot, held for one request until `release`. */
  acquire(): SnapshotContext {
    const s = this.current;
    s.leases++;
    return s;
  }

  /** Gives back a snapshot `acquire` handed out; the last one given back of a retired snapshot closes it. */
  release(s: SnapshotContext): void {
    if (--s.leases === 0 && s.retired) s.close();
  }

  /** Makes `next` current now. The replaced snapshot closes once no request holds it. */
  replace(next: SnapshotContext): void {
    const old = this.current;
    next.serving = { since: this.now().toISOString(), previous_id: old.ref.id };
    this.current = next;
    old.retired = true;
    if (old.leases === 0) old.close();
  }

  /**
   * Checks the snapshot file at `file` and switches to it; never rejects. A file that fails the
   * checks is refused and the current snapshot keeps serving; the same file as the current one
   * changes nothing. Asked for while a rollout runs, it runs once that one is done (several
   * asks meanwhile make one rollout, of the last file asked for).
   */
  rollout(file: string): Promise<RolloutOutcome> {
    if (!this.running) return this.start(file);
    if (this.queued) {
      this.queued.file = file;
      return this.queued.promise;
    }
    const queued = { file, promise: undefined as unknown as Promise<RolloutOutcome> };
    queued.promise = this.running.then(() => {
      this.queued = undefined;
      return this.start(queued.file);
    });
    this.queued = queued;
    return queued.promise;
  }

  private start(file: string): Promise<RolloutOutcome> {
    const run = this.switchTo(file).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async switchTo(file: string): Promise<RolloutOutcome> {
    const current = this.current;
    let next: SnapshotContext;
    try {
      const checked = await checkSnapshotFileOffThread(file);
      next = openContext(file);
      if (next.ref.id !== checked.id) {
        next.close();
        throw new Error(`${file} changed while it was checked (snapshot ${checked.id}, then ${next.ref.id}); publish it again`);
      }
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.error({ file, reason, serving: current.ref.id }, "snapshot refused: still serving the current one");
      return { outcome: "refused", id: current.ref.id, reason };
    }
    if (next.isSameFile(current)) {
      next.close();
      this.log.info({ file, id: current.ref.id }, "snapshot unchanged: already serving this file");
      return { outcome: "unchanged", id: current.ref.id };
    }
    this.replace(next);
    this.log.info({ file, id: next.ref.id, previous_id: current.ref.id }, "snapshot switched");
    return { outcome: "switched", id: next.ref.id, previous_id: current.ref.id };
  }
}

/** Opens a snapshot file as a context, closing the database if the context refuses it. */
export function openContext(file: string): SnapshotContext {
  const db = openSnapshot(file);
  try {
    return new SnapshotContext(db);
  } catch (err) {
    db.close();
    throw err;
  }
}
