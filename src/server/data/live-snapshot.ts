// The snapshots the service answers from, and switching to a new one while it runs (a rollout).
//
// `current` is the latest snapshot, a plain field: a request takes it once, when it arrives
// (`acquire`), and is answered from that snapshot even if a rollout switches to another before
// its handler runs; it gives it back when its answer is sent or it is aborted (`release`). A
// call that names another kept snapshot (`snapshot=` or `as_of=`) trades it for that one
// (`reselect`). Besides the current one, up to `keep - 1` older snapshots stay open, the newest
// by capture time (data/snapshot-select.ts ranks them); one no longer kept is "retired": its
// database closes when its last request has given it back, and no request arriving after that
// can take it. Each SnapshotContext owns its caches, so a new one starts with none of another's.
//
// `rollout(file)` checks the new file off the service's thread (quick_check and its meta), opens
// it and makes it current; the one it replaces joins the older kept ones. A file that fails is
// refused (logged, resolved as `refused`) and the current snapshot keeps serving; so is a file
// with the id of a kept older snapshot but another build, since `snapshot=<id>` must name one
// snapshot. Rollouts run one at a time: one asked for during another runs after it.
import type { KeptSnapshot } from "../../shared/contract/snapshot-select";
import { openSnapshot } from "../../snapshot/snapshot-file";
import { checkSnapshotFileOffThread } from "../../snapshot/snapshot-check";
import { SnapshotContext } from "./snapshot-context";
import { type SnapshotSelection, chooseSnapshot, newestFirst, selects } from "./snapshot-select";

export type RolloutOutcome =
  | { outcome: "switched"; id: string; previous_id: string }
  | { outcome: "unchanged"; id: string }
  | { outcome: "refused"; id: string; reason: string };

/** Where a rollout reports: the app's logger (pino's argument order). */
export interface RolloutLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface KeepOptions {
  /** How many snapshots stay open, the current one included (SNAPSHOTS_KEEP); 1 unless given. */
  keep?: number;
  /** Snapshots published before the current one (found again at start-up), in any order. */
  older?: SnapshotContext[];
}

export class LiveSnapshot {
  /** The snapshot requests that arrive now are answered from. */
  current: SnapshotContext;
  /** The older snapshots kept, newest first (at most keep - 1). */
  private older: SnapshotContext[] = [];
  /** Every kept snapshot, newest first, as `kept()` lists them; rebuilt when the set changes. */
  private ranked: SnapshotContext[] = [];
  private readonly keep: number;
  private running: Promise<RolloutOutcome> | undefined;
  private queued: { file: string; promise: Promise<RolloutOutcome> } | undefined;

  constructor(
    first: SnapshotContext,
    private readonly log: RolloutLog,
    private readonly now: () => Date = () => new Date(),
    options: KeepOptions = {},
  ) {
    first.serving = { since: this.now().toISOString(), previous_id: null };
    this.current = first;
    this.keep = options.keep ?? 1;
    const older: SnapshotContext[] = [];
    for (const s of options.older ?? []) {
      const twin = [first, ...older].find((k) => k.ref.id === s.ref.id);
      if (!twin) older.push(s);
      else {
        if (!s.isSameFile(twin)) {
          this.log.error(
            { id: s.ref.id, built_at: s.stamp.built_at, kept_built_at: twin.stamp.built_at },
            "snapshot not kept: another snapshot kept has its id",
          );
        }
        s.close();
      }
    }
    this.keepNewest(older);
  }

  /** Every snapshot kept, newest first (by capture time; the current one first among those captured the same day). */
  kept(): readonly SnapshotContext[] {
    return this.ranked;
  }

  /** The kept snapshots as coverage lists them. */
  keptList(): KeptSnapshot[] {
    return this.ranked.map((s) => ({
      id: s.ref.id,
      captured_at: s.ref.captured_at,
      built_at: s.stamp.built_at,
      latest: s === this.current,
    }));
  }

  /**
   * The snapshot a call's `snapshot` or `as_of` names, in exchange for `held` (which a request
   * took when it arrived): `held` itself when the call names none. Throws the refusal (400 for
   * both at once, 404 snapshot_not_found) and then `held` stays with the request.
   */
  reselect(held: SnapshotContext, query: SnapshotSelection): SnapshotContext {
    if (!selects(query)) return held;
    const chosen = chooseSnapshot(this.ranked, query);
    if (chosen === held) return held;
    chosen.leases++;
    this.release(held);
    return chosen;
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

  /**
   * Makes `next` current now. The replaced snapshot stays kept among the older ones unless it has
   * `next`'s id (a rebuild of the same snapshot replaces it); a kept older one with that id (a
   * rollback to it) gives way to `next`, the same file. Beyond `keep`, the oldest retire.
   */
  replace(next: SnapshotContext): void {
    const old = this.current;
    next.serving = { since: this.now().toISOString(), previous_id: old.ref.id };
    this.current = next;
    const older = this.older.filter((s) => s.ref.id !== next.ref.id);
    for (const s of this.older) if (s.ref.id === next.ref.id) retire(s);
    if (old.ref.id !== next.ref.id) older.push(old);
    else retire(old);
    this.keepNewest(older);
  }

  /** Keeps the newest `keep - 1` of `candidates` as the older snapshots; retires the rest. */
  private keepNewest(candidates: SnapshotContext[]): void {
    candidates.sort((a, b) => newestFirst(a.stamp, b.stamp));
    this.older = candidates.slice(0, this.keep - 1);
    for (const s of candidates.slice(this.keep - 1)) retire(s);
    const current = this.current;
    // On a tie of capture day the current one comes first, so `as_of` that day picks the latest.
    this.ranked = [current, ...this.older].sort((a, b) => {
      const day = (s: SnapshotContext) => s.ref.captured_at.slice(0, 10);
      if (day(a) === day(b) && (a === current || b === current)) return a === current ? -1 : 1;
      return newestFirst(a.stamp, b.stamp);
    });
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
    const twin = this.older.find((s) => s.ref.id === next.ref.id && !s.isSameFile(next));
    if (twin) {
      next.close();
      const reason =
        `snapshot ${twin.ref.id} is already kept (built ${twin.stamp.built_at}); this file has the same id but was built ` +
        `${next.stamp.built_at}, and snapshot=${twin.ref.id} must name one snapshot: publish it with another capture date`;
      this.log.error({ file, reason, serving: current.ref.id }, "snapshot refused: still serving the current one");
      return { outcome: "refused", id: current.ref.id, reason };
    }
    this.replace(next);
    this.log.info({ file, id: next.ref.id, previous_id: current.ref.id }, "snapshot switched");
    return { outcome: "switched", id: next.ref.id, previous_id: current.ref.id };
  }
}

function retire(s: SnapshotContext): void {
  s.retired = true;
  if (s.leases === 0) s.close();
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
