// The PROP helper functions: what the snapshot holds, what the API offers, the fields of each
// resource and the credits left. Thin, documented wrappers read by the metadata generator
// (see functions.ts). None of them costs credits.
import { contextOf } from "./call-context";
import { catalogTable } from "./catalog-table";
import { coverageTable } from "./coverage-table";
import { credits as creditsTable } from "./credits";
import { withExcelErrors } from "./excel-errors";
import { fieldsTable } from "./fields-table";

/**
 * What the service's data snapshot holds: the number of records of each kind (properties, parcels, sales, ...).
 * @customfunction COVERAGE
 * @param [section] Optional: "counts" (default), "asset_types", "states", "listing_statuses", "company_types", "gaps" or "snapshot".
 * @param [options] Optional "key=value; ..." text: headers=false, cols=....
 * @param invocation Supplied by Excel.
 * @returns A table; by default the columns resource and count, one row per kind of record.
 */
export async function coverage(section?: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(() => coverageTable(section, options, contextOf(invocation)));
}

/**
 * What the API offers over this snapshot: endpoints and their credit cost, asset types and their search inputs, metros and more.
 * @customfunction CATALOG
 * @param [section] Optional: "endpoints" (default), "asset_types", "company_types", "listing_statuses", "listing_property_types", "metros", "paging" or "fields".
 * @param [options] Optional "key=value; ..." text: headers=false, cols=....
 * @param invocation Supplied by Excel.
 * @returns A table with a header row.
 */
export async function catalog(section?: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(() => catalogTable(section, options, contextOf(invocation)));
}

/**
 * The fields (columns) of a kind of record, with type and meaning: use them in cols= options and in PROP.PROPERTY.
 * @customfunction FIELDS
 * @param resource "property", "parcel", "listing", "sale_comp", "market", "asset_analysis", "breakdown", "portfolio_holding", "company", "tenant_location", "diligence_candidate" or "statistic".
 * @param [options] Optional "key=value; ..." text: headers=false, cols=field.
 * @returns A table with the columns field, type and description.
 */
export async function fields(resource: string, options?: string): Promise<any[][]> {
  return withExcelErrors(async () => fieldsTable(resource, options));
}

/**
 * The API credits left this period, as the service last reported them, and when they reset.
 * @customfunction CREDITS
 * @param [item] Optional single figure: "remaining", "limit", "used", "resets_at", "charged_this_session" or "as_of".
 * @param [options] Optional "key=value; ..." text: headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table of item and value, or the one figure asked for.
 */
export async function credits(item?: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(() => creditsTable(item, options, contextOf(invocation)));
}
