// Which kept snapshot answers a call: the latest unless the call names another with `snapshot`
// (an id) or `as_of` (a date: the newest snapshot captured on or before it). The rules are the
// contract's (src/contract/snapshot-select.ts); refusals are free like every refusal.
import { SNAPSHOT_NOT_FOUND, type SnapshotStamp } from "../../contract/snapshot-select";
import { ApiProblem } from "../http/problem";

export type { SnapshotStamp };

/**
 * Newest first: by capture time, then by build time, then by id (so the order is total). The
 * service keeps the newest of its older snapshots by this order, and the rollout command prunes
 * the snapshots directory by it, so both keep the same ones.
 */
export function newestFirst(a: SnapshotStamp, b: SnapshotStamp): number {
  if (a.captured_at !== b.captured_at) return a.captured_at < b.captured_at ? 1 : -1;
  if (a.built_at !== b.built_at) return a.built_at < b.built_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** How long snapshots stay served: `months` after their capture (SNAPSHOTS_RETAIN_MONTHS), against the clock `now`. */
export interface Retention {
  months: number;
  now: Date;
}

/**
 * When a snapshot captured at `captured_at` (ISO 8601) stops being served: that many calendar
 * months later, the same time of day, on the last day of the month when the month is shorter
 * (captured 31 January, retained 1 month: retired 28 or 29 February). ISO 8601 in UTC.
 */
export function retiresAt(captured_at: string, months: number): string {
  const c = new Date(captured_at);
  const target = Date.UTC(c.getUTCFullYear(), c.getUTCMonth() + months, 1);
  const t = new Date(target);
  const lastDay = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
  const day = Math.min(c.getUTCDate(), lastDay);
  const at = new Date(
    Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), day, c.getUTCHours(), c.getUTCMinutes(), c.getUTCSeconds(), c.getUTCMilliseconds()),
  );
  return at.toISOString().replace(".000Z", "Z");
}

/**
 * Each snapshot's retirement time (ms since the epoch) for the retention it was last asked with:
 * every call pinned to a snapshot checks every kept snapshot (`retained`), and working the date
 * out anew each time cost such a call a few percent of its time.
 */
const retirementOf = new WeakMap<SnapshotStamp, { months: number; captured: string; at: number }>();

/** Whether a snapshot is still within its retention period: its `retiresAt` is after `now`. */
export function retained(stamp: SnapshotStamp, retention: Retention): boolean {
  let retirement = retirementOf.get(stamp);
  if (retirement === undefined || retirement.months !== retention.months || stamp.captured_at !== retirement.captured) {
    retirement = { months: retention.months, captured: stamp.captured_at, at: Date.parse(retiresAt(stamp.captured_at, retention.months)) };
    retirementOf.set(stamp, retirement);
  }
  return retirement.at > retention.now.getTime();
}

/**
 * Which of `candidates` are kept beside the latest snapshot (whose id is `latestId`): one per id
 * (the newest by `newestFirst`), none with the latest's id, and only those still retained (their
 * capture plus the retention period is after now). The latest itself is served whatever its
 * age. The service keeps these in memory and the rollout command on disk, so both keep the same set.
 */
export function keptBeside<S extends { stamp: SnapshotStamp }>(
  candidates: readonly S[],
  latestId: string,
  retention: Retention,
): { kept: S[]; dropped: S[] } {
  const kept: S[] = [];
  const dropped: S[] = [];
  for (const c of [...candidates].sort((a, b) => newestFirst(a.stamp, b.stamp))) {
    const other = c.stamp.id === latestId || kept.some((k) => k.stamp.id === c.stamp.id) || !retained(c.stamp, retention);
    (other ? dropped : kept).push(c);
  }
  return { kept, dropped };
}

/** The selectors as a validated query holds them (the schema has checked their form). */
export interface SnapshotSelection {
  snapshot?: unknown;
  as_of?: unknown;
}

/** Whether the query names a snapshot at all (most calls do not: they get the latest). */
export function selects(query: SnapshotSelection): boolean {
  return query.snapshot !== undefined || query.as_of !== undefined;
}

/**
 * The snapshot of `kept` (newest first, the latest first among those captured the same day) that
 * the query names. Both selectors at once is a 400; an id not kept, or a date before every
 * kept capture, a 404 `snapshot_not_found` naming the ids kept (`kept`) and the retention
 * (`retain_months`). A date pin can say whether its data was retired: the snapshot that answered
 * it was captured on or before that date, so it retired by the date plus the retention period at
 * the latest (`retired`, `retired_by`). An id cannot: ids do not say when they were captured, so
 * an id not kept was retired or never published here.
 */
export function chooseSnapshot<S extends { stamp: SnapshotStamp }>(
  kept: readonly S[],
  query: SnapshotSelection,
  retention: Retention,
  latestId: string,
): S {
  const { snapshot, as_of } = query;
  if (snapshot !== undefined && as_of !== undefined) {
    const detail = "Give snapshot or as_of, not both.";
    throw new ApiProblem(400, "validation_failed", detail, [
      { pointer: "/snapshot", parameter: "snapshot", detail },
      { pointer: "/as_of", parameter: "as_of", detail },
    ]);
  }
  const chosen =
    snapshot !== undefined
      ? kept.find((s) => s.stamp.id === snapshot)
      : kept.find((s) => s.stamp.captured_at.slice(0, 10) <= String(as_of));
  if (chosen) return chosen;
  throw notKept(kept, query, retention, latestId);
}

/** The refusal of a selector that names no kept snapshot (free, like every refusal). */
function notKept(
  kept: readonly { stamp: SnapshotStamp }[],
  query: SnapshotSelection,
  retention: Retention,
  latest: string,
): ApiProblem {
  const list = kept.map((s) => `${s.stamp.id} (captured ${s.stamp.captured_at.slice(0, 10)})`).join(", ");
  const period = `Snapshots are served for ${retention.months} months after their capture.`;
  const remedy = `Freeze the values you have (the add-in's Freeze keeps them as plain values), or move the pin to the latest snapshot (${latest}).`;
  const fields = { kept: kept.map((s) => s.stamp.id), retain_months: retention.months };
  if (query.snapshot !== undefined) {
    const what = `Snapshot ${String(query.snapshot)} is not one this service keeps: it was retired or never published here. ${period}`;
    return new ApiProblem(404, SNAPSHOT_NOT_FOUND, `${what} ${remedy} Kept, newest first: ${list}.`, undefined, fields);
  }
  const date = String(query.as_of);
  const retiredBy = retiresAt(`${date}T23:59:59Z`, retention.months);
  const retired = Date.parse(retiredBy) <= retention.now.getTime();
  const what = retired
    ? `The data of ${date} is no longer served: the snapshot captured on or before it was retired by ${retiredBy.slice(0, 10)}. ${period}`
    : `No snapshot this service keeps was captured on or before ${date}.`;
  return new ApiProblem(404, SNAPSHOT_NOT_FOUND, `${what} ${retired ? `${remedy} ` : ""}Kept, newest first: ${list}.`, undefined, {
    ...fields,
    retired,
    ...(retired ? { retired_by: retiredBy } : {}),
  });
}
