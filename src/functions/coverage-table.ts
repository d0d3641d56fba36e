// PROP.COVERAGE: what the service's snapshot holds, as a two-column spill.
import type { ApiClient } from "../shared/api-client";
import { getCoverage } from "../shared/commercial-api";
import { openClient } from "../shared/connection";
import { NoDataError } from "./excel-errors";

export const COVERAGE_HEADER = ["resource", "count"] as const;

export async function coverageTable(connect: () => Promise<ApiClient> = openClient): Promise<(string | number)[][]> {
  const report = await getCoverage(await connect());
  const rows: (string | number)[][] = Object.entries(report.counts ?? {}).map(([resource, count]) => [resource, count]);
  // An empty spill would look like a blank cell; say why instead.
  if (rows.length === 0) throw new NoDataError("The service's snapshot reports no records.");
  return [[...COVERAGE_HEADER], ...rows];
}
