// PROP.COVERAGE([section], [options]): what the service's snapshot holds. Free. The default
// section, counts, is the original two-column spill (resource, count); the others are the
// report's breakdowns, its known gaps and the snapshot's identity.
import { pinCall } from "./snapshot-pin";
import { CoverageReport, type CoverageFigures } from "../contract/coverage";
import type { ValueFormat } from "./cell-values";
import { ENDPOINTS } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { parseOptions } from "./options";
import { sectionArg, sectionTable } from "./section-table";
import { SHAPE_OPTIONS, shapePairs, tableOptions, type Cell } from "./table-shape";

export const COVERAGE_SECTIONS = ["counts", "asset_types", "states", "listing_statuses", "company_types", "gaps", "snapshot"] as const;

/** The report's member each list section spills. */
const LISTS = {
  asset_types: "by_asset_type",
  states: "by_state",
  listing_statuses: "listings_by_status",
  company_types: "companies_by_type",
  gaps: "known_gaps",
} as const satisfies Record<Exclude<(typeof COVERAGE_SECTIONS)[number], "counts" | "snapshot">, keyof CoverageFigures>;

/** The dates and moments of the snapshot section (captured_at, built_at), so dates= applies to them as to every date. */
const SNAPSHOT_FORMATS: Record<string, ValueFormat> = Object.fromEntries(
  Object.entries(CoverageReport.properties.snapshot.properties).flatMap(([name, schema]): [string, ValueFormat][] => {
    const format = (schema as { format?: string }).format;
    return format === "date-time" ? [[name, "datetime"]] : format === "date" ? [[name, "date"]] : [];
  }),
);

export async function coverageTable(rawSection: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const section = sectionArg(rawSection, COVERAGE_SECTIONS, "counts");
  const parsed = parseOptions(options, SHAPE_OPTIONS);
  ctx = pinCall(parsed, ctx);
  const shape = tableOptions(parsed, null, "coverage");
  const report = await ctx.session.api.get<CoverageReport>(ENDPOINTS.getCoverage, {}, {}, ctx);
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
  const rows: Record<string, unknown>[] = report[LISTS[section]] ?? [];
  return sectionTable(rows, shape, `The coverage report has no ${section.replace(/_/g, " ")}.`);
}
