// What the pane's status line says about the connection. Plain functions over the API client,
// so the wording can be tested without a DOM or Office.
import type { ApiClient } from "../shared/api-client";
import { ApiError } from "../shared/api-error";
import { getCoverage, type CoverageReport } from "../shared/commercial-api";
import { openClient } from "../shared/connection";

/** Calls coverage (it costs no credit) to prove the base URL and key work; returns the status text. */
export async function checkConnection(connect: () => Promise<ApiClient> = openClient): Promise<string> {
  const client = await connect();
  return describeCoverage(client.baseUrl, await getCoverage(client));
}

export function describeCoverage(baseUrl: string, report: CoverageReport): string {
  const counts = Object.entries(report.counts ?? {})
    .map(([resource, count]) => `${count.toLocaleString("en-US")} ${resource}`)
    .join(", ");
  return `Connected to ${baseUrl}.${counts ? ` The snapshot holds ${counts}.` : ""}`;
}

/** The status line for a failed check: the service's own words for 4xx, a request id for 5xx. */
export function describeConnectionError(err: unknown): string {
  if (!(err instanceof ApiError)) return `Not connected: ${err instanceof Error ? err.message : String(err)}`;
  // The client's own wording points at this pane; here, say what to do in it.
  if (err.code === "not_configured") return "Not connected yet: paste your API key and choose Save and test.";
  if (err.status === 401) return `Not connected: the service did not accept the API key. ${err.message}`;
  if (err.status >= 500) {
    return `Not connected: the service had a problem${err.requestId ? ` (request ${err.requestId})` : ""}.`;
  }
  return `Not connected: ${err.message}`;
}
