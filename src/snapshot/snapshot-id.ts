// The form of a snapshot id: `snap_` and 12 lowercase hex digits (build.ts, import.ts and
// next-month.ts make them so; docs/snapshot.md documents it). An id read from a file's meta names
// its version in the store of snapshots and is echoed in answers and headers, so a file whose id
// has any other form is refused before it is published or served.

export const SNAPSHOT_ID_FORM = /^snap_[0-9a-f]{12}$/;

/** Whether `id` has the form of a snapshot id. */
export function isSnapshotId(id: unknown): id is string {
  return typeof id === "string" && SNAPSHOT_ID_FORM.test(id);
}

/** Why `id` is not a snapshot id (quoted, shortened), or undefined when it is one. */
export function snapshotIdProblem(id: unknown): string | undefined {
  if (isSnapshotId(id)) return undefined;
  const shown = JSON.stringify(String(id ?? "")).slice(0, 40);
  return `its id ${shown} is not a snapshot id (snap_ and 12 hex digits)`;
}
