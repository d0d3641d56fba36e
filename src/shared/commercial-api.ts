// Direct, uncached calls the task pane makes (its connection check, with a key not yet saved). The custom functions go
// through the cached gateway instead (cached-api.ts); paths are spelled once, in the contract (endpoints.ts reads them).
import type { ApiClient } from "./api-client";
import type { CoverageReport } from "../contract/coverage";
import { ENDPOINTS } from "./endpoints";

/** GET /v1/commercial/coverage: the pane shows its snapshot (id and capture time) on the status card. */
export function getCoverage(client: ApiClient, signal?: AbortSignal): Promise<CoverageReport> {
  return client.get<CoverageReport>(ENDPOINTS.getCoverage.path, undefined, signal);
}
