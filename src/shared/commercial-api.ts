// Direct, uncached calls the task pane makes (its connection check, with a key not yet saved). The custom functions go
// through the cached gateway instead (cached-api.ts); paths are spelled once, in endpoints.ts.
import type { ApiClient } from "./api-client";
import { ENDPOINTS } from "./endpoints";

/**
 * GET /v1/commercial/coverage. The pane relies on `counts` and `snapshot` (id and capture
 * time, for its status card); the other members (per-state counts, known gaps) pass through.
 */
export interface CoverageReport {
  object: "coverage";
  counts: Record<string, number>;
  snapshot?: { id: string; captured_at?: string };
  [field: string]: unknown;
}

export function getCoverage(client: ApiClient, signal?: AbortSignal): Promise<CoverageReport> {
  return client.get<CoverageReport>(ENDPOINTS.getCoverage.path, undefined, signal);
}
