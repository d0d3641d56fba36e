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
// The snapshots are the versions of a store (src/snapshot/store) not retired: `fromStore` opens
// the newest as the latest and the older ones still retained beside it, and `refresh()` (SIGHUP)
// makes the open set what the store holds now, opening what it lacks (a version just published)
// and retiring what is gone (withdrawn, or past retention), so every process of a deployment
// serves the same set whatever signals it missed. The newest version's connection reads the
// latest rows inside a transaction held from open (data/store-snapshots.ts); once a newer
// version is published, the refresh opens it again as an older version and retires the
// connection that held the transaction, which closes when its requests are done.
// `rollout(file)` makes one snapshot file current and keeps the replaced one in memory (a service
// given one file rather than a store, as tests build it); it checks the file off the service's
// thread (quick_check, meta, layout) first, and a file that fails is refused (logged, resolved as
// `refused`) while the current snapshot keeps serving; so is a file with the id of a kept older
// snapshot but another build, since `snapshot=<id>` must name one snapshot. Rollouts and
// refreshes run one at a time: one asked for during another runs after it.
import type { KeptSnapshot } from "../../contract/snapshot-select";
import { checkSnapshotFileOffThread } from "../../snapshot/snapshot-check";
import { type SnapshotContext, openContext } from "./snapshot-context";
import { type ServedVersion, openServedVersion, renewRead, servedVersions } from "./store-snapshots";

/** How often, at most, the newest version's read transaction is renewed (store-snapshots.ts renewRead), unless KeepOptions says. */
const RENEW_READ_MS = 1000;
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
  /** The store the snapshots are versions of (`refresh` serves what it holds); none for a service given one file. */
  store?: string;
  /** The store version of each context opened from it (the first and the older ones), and the store's newest then. */
  versions?: Map<SnapshotContext, StoreOpened>;
  /** How often, at most, the newest version's read is renewed, in ms (RENEW_READ_MS unless given). */
  renewReadMs?: number;
}

/** A context opened from a store: the version it answers for, and the store's newest version then. */
interface StoreOpened {
  seq: number;
  storeNewest: number;
}

export class LiveSnapshot {
  /** The snapshot requests that arrive now are answered from. */
  current: SnapshotContext;
  /** The older snapshots kept, newest first (those still retained). */
  private older: SnapshotContext[] = [];
  /** Every kept snapshot, newest first, as `kept()` lists them; rebuilt when the set changes. */
  private ranked: SnapshotContext[] = [];
  private readonly retainMonths: number;
  private readonly store: string | undefined;
  /** Each context opened from the store: the version it answers for, and the store's newest when it was opened. */
  private readonly versionOf = new Map<SnapshotContext, StoreOpened>();
  private renewedAt = 0;
  private readonly renewReadMs: number;
  private readonly renewTimer: NodeJS.Timeout | undefined;
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
    this.store = options.store;
    this.renewReadMs = options.renewReadMs ?? RENEW_READ_MS;
    if (this.store !== undefined) {
      for (const [context, v] of options.versions ?? []) this.versionOf.set(context, v);
      // A service no request reaches renews its read too, so a publish's log can be emptied.
      this.renewTimer = setInterval(() => this.renewIdle(), Math.max(this.renewReadMs, 50)).unref();
    }
    const { kept, dropped } = keptBeside(options.older ?? [], first.ref.id, this.retention());
    for (const s of dropped) {
      const twin = [first, ...kept].find((k) => k.ref.id === s.ref.id && !k.isSameFile(s));
      if (twin) {
        this.log.error(
          { id: s.ref.id, built_at: s.stamp.built_at, kept_built_at: twin.stamp.built_at },
          "snapshot not kept: another snapshot kept has its id",
        );
      }
      this.close(s);
    }
    this.setKept(kept);
  }

  /**
   * The snapshots of the store at `storePath`: its newest version served (not withdrawn) as the
   * latest, and the older ones still retained beside it. Throws when the store serves none or its
   * latest does not open; an older version that does not open is logged and left out.
   */
  static fromStore(
    storePath: string,
    log: RolloutLog,
    now: () => Date = () => new Date(),
    options: Omit<KeepOptions, "older" | "store" | "versions"> = {},
  ): LiveSnapshot {
    const versions = servedVersions(storePath);
    const latest = versions.pop();
    if (!latest) throw new Error(`the store ${storePath} serves no snapshot: every version in it is retired`);
    const first = openServedVersion(storePath, latest);
    const seqs = new Map([[first, { seq: latest.seq, storeNewest: latest.storeNewest }]]);
    const retention = { months: options.retainMonths ?? 0, now: now() };
    const older: SnapshotContext[] = [];
    for (const v of keptBeside(versions, latest.stamp.id, retention).kept) {
      try {
        const context = openServedVersion(storePath, v);
        seqs.set(context, { seq: v.seq, storeNewest: v.storeNewest });
        older.push(context);
      } catch (err) {
        log.error({ store: storePath, id: v.stamp.id, reason: err instanceof Error ? err.message : String(err) }, "kept snapshot not served");
      }
    }
    return new LiveSnapshot(first, log, now, { ...options, older, store: storePath, versions: seqs });
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

  /**
   * Gives back a snapshot `acquire` handed out; the last one given back of a retired snapshot
   * closes it, and of the current one renews its read when that is due.
   */
  release(s: SnapshotContext): void {
    if (--s.leases > 0) return;
    if (s.retired) this.close(s);
    else if (s === this.current) this.renewIdle();
  }

  /**
   * Renews the current snapshot's read transaction when no request holds it and the last renewal
   * is `renewReadMs` old (store-snapshots.ts renewRead); one that finds a newer version
   * published serves the store's versions anew at once, as a refresh does.
   */
  private renewIdle(): void {
    const s = this.current;
    const seq = this.versionOf.get(s)?.seq;
    if (seq === undefined || s.leases > 0 || !s.db.inTransaction || this.store === undefined) return;
    const now = Date.now();
    if (now - this.renewedAt < this.renewReadMs) return;
    this.renewedAt = now;
    if (!renewRead(s, seq)) this.syncWithStore(this.store);
  }

  /** Stops renewing reads and closes every snapshot opened from the store (the app is closing). */
  stop(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    if (this.store === undefined) return;
    for (const s of [...this.versionOf.keys()]) this.close(s);
  }

  private retire(s: SnapshotContext): void {
    s.retired = true;
    if (s.leases === 0) this.close(s);
  }

  private close(s: SnapshotContext): void {
    this.versionOf.delete(s);
    if (s.db.open) s.close();
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
    for (const s of this.older) if (s.ref.id === next.ref.id) this.retire(s);
    if (old.ref.id !== next.ref.id) older.push(old);
    else this.retire(old);
    this.keepNewest(older);
  }

  /** Keeps the retained ones of `candidates` (one per id) as the older snapshots; retires the rest. */
  private keepNewest(candidates: SnapshotContext[]): void {
    const { kept, dropped } = keptBeside(candidates, this.current.ref.id, this.retention());
    this.setKept(kept);
    for (const s of dropped) this.retire(s);
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
   * Makes the snapshots served those the store holds now (SIGHUP runs this): its newest version
   * served as the latest, and the older ones still retained beside it. Snapshots already open
   * stay open (matched by id and build time), except the connection of a version that was the
   * newest and no longer is, which is opened again; the ones the store no longer serves retire.
   * Never rejects; a store that cannot be read, or whose latest does not open, changes nothing.
   * A service given one file rather than a store has nothing to refresh. Queued like `rollout`.
   */
  refresh(): Promise<RolloutOutcome> {
    const store = this.store;
    if (store === undefined) {
      this.log.info({ id: this.current.ref.id }, "snapshot unchanged: this service serves one file, not a store");
      return Promise.resolve({ outcome: "unchanged", id: this.current.ref.id });
    }
    return this.enqueue(() => Promise.resolve(this.syncWithStore(store)));
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

  private syncWithStore(store: string): RolloutOutcome {
    const current = this.current;
    const open = [...this.ranked];
    const opened: SnapshotContext[] = [];
    // A version open as an older one serves on through a publish: it reads its rows by version
    // number (store-open.ts), so whatever is published after it changes none of its answers, and
    // its connection keeps what it has worked out and cached. The newest's connection holds a
    // read transaction over the latest rows, which a publish moves on, so a version opened as the
    // newest is opened again, as an older one, once another is published.
    const contextFor = (v: ServedVersion): SnapshotContext => {
      const have = open.find(
        (s) => sameStamp(s.stamp, v.stamp) && (this.versionOf.get(s)?.storeNewest === v.storeNewest || (!v.newest && s.readsByParts)),
      );
      if (have) return have;
      const s = openServedVersion(store, v);
      this.versionOf.set(s, { seq: v.seq, storeNewest: v.storeNewest });
      opened.push(s);
      return s;
    };
    let latest: SnapshotContext;
    let older: ServedVersion[];
    try {
      const versions = servedVersions(store);
      const newest = versions.pop();
      if (!newest) throw new Error("every version in the store is retired");
      latest = contextFor(newest);
      older = keptBeside(versions, newest.stamp.id, this.retention()).kept;
    } catch (err) {
      for (const s of opened) this.close(s);
      return this.refuse(store, err instanceof Error ? err.message : String(err));
    }
    const olderOpen: SnapshotContext[] = [];
    for (const v of older) {
      try {
        olderOpen.push(contextFor(v));
      } catch (err) {
        this.log.error({ store, id: v.stamp.id, reason: err instanceof Error ? err.message : String(err) }, "kept snapshot not served");
      }
    }
    if (latest !== current) latest.serving = { since: this.now().toISOString(), previous_id: current.ref.id };
    this.current = latest;
    this.setKept(olderOpen);
    for (const s of open) if (s !== latest && !olderOpen.includes(s)) this.retire(s);
    const kept = this.ranked.map((s) => s.ref.id);
    if (latest.ref.id === current.ref.id) {
      this.log.info({ store, id: current.ref.id, kept }, "snapshot unchanged: already serving the store's latest");
      return { outcome: "unchanged", id: current.ref.id };
    }
    this.log.info({ store, id: latest.ref.id, previous_id: current.ref.id, kept }, "snapshot switched");
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


/** The same snapshot file: the same id and build time. */
function sameStamp(a: SnapshotStamp, b: SnapshotStamp): boolean {
  return a.id === b.id && a.built_at === b.built_at;
}
