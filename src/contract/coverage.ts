// The coverage report (GET /v1/commercial/coverage): what the snapshot holds, computed from its
// rows when it was built (src/snapshot/derive/coverage.ts). The route answers with this schema;
// the task pane and PROP.COVERAGE read it as this type.
import { Type, type Static } from "@sinclair/typebox";
import { Nullable, StringEnum } from "./schema-helpers";
import { SnapshotRef } from "./snapshot-ref";
import { KeptSnapshot } from "./snapshot-select";

/** Where a snapshot's data came from: built by the seeded generator, or imported from captured files. */
export const SNAPSHOT_SOURCES = ["generated", "imported"] as const;
export type SnapshotSource = (typeof SNAPSHOT_SOURCES)[number];

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const AssetCoverage = Type.Object({
  asset_type: Type.String(),
  properties: Count("Properties of the type."),
  sales: Count("Captured sales of the type."),
  tenancies: Count("Leases in properties of the type."),
  with_building_area: Count("Properties with building_area_sqft."),
  with_land_area: Count("Properties with land_area_acres."),
  with_units: Count("Properties with units."),
  with_occupancy: Count("Properties with occupancy_rate."),
  with_cap_rate: Count("Sales with cap_rate."),
});
export type AssetCoverage = Static<typeof AssetCoverage>;

export const StateCoverage = Type.Object({
  state_code: Type.String(),
  properties: Type.Integer({ minimum: 0 }),
  parcels: Type.Integer({ minimum: 0 }),
  listings: Type.Integer({ minimum: 0 }),
  sales: Type.Integer({ minimum: 0 }),
});
export type StateCoverage = Static<typeof StateCoverage>;

/** A known gap: something the snapshot lacks, found by looking at its data. */
export const Gap = Type.Object({
  resource: Type.String(),
  asset_type: Nullable(Type.String()),
  field: Nullable(Type.String()),
  detail: Type.String(),
});
export type Gap = Static<typeof Gap>;

/** Where a history metric has no figure for some periods of some markets of an asset type. */
export const HistoryGap = Type.Object({
  metric: Type.String(),
  asset_type: Type.String(),
  markets: Count("Markets of the asset type (every geography)."),
  markets_with_gaps: Count("Of those, markets missing the metric in at least one period."),
  missing_periods: Count("Market-quarters without a figure for the metric."),
  periods: Count("Market-quarters of the asset type in all."),
});
export type HistoryGap = Static<typeof HistoryGap>;

/** The history metrics an asset type has no figure for at all. */
export const HistoryNotHeld = Type.Object({
  asset_type: Type.String(),
  metrics: Type.Array(Type.String()),
});
export type HistoryNotHeld = Static<typeof HistoryNotHeld>;

/**
 * Splits gap counts into partial gaps and the metrics a type has no figure for at all (every
 * market-quarter missing), which are not gaps in its data but metrics it does not hold.
 */
export function splitHistoryGaps(all: readonly HistoryGap[]): { gaps: HistoryGap[]; not_held: HistoryNotHeld[] } {
  const gaps: HistoryGap[] = [];
  const notHeld = new Map<string, string[]>();
  for (const g of all) {
    if (g.missing_periods < g.periods) gaps.push(g);
    else notHeld.set(g.asset_type, [...(notHeld.get(g.asset_type) ?? []), g.metric]);
  }
  const not_held = [...notHeld].sort(([a], [b]) => a.localeCompare(b)).map(([asset_type, metrics]) => ({ asset_type, metrics }));
  return { gaps, not_held };
}

/** The market history's span and its gaps (GET /v1/commercial/markets/history). */
export const HistoryCoverage = Type.Object(
  {
    first_period: Type.String({ description: 'The first quarter held, e.g. "2017-Q1".' }),
    last_period: Type.String({ description: "The quarter holding the capture date (its figures are to that date)." }),
    quarters: Count("Quarters every market's series holds."),
    markets: Count("Markets with a series: every market the snapshot holds."),
    captured_rows: Count("Rows of captured history the figures were taken from (imported snapshots; 0 when generated)."),
    gaps: Type.Array(HistoryGap, {
      description:
        "Each metric and asset type with some market-quarters missing a figure (a gap: neither captured nor derivable from the rows), " +
        "largest share first. Metrics missing in every market-quarter of a type are in not_held instead.",
    }),
    not_held: Type.Array(HistoryNotHeld, {
      description:
        "Per asset type, the metrics with no figure in any of its market-quarters: mostly ones the type does not have " +
        "(rent per sq ft of apartments, cap rates of land).",
    }),
  },
  { description: "Market history: which quarters it holds, and where it has no figures." },
);
export type HistoryCoverage = Static<typeof HistoryCoverage>;

/** What the snapshot builder computes (stored with the snapshot, answered as it is). */
export const CoverageFigures = Type.Object({
  counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: "Rows per table: each resource, the markets and the diligence candidates.",
  }),
  by_asset_type: Type.Array(AssetCoverage),
  by_state: Type.Array(StateCoverage),
  listings_by_status: Type.Array(Type.Object({ status: Type.String(), listings: Type.Integer({ minimum: 0 }) })),
  companies_by_type: Type.Array(Type.Object({ company_type: Type.String(), companies: Type.Integer({ minimum: 0 }) })),
  known_gaps: Type.Array(Gap, { description: "Inputs an asset type lacks, thin resources: see docs/snapshot.md." }),
  history: HistoryCoverage,
  build_seconds: Type.Number({ description: "How long the build took." }),
});
export type CoverageFigures = Static<typeof CoverageFigures>;

export const CoverageReport = Type.Object({
  object: Type.Literal("coverage"),
  snapshot: Type.Object(
    {
      ...SnapshotRef.properties,
      built_at: Type.String({ format: "date-time", description: "When the snapshot file was written." }),
      source: StringEnum(SNAPSHOT_SOURCES, { description: "generated (the built default) or imported (captured data)." }),
      seed: Nullable(Type.String({ description: "The generator's seed (generated snapshots)." })),
    },
    { description: "The snapshot the data came from." },
  ),
  serving: Type.Object(
    {
      node: Type.String({
        description: "An opaque id of the service process that answered (each process logs its id with its pid when it starts).",
      }),
      since: Type.String({
        format: "date-time",
        description: "When this node began answering from this snapshot: when it started, or when a rollout switched it to this one.",
      }),
      previous_id: Nullable(
        Type.String({
          description: "The snapshot this node answered from before that rollout; null when it has served this one since it started.",
        }),
      ),
    },
    {
      description:
        "This node (the service process that answered) and its snapshot: a service switches to a newly published snapshot without " +
        "restarting, so nodes may briefly serve different snapshots (docs/deployment.md).",
    },
  ),
  ...CoverageFigures.properties,
  snapshots: Type.Array(KeptSnapshot, {
    description:
      "Every snapshot the service keeps, newest captured first; `latest` marks the one answering calls that name none. " +
      "Any of them answers a call that names it with `snapshot` (its id) or `as_of` (a date).",
  }),
});
export type CoverageReport = Static<typeof CoverageReport>;
