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
//
// The service keeps the last `keep` snapshots, not only the current one: a call may name an
// older one (`snapshot=<id>`, or `as_of=<date>` for the newest captured on or before it), so a
// model pinned to the data it was built on keeps its figures. A rollout makes the new snapshot
// current and keeps the one it replaces; the oldest beyond `keep` is retired (closed after its
// last request).
import { openSnapshot } from "../../snapshot/snapshot-file";
import { checkSnapshotFileOffThread } from "../../snapshot/snapshot-check";
import { SnapshotContext } from "./snapshot-context";
import { ApiProblem } from "../http/problem";
import { SNAPSHOT_NOT_FOUND, type KeptSnapshot } from "../../shared/contract/snapshot-select";

/** What a call names: a snapshot id, a date, or neither (the current one). */
export interface SnapshotSelector {
  snapshot?: string;
  as_of?: string;
}

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
  /** The snapshot requests that arrive now are answered from, unless they name another. */
  current: SnapshotContext;
  /** The older snapshots kept, newest capture first (at most keep - 1). */
  private older: SnapshotContext[];
  private running: Promise<RolloutOutcome> | undefined;
  private queued: { file: string; promise: Promise<RolloutOutcome> } | undefined;

  /** `older`: snapshots kept from before (a restart opens them again), in any order. */
  constructor(
    first: SnapshotContext,
    private readonly log: RolloutLog,
    private readonly now: () => Date = () => new Date(),
    readonly keep = 1,
    older: SnapshotContext[] = [],
  ) {
    if (!Number.isInteger(keep) || keep < 1) throw new Error(`snapshots to keep must be a whole number of at least 1, got ${keep}`);
    first.serving = { since: this.now().toISOString(), previous_id: null };
    this.current = first;
    this.older = [];
    for (const s of older) {
      if (s.ref.id === first.ref.id || this.older.some((o) => o.ref.id === s.ref.id)) {
        s.close();
        throw new Error(`snapshot ${s.ref.id} is kept twice; each kept snapshot must have its own id`);
      }
      s.serving = { since: this.now().toISOString(), previous_id: null };
      this.older.push(s);
    }
    this.trim();
  }

  /** The snapshot a request names (the current one when it names none), held for it until `release`. */
  acquire(selector?: SnapshotSelector): SnapshotContext {
    const s = selector && (selector.snapshot !== undefined || selector.as_of !== undefined) ? this.select(selector) : this.current;
    s.leases++;
    return s;
  }

  /** Every snapshot kept, newest capture first: what coverage lists. */
  kept(): KeptSnapshot[] {
    return this.all().map((s) => ({
      id: s.ref.id,
      captured_at: s.ref.captured_at,
      built_at: s.meta.built_at,
      latest: s === this.current,
    }));
  }

  private all(): SnapshotContext[] {
    return [this.current, ...this.older].sort((a, b) => b.ref.captured_at.localeCompare(a.ref.captured_at));
  }

  /** The kept snapshot `selector` names; 404 snapshot_not_found naming those kept when none is. */
  private select({ snapshot, as_of }: SnapshotSelector): SnapshotContext {
    if (snapshot !== undefined && as_of !== undefined) {
      throw new ApiProblem(400, "validation_failed", "Give snapshot or as_of, not both.", [
        { pointer: "/as_of", parameter: "as_of", detail: "given with snapshot" },
      ]);
    }
    const all = this.all();
    const found =
      snapshot !== undefined
        ? all.find((s) => s.ref.id === snapshot)
        : all.find((s) => s.ref.captured_at.slice(0, 10) <= String(as_of));
    if (found) return found;
    const list = all.map((s) => `${s.ref.id} (captured ${s.ref.captured_at.slice(0, 10)})`).join(", ");
    const what = snapshot !== undefined ? `Snapshot ${snapshot} is not one this service keeps` : `No snapshot kept was captured on or before ${as_of}`;
    throw new ApiProblem(404, SNAPSHOT_NOT_FOUND, `${what}; it keeps ${list}.`, [], { kept: all.map((s) => s.ref.id) });
  }

  /** Retires the oldest snapshots beyond `keep`: each closes after its last request. */
  private trim(): void {
    this.older.sort((a, b) => b.ref.captured_at.localeCompare(a.ref.captured_at));
    while (this.older.length > this.keep - 1) {
      const old = this.older.pop()!;
      old.retired = true;
      if (old.leases === 0) old.close();
    }
  }

  /** Gives back a snapshot `acquire` handed out; the last one given back of a retired snapshot closes it. */
  release(s: SnapshotContext): void {
    if (--s.leases === 0 && s.retired) s.close();
  }

  /**
   * Makes `next` current now. The replaced snapshot is kept for calls that name it (with up to
   * keep - 1 others); the oldest beyond that closes once no request holds it.
   */
  replace(next: SnapshotContext): void {
    const old = this.current;
    next.serving = { since: this.now().toISOString(), previous_id: old.ref.id };
    this.current = next;
    // A snapshot published again (an older one made current once more) is kept once.
    const again = this.older.findIndex((s) => s.ref.id === next.ref.id);
    if (again >= 0) {
      const [stale] = this.older.splice(again, 1);
      stale.retired = true;
      if (stale.leases === 0) stale.close();
    }
    this.older.push(old);
    this.trim();
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
