// The v1 commercial endpoints the add-in calls, typed. One function per endpoint; paths are
// spelled here once. Record types come from the shared contract (type-only imports, so the
// contract's schema code is not pulled in by this module).
import type { CommercialProperty } from "./contract/records";
import type { ApiClient } from "./api-client";

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
  return client.get<CoverageReport>("/v1/commercial/coverage", undefined, signal);
}

/** GET /v1/commercial/properties/{property_id}: the bare record. */
export function getProperty(client: ApiClient, propertyId: string, signal?: AbortSignal): Promise<CommercialProperty> {
  return client.get<CommercialProperty>(`/v1/commercial/properties/${encodeURIComponent(propertyId)}`, undefined, signal);
}
