// The PROP helper functions: what the snapshot holds, what the API offers, the fields of each
// resource and the credits left. Thin, documented wrappers read by the metadata generator
// (see functions.ts). None of them costs credits.
import { catalogTable } from "./catalog-table";
import { coverageTable } from "./coverage-table";
import { credits as creditsTable } from "./credits";
import { withExcelErrors } from "./excel-errors";
import { fieldsTable } from "./fields-table";

/**
 * What the service's data snapshot holds: the number of records of each kind (properties, parcels, sales, ...), or the snapshots it keeps and when each retires.
 * @customfunction COVERAGE
 * @helpurl http://localhost:3000/docs/functions#propcoverage
 * @requiresAddress
 * @param [section] Optional: "counts" (default), "asset_types", "states", "listing_statuses", "company_types", "gaps", "snapshot" or "snapshots".
 * @param [options] Optional "key=value; ..." text: headers=false, cols=..., dates=text (dates are Excel dates by default).
 * @param invocation Supplied by Excel.
 * @returns A table; by default the columns resource and count, one row per kind of record; "snapshots": id, captured, retires and latest.
 */
export async function coverage(section?: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => coverageTable(section, options, ctx));
}

/**
 * What the API offers over this snapshot: endpoints and their credit cost, asset types and their search inputs, metros and more.
 * @customfunction CATALOG
 * @helpurl http://localhost:3000/docs/functions#propcatalog
 * @requiresAddress
 * @param [section] Optional: "endpoints" (default), "asset_types", "company_types", "listing_statuses", "listing_property_types", "metros", "paging" or "fields".
 * @param [options] Optional "key=value; ..." text: headers=false, cols=....
 * @param invocation Supplied by Excel.
 * @returns A table with a header row.
 */
export async function catalog(section?: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => catalogTable(section, options, ctx));
}

/**
 * The fields (columns) of a kind of record, with type and meaning: use them in cols= options and in PROP.PROPERTY.
 * @customfunction FIELDS
 * @helpurl http://localhost:3000/docs/functions#propfields
 * @requiresAddress
 * @param resource "property", "parcel", "listing", "sale_comp", "market", "asset_analysis", "breakdown", "portfolio_holding", "company", "tenant_location", "diligence_candidate", "statistic" or "property_match".
 * @param [options] Optional "key=value; ..." text: headers=false, cols=field.
 * @param invocation Supplied by Excel.
 * @returns A table with the columns field, type and description.
 */
export async function fields(resource: string, options?: string, invocation?: CustomFunctions.Invocation): Promise<any[][]> {
  return withExcelErrors(invocation, async () => fieldsTable(resource, options));
}

/**
 * The API credits left this period, as the service last reported them, and when they reset.
 * @customfunction CREDITS
 * @helpurl http://localhost:3000/docs/functions#propcredits
 * @requiresAddress
 * @param [item] Optional single figure: "remaining", "limit", "used", "resets_at", "charged_this_session" or "as_of".
 * @param [options] Optional "key=value; ..." text: headers=false, dates=text (resets_at and as_of are Excel dates by default).
 * @param invocation Supplied by Excel.
 * @returns A table of item and value, or the one figure asked for.
 */
export async function credits(item?: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => creditsTable(item, options, ctx));
}
