// Which snapshot answers a call. The service keeps several snapshots side by side (the latest
// published serves by default); every operation also takes `snapshot` (an id, as answers name
// it) or `as_of` (a date: the newest snapshot captured on or before it), so a model can be
// pinned to the data it was built on. Each snapshot is served for a retention period after its
// capture (SNAPSHOTS_RETAIN_MONTHS); coverage lists the snapshots kept and when each retires.
import { Type, type Static } from "@sinclair/typebox";
import { DATE_INPUT_MAX_LENGTH, DATE_SERIALS, FIXED_DATE_FORMS, YEAR_NUMBERS } from "./dates";

export const SNAPSHOT_SELECTORS = {
  snapshot: Type.String({
    minLength: 1,
    maxLength: 80,
    pattern: "^[A-Za-z0-9_.:-]+$",
    description:
      "Answer from this snapshot (its id, as X-Snapshot-Id and every list name it). Default: the latest published (marked latest in coverage's snapshots).",
  }),
  as_of: Type.String({
    minLength: 1,
    maxLength: DATE_INPUT_MAX_LENGTH,
    description:
      "Answer from the newest snapshot captured on or before this date. Give snapshot or as_of, not both. " +
      `Takes ${FIXED_DATE_FORMS}: a year, quarter or month stands for its last day; a whole number from ${YEAR_NUMBERS.min} to ` +
      `${YEAR_NUMBERS.max} is a year, one from ${DATE_SERIALS.min} up an Excel date serial. A relative date (-8Q, LQ, YTD) is ` +
      "refused (400 validation_failed): it would move with every snapshot. " +
      "A date before every snapshot kept, or an id not kept, is refused free of charge (404 snapshot_not_found, listing those kept); " +
      "snapshots are served for a retention period after their capture (coverage's snapshots give each one's retires_at), and a date " +
      "whose snapshot has retired says so (retired, retired_by).",
  }),
};

/** A snapshot's identity and its two times (ISO 8601, so text order is time order): what ranks kept snapshots. */
export const SnapshotStamp = Type.Object({
  id: Type.String(),
  captured_at: Type.String({ format: "date-time" }),
  built_at: Type.String({ format: "date-time" }),
});
export type SnapshotStamp = Static<typeof SnapshotStamp>;

/** One snapshot the service keeps (coverage's `snapshots`, newest first). */
export const KeptSnapshot = Type.Object({
  ...SnapshotStamp.properties,
  retires_at: Type.String({
    format: "date-time",
    description:
      "When this snapshot stops being served: its capture plus the service's retention period (SNAPSHOTS_RETAIN_MONTHS). The latest is served past it until another is published.",
  }),
  latest: Type.Boolean({ description: "True for the snapshot answering calls that name none." }),
});
export type KeptSnapshot = Static<typeof KeptSnapshot>;

/** Problem code of a snapshot that is not kept. */
export const SNAPSHOT_NOT_FOUND = "snapshot_not_found";
