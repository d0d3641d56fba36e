// The snapshots the service answers from, and switching to a new one while it runs (a rollout).
//
// `current` is the latest snapshot, a plain field: a request takes it once, when it arrives
// (`acquire`), and is answered from that snapshot even if a rollout switches to another before
// its handler runs; it gives it back when its answer is sent or it is aborted (`release`). A
// call that names another kept snapshot (`snapshot=` or `as_of=`) trades it for that one
// (`reselect`). Besides the current one, the older snapshots still within their retention period
// stay open (captured less than SNAPSHOTS_RETAIN_MONTHS before the clock `now`: data/snapshot-select.ts
// has the rule, checked again whenever the kept set is read); one no longer kept is "retired": its
// database closes when its last request has given it back, and no request arriving after that
// can take it. Each SnapshotContext owns its caches, so a new one starts with none of another's.
//
// `refresh(snapshotPath)` (SIGHUP) makes the open set what is on disk: the file at SNAPSHOT_PATH
// as the latest and the kept files beside it (data/kept-files.ts), opening what it lacks and
// retiring what is gone, so every process of a deployment serves the same set whatever signals
// it missed. `rollout(file)` makes one file current and keeps the replaced one in memory (a
// service with no kept files on disk, and tests). Both check a new latest file off the service's
// thread (quick_check, meta, layout) before serving it; a file that fails is refused (logged,
// resolved as `refused`) and the current snapshot keeps serving; so is a file with the id of a
// kept older snapshot but another build, since `snapshot=<id>` must name one snapshot. They run
// one at a time: one asked for during another runs after it.
import type { KeptSnapshot } from "../../contract/snapshot-select";
import { checkSnapshotFileOffThread } from "../../snapshot/snapshot-check";
import { type SnapshotContext, openContext } from "./snapshot-context";
import { keptDirFiles, safeStamp } from "./kept-files";
import {
  type Retention,
  type SnapshotSelection,
  type SnapshotStamp,
  chooseSnapshot,
  keptBeside,
  newestFirst,
  retained,
  retiresAt,
  selects,
} from "./snapshot-select";

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
  /** SNAPSHOTS_RETAIN_MONTHS: an older snapshot stays open until its capture plus this many months; 0 (the latest only) unless given. */
  retainMonths?: number;
  /** Snapshots published before the current one (found again at start-up), in any order. */
  older?: SnapshotContext[];
}

export class LiveSnapshot {
  /** The snapshot requests that arrive now are answered from. */
  current: SnapshotContext;
  /** The older snapshots kept, newest first (those still retained). */
  private older: SnapshotContext[] = [];
  /** Every kept snapshot, newest first, as `kept()` lists them; rebuilt when the set changes. */
  private ranked: SnapshotContext[] = [];
  private readonly retainMonths: number;
  private running: Promise<RolloutOutcome> | undefined;
  private queued: { job: () => Promise<RolloutOutcome>; promise: Promise<RolloutOutcome> } | undefined;

  constructor(
    first: SnapshotContext,
    private readonly log: RolloutLog,
    private readonly now: () => Date = () => new Date(),
    options: KeepOptions = {},
  ) {
    first.serving = { since: this.now().toISOString(), previous_id: null };
    this.current = first;
    this.retainMonths = options.retainMonths ?? 0;
    const { kept, dropped } = keptBeside(options.older ?? [], first.ref.id, this.retention());
    for (const s of dropped) {
      const twin = [first, ...kept].find((k) => k.ref.id === s.ref.id && !k.isSameFile(s));
      if (twin) {
        this.log.error(
          { id: s.ref.id, built_at: s.stamp.built_at, kept_built_at: twin.stamp.built_at },
          "snapshot not kept: another snapshot kept has its id",
        );
      }
      s.close();
    }
    this.setKept(kept);
  }

  /** The retention period against the clock now. */
  retention(): Retention {
    return { months: this.retainMonths, now: this.now() };
  }

  /** Every snapshot kept, newest first (by capture time; the current one first among those captured the same day). */
  kept(): readonly SnapshotContext[] {
    this.expire();
    return this.ranked;
  }

  /** The kept snapshots as coverage lists them, each with the time it retires (its capture plus the retention period). */
  keptList(): KeptSnapshot[] {
    return this.kept().map((s) => ({
      id: s.ref.id,
      captured_at: s.ref.captured_at,
      built_at: s.stamp.built_at,
      retires_at: retiresAt(s.ref.captured_at, this.retainMonths),
      latest: s === this.current,
    }));
  }

  /** Retires the older snapshots whose retention period has ended by now (the latest always serves). */
  private expire(): void {
    const retention = this.retention();
    if (this.older.every((s) => retained(s.stamp, retention))) return;
    this.keepNewest([...this.older]);
  }

  /**
   * The snapshot a call's `snapshot` or `as_of` names, in exchange for `held` (which a request
   * took when it arrived): `held` itself when the call names none. Throws the refusal (400 for
   * both at once, 404 snapshot_not_found) and then `held` stays with the request.
   */
  reselect(held: SnapshotContext, query: SnapshotSelection): SnapshotContext {
    if (!selects(query)) return held;
    const chosen = chooseSnapshot(this.kept(), query, this.retention(), this.current.ref.id);
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
   * rollback to it) gives way to `next`, the same file. Those past their retention retire.
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

  /** Keeps the retained ones of `candidates` (one per id) as the older snapshots; retires the rest. */
  private keepNewest(candidates: SnapshotContext[]): void {
    const { kept, dropped } = keptBeside(candidates, this.current.ref.id, this.retention());
    this.setKept(kept);
    for (const s of dropped) retire(s);
  }

  /** Makes `older` (newest first) the older snapshots kept beside the current one. */
  private setKept(older: SnapshotContext[]): void {
    this.older = older;
    const current = this.current;
    // On a tie of capture day the current one comes first, so `as_of` that day picks the latest.
    this.ranked = [current, ...older].sort((a, b) => {
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
    return this.enqueue(() => this.switchTo(file));
  }

  /**
   * Makes the snapshots served those on disk for `snapshotPath` (SIGHUP runs this): the file there
   * as the latest, after the same checks as `rollout`, and the files of the kept directory beside
   * it still retained that open as snapshots, one per id, none with the latest's id (the rule the
   * rollout command prunes the directory by). Snapshots already open are matched by id and build
   * time and stay open; the ones no longer on disk retire. Never rejects; a refused latest file
   * changes nothing. Queued like `rollout`.
   */
  refresh(snapshotPath: string): Promise<RolloutOutcome> {
    return this.enqueue(() => this.syncWith(snapshotPath));
  }

  private enqueue(job: () => Promise<RolloutOutcome>): Promise<RolloutOutcome> {
    if (!this.running) return this.start(job);
    if (this.queued) {
      this.queued.job = job;
      return this.queued.promise;
    }
    const queued = { job, promise: undefined as unknown as Promise<RolloutOutcome> };
    queued.promise = this.running.then(() => {
      this.queued = undefined;
      return this.start(queued.job);
    });
    this.queued = queued;
    return queued.promise;
  }

  private start(job: () => Promise<RolloutOutcome>): Promise<RolloutOutcome> {
    const run = job().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  /** Checks a new latest file off the thread and opens it; throws the reason it is refused. */
  private async openChecked(file: string): Promise<SnapshotContext> {
    const checked = await checkSnapshotFileOffThread(file);
    const next = openContext(file);
    if (next.ref.id !== checked.id) {
      next.close();
      throw new Error(`${file} changed while it was checked (snapshot ${checked.id}, then ${next.ref.id}); publish it again`);
    }
    return next;
  }

  private refuse(file: string, reason: string): RolloutOutcome {
    const current = this.current;
    this.log.error({ file, reason, serving: current.ref.id }, "snapshot refused: still serving the current one");
    return { outcome: "refused", id: current.ref.id, reason };
  }

  private async syncWith(snapshotPath: string): Promise<RolloutOutcome> {
    const current = this.current;
    const open = [...this.ranked];
    const openWith = (stamp: SnapshotStamp | undefined) => stamp && open.find((s) => sameStamp(s.stamp, stamp));
    const opened: SnapshotContext[] = [];
    let latest: SnapshotContext;
    try {
      latest = openWith(safeStamp(snapshotPath)) || (await this.openChecked(snapshotPath));
    } catch (err) {
      return this.refuse(snapshotPath, err instanceof Error ? err.message : String(err));
    }
    if (!open.includes(latest)) opened.push(latest);
    const onDisk = keptDirFiles(snapshotPath).flatMap((file) => {
      const stamp = safeStamp(file);
      if (!stamp) this.log.error({ file }, "kept snapshot not served: it is not a snapshot with a well-formed id");
      return stamp ? [{ file, stamp }] : [];
    });
    const twin = onDisk.find((f) => f.stamp.id === latest.ref.id && f.stamp.built_at !== latest.stamp.built_at);
    if (twin) {
      for (const s of opened) s.close();
      return this.refuse(
        snapshotPath,
        `snapshot ${latest.ref.id} is already kept (${twin.file}, built ${twin.stamp.built_at}); this file has the same id but was built ` +
          `${latest.stamp.built_at}, and snapshot=${latest.ref.id} must name one snapshot: publish it with another capture date`,
      );
    }
    // The newest first, one per id, those still retained: open each (or find it open).
    const older: SnapshotContext[] = [];
    for (const { file, stamp } of keptBeside(onDisk, latest.ref.id, this.retention()).kept) {
      const have = openWith(stamp);
      if (have) {
        older.push(have);
        continue;
      }
      try {
        const s = openContext(file);
        opened.push(s);
        older.push(s);
      } catch (err) {
        this.log.error({ file, reason: err instanceof Error ? err.message : String(err) }, "kept snapshot not served");
      }
    }
    if (latest !== current) latest.serving = { since: this.now().toISOString(), previous_id: current.ref.id };
    this.current = latest;
    this.setKept(older);
    for (const s of open) if (s !== latest && !older.includes(s)) retire(s);
    const kept = this.ranked.map((s) => s.ref.id);
    if (latest === current) {
      this.log.info({ file: snapshotPath, id: current.ref.id, kept }, "snapshot unchanged: already serving this file");
      return { outcome: "unchanged", id: current.ref.id };
    }
    this.log.info({ file: snapshotPath, id: latest.ref.id, previous_id: current.ref.id, kept }, "snapshot switched");
    return { outcome: "switched", id: latest.ref.id, previous_id: current.ref.id };
  }

  private async switchTo(file: string): Promise<RolloutOutcome> {
    const current = this.current;
    let next: SnapshotContext;
    try {
      next = await this.openChecked(file);
    } catch (err) {
      return this.refuse(file, err instanceof Error ? err.message : String(err));
    }
    if (next.isSameFile(current)) {
      next.close();
      this.log.info({ file, id: current.ref.id }, "snapshot unchanged: already serving this file");
      return { outcome: "unchanged", id: current.ref.id };
    }
    const twin = this.older.find((s) => s.ref.id === next.ref.id && !s.isSameFile(next));
    if (twin) {
      next.close();
      return this.refuse(
        file,
        `snapshot ${twin.ref.id} is already kept (built ${twin.stamp.built_at}); this file has the same id but was built ` +
          `${next.stamp.built_at}, and snapshot=${twin.ref.id} must name one snapshot: publish it with another capture date`,
      );
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

/** The same snapshot file: the same id and build time. */
function sameStamp(a: SnapshotStamp, b: SnapshotStamp): boolean {
  return a.id === b.id && a.built_at === b.built_at;
}
