// One valid search of each kind, for tests that need a search's request (its function's
// arguments and options) beside an answer: previewRows shapes an answer by that request.
import { checkSearch } from "../../src/taskpane/search-form";
import type { SearchKind } from "../../src/taskpane/search-kinds";
import { previewRows, type SearchAnswer, type SearchRequest } from "../../src/taskpane/search-request";

export const SAMPLE_VALUES: Record<SearchKind, Record<string, string>> = {
  listings: {},
  parcels: { geography: "Travis County, TX" },
  search: {},
  assetsearch: { asset_type: "industrial" },
  salecomps: { subject: "cp_0001a2b3" },
  history: { property_id: "cp_0001a2b3" },
  market: { geography: "TX", asset_type: "industrial" },
  markethistory: { geography: "TX", asset_type: "industrial", metrics: "vacancy_rate,sales_volume" },
  companies: { company_type: "owner" },
  portfolio: { owner: "co_0001a2b3" },
  footprint: { tenant: "co_00ff" },
};

/** The search of these values (the kind's sample when none), checked as the pane checks it. */
export function sampleSearch(kind: SearchKind, values: Record<string, string> = SAMPLE_VALUES[kind]): SearchRequest {
  const checked = checkSearch(kind, values);
  if (!checked.ok) throw new Error(`${kind}: ${JSON.stringify(checked.errors)}`);
  return checked.request;
}

/** previewRows of a fixture that holds only the members the test reads, for the kind's sample search. */
export const previewOf = (kind: SearchKind, body: unknown, values?: Record<string, string>) =>
  previewRows(sampleSearch(kind, values), body as SearchAnswer);
