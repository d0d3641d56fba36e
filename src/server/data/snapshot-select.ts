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

/**
 * Which of `candidates` are kept beside the latest snapshot (whose id is `latestId`): one per id,
 * the newest `keep - 1` by `newestFirst`, none with the latest's id. The service keeps these in
 * memory and the rollout command on disk, so both keep the same set.
 */
export function keptBeside<S extends { stamp: SnapshotStamp }>(
  candidates: readonly S[],
  latestId: string,
  keep: number,
): { kept: S[]; dropped: S[] } {
  const kept: S[] = [];
  const dropped: S[] = [];
  for (const c of [...candidates].sort((a, b) => newestFirst(a.stamp, b.stamp))) {
    const other = c.stamp.id === latestId || kept.some((k) => k.stamp.id === c.stamp.id) || kept.length >= keep - 1;
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
 * kept capture, a 404 `snapshot_not_found` naming the ids kept.
 */
export function chooseSnapshot<S extends { stamp: SnapshotStamp }>(kept: readonly S[], query: SnapshotSelection): S {
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
  const list = kept.map((s) => `${s.stamp.id} (captured ${s.stamp.captured_at.slice(0, 10)})`).join(", ");
  const what =
    snapshot !== undefined
      ? `Snapshot ${String(snapshot)} is not one this service keeps.`
      : `No snapshot this service keeps was captured on or before ${String(as_of)}.`;
  throw new ApiProblem(404, SNAPSHOT_NOT_FOUND, `${what} Kept, newest first: ${list}.`);
}
