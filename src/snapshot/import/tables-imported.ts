// What an import directory may hold: one file per resource (SNAPSHOT_RESOURCES), and
// optionally captured market history, each named by its stem and loaded into its table.
import { SNAPSHOT_RESOURCES, type SnapshotResource } from "../../contract/records";

/** The tables imported files load into. */
export type ImportedTable = SnapshotResource | "captured_market_history";

/** File stem (`<stem>.csv` / `<stem>.ndjson`) -> table, resources first in load order, then the optional ones. */
export const IMPORT_FILES: Record<string, ImportedTable> = {
  ...(Object.fromEntries(Object.keys(SNAPSHOT_RESOURCES).map((r) => [r, r])) as Record<SnapshotResource, SnapshotResource>),
  market_history: "captured_market_history",
};

/** Files an import takes without complaint when absent (a missing resource is a gap the coverage report lists). */
export const OPTIONAL_FILES = ["market_history"];
