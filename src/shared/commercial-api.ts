// Direct, uncached calls the task pane makes (its connection check). The custom functions go
// through the cached gateway instead (cached-api.ts); paths are spelled once, in endpoints.ts.
import type { ApiClient } from "./api-client";
import { ENDPOINTS } from "./endpoints";

/**
 * GET /v1/commercial/coverage. Only `counts` is relied on here; the service also reports
 * capture times and known gaps, which the pane will show in a later version.
 */
export interface CoverageReport {
  object: "coverage";
  counts: Record<string, number>;
  [field: string]: unknown;
}

export function getCoverage(client: ApiClient, signal?: AbortSignal): Promise<CoverageReport> {
  return client.get<CoverageReport>(ENDPOINTS.getCoverage.path, undefined, signal);
}
