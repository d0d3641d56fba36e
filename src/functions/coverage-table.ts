// PROP.COVERAGE([section], [options]): what the service's snapshot holds. Free. The default
// section, counts, is the original two-column spill (resource, count); the others are the
// report's breakdowns, its known gaps, the snapshot's identity, and the snapshots the service
// keeps (snapshots: id, captured, retires, latest), so an analyst sees when a pin's data retires.
import { pinCall } from "./snapshot-pin";
import { CoverageReport, type CoverageFigures } from "../contract/coverage";
import type { AnswerOf } from "../contract/operation";
import { OPERATIONS } from "../contract/operations";
import type { KeptSnapshot } from "../contract/snapshot-select";
import type { ValueFormat } from "./cell-values";
import type { FunctionContext } from "./call-context";
import type { FunctionDef } from "./function-def";
import { parseOptions } from "./options";
import { sectionArg, sectionFunctionArg, sectionTable } from "./section-table";
import { SHAPE_OPTIONS, shapePairs, tableOptions, type Cell } from "./table-shape";

export const COVERAGE_SECTIONS = [
  "counts",
  "asset_types",
  "states",
  "listing_statuses",
  "company_types",
  "gaps",
  "snapshot",
  "snapshots",
] as const;
export type CoverageSection = (typeof COVERAGE_SECTIONS)[number];

/** The report's member each list section spills. */
const LISTS = {
  asset_types: "by_asset_type",
  states: "by_state",
  listing_statuses: "listings_by_status",
  company_types: "companies_by_type",
  gaps: "known_gaps",
} as const satisfies Record<Exclude<CoverageSection, "counts" | "snapshot" | "snapshots">, keyof CoverageFigures>;

/** The formats of a snapshot's moments: what `dates=` applies to, as for every date. */
function momentFormats(schema: { properties: Record<string, unknown> }): Record<string, ValueFormat> {
  return Object.fromEntries(
    Object.entries(schema.properties).flatMap(([name, s]): [string, ValueFormat][] => {
      const format = (s as { format?: string }).format;
      return format === "date-time" ? [[name, "datetime"]] : format === "date" ? [[name, "date"]] : [];
    }),
  );
}

/** The dates and moments of the snapshot section (captured_at, built_at). */
const SNAPSHOT_FORMATS = momentFormats(CoverageReport.properties.snapshot);

/** The snapshots section's row: each kept snapshot's id, capture, retirement and whether it is the latest. */
type SnapshotRow = { id: string; captured: string; retires: string | null; latest: boolean };
const SNAPSHOTS_FORMATS: Record<string, ValueFormat> = { captured: "datetime", retires: "datetime" };

/** The kept snapshots as the snapshots section spills them, newest first as the report lists them. */
export function snapshotRows(kept: readonly KeptSnapshot[]): SnapshotRow[] {
  return kept.map((k) => ({ id: k.id, captured: k.captured_at, retires: k.retires_at ?? null, latest: k.latest }));
}

const SECTION_ARG = sectionFunctionArg(
  COVERAGE_SECTIONS,
  "counts",
  `Which part of the report: ${COVERAGE_SECTIONS.join(", ")} (blank: counts).`,
);

/** The coverage report, as getCoverage answers it. */
type CoverageAnswer = AnswerOf<typeof OPERATIONS.getCoverage>;

/**
 * PROP.COVERAGE as a function definition. It spills a free report rather than records of one
 * resource, so it names none (the columns come from the section asked).
 */
export const COVERAGE: FunctionDef<CoverageAnswer, "getCoverage"> = {
  name: "COVERAGE",
  operation: "getCoverage",
  args: [SECTION_ARG],
  request(args, options) {
    sectionArg(args[0], COVERAGE_SECTIONS, "counts");
    return { operation: "getCoverage", params: {}, query: {}, options: parseOptions(options, SHAPE_OPTIONS), args };
  },
  table(report, call) {
    const section = sectionArg(call.args[0], COVERAGE_SECTIONS, "counts");
    const shape = tableOptions(call.options, null, "coverage");
    if (section === "counts") {
      const rows = Object.entries(report.counts ?? {}).map(([resource, count]) => ({ resource, count }));
      // An empty spill would look like a blank cell; say why instead.
      return sectionTable(rows, shape, "The service's snapshot reports no records.");
    }
    if (section === "snapshot") {
      const pairs = Object.entries({ ...report.snapshot, build_seconds: report.build_seconds });
      return shapePairs(
        pairs,
        ["field", "value"],
        { ...shape, cols: null, formats: SNAPSHOT_FORMATS },
        "The coverage report names no snapshot.",
      );
    }
    if (section === "snapshots") {
      return sectionTable(
        snapshotRows(report.snapshots ?? []),
        { ...shape, formats: { ...shape.formats, ...SNAPSHOTS_FORMATS } },
        "The coverage report lists no snapshots.",
      );
    }
    const rows: Record<string, unknown>[] = report[LISTS[section]] ?? [];
    return sectionTable(rows, shape, `The coverage report has no ${section.replace(/_/g, " ")}.`);
  },
};

/** PROP.COVERAGE's spill for these cells (the wrapper's body). */
export async function coverageTable(rawSection: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const call = COVERAGE.request([rawSection], options);
  const report = await ctx.session.api.call(OPERATIONS.getCoverage, {}, pinCall(call.options, ctx));
  return COVERAGE.table(report, call);
}
