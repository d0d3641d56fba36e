// The snapshot an answer came from: named by lists, the catalog, the coverage report, a
// comparison and a markets batch, and read by the add-in to tell when the data changed.
import { Type, type Static } from "@sinclair/typebox";

export const SnapshotRef = Type.Object(
  {
    id: Type.String({ description: "Snapshot identifier." }),
    captured_at: Type.String({ format: "date-time", description: "When the data was captured." }),
  },
  { description: "The snapshot the data came from." },
);
export type SnapshotRef = Static<typeof SnapshotRef>;
