// The PROP list functions: searches and company tables, each spilling a header row and one
// row per record. Thin, documented wrappers read by the metadata generator (see functions.ts),
// each calling its function's definition (function-def.ts) with the cells Excel passes.
// Each takes a trailing options text: headers, cols, limit (up to 1,000 rows, fetched 100 a
// page), offset, dates, and the endpoint's own filters.
import { COMPANIES, FOOTPRINT, PORTFOLIO } from "./company-tables";
import { withExcelErrors } from "./excel-errors";
import { ASSETSEARCH, DILIGENCE, LISTINGS, PARCELS, SEARCH } from "./property-searches";

/**
 * Searches commercial properties of every asset type by text and place.
 * @customfunction SEARCH
 * @helpurl http://localhost:3000/docs/functions#propsearch
 * @requiresAddress
 * @param [text] Optional words to match in name, address, city, owner or subtype, such as "warehouse"; end a word with * to match its start.
 * @param [geography] Optional place: state ("TX"), county ("Travis County, TX"), city ("Austin, TX"), ZIP ("78704") or metro ("Austin, TX metro").
 * @param [options] Optional "key=value; ..." text: asset_type=office, min_building_area_sqft=50000, owner_name=..., limit=100, cols=name,city, headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per property.
 */
export async function search(
  text?: string,
  geography?: any,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => SEARCH.run([text, geography], options, ctx));
}

/**
 * Searches properties of one asset type, with the inputs the data supports for it (size, units, land, owner).
 * @customfunction ASSETSEARCH
 * @helpurl http://localhost:3000/docs/functions#propassetsearch
 * @requiresAddress
 * @param asset_type Asset type, such as "industrial" or "multifamily".
 * @param [geography] Optional place: state ("TX"), county ("Travis County, TX"), city ("Austin, TX"), ZIP ("78704") or metro ("Austin, TX metro").
 * @param [options] Optional "key=value; ..." text: min_building_area_sqft=100000, subtype=warehouse, q=..., limit=100, cols=..., headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per property.
 */
export async function assetsearch(
  asset_type: string,
  geography?: any,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => ASSETSEARCH.run([asset_type, geography], options, ctx));
}

/**
 * Assessor parcels: APN, land use, assessed values, tax and last sale.
 * @customfunction PARCELS
 * @helpurl http://localhost:3000/docs/functions#propparcels
 * @requiresAddress
 * @param [geography] Optional place: state ("TX"), county ("Travis County, TX"), city ("Austin, TX") or ZIP code ("78704").
 * @param [options] Optional "key=value; ..." text: county_fips=48453, apn=..., land_use=commercial, limit=100, cols=..., headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per parcel.
 */
export async function parcels(geography?: any, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => PARCELS.run([geography], options, ctx));
}

/**
 * Property listings, newest first: price, status, days on market, broker.
 * @customfunction LISTINGS
 * @helpurl http://localhost:3000/docs/functions#proplistings
 * @requiresAddress
 * @param [geography] Optional place: state ("TX"), city ("Austin, TX") or ZIP code ("78704").
 * @param [status] Optional status: "active", "pending", "sold", "withdrawn" or "expired".
 * @param [options] Optional "key=value; ..." text: property_type=condo, min_price=250000, max_price=..., min_bedrooms=3, limit=100, cols=..., headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per listing.
 */
export async function listings(
  geography?: any,
  status?: string,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => LISTINGS.run([geography, status], options, ctx));
}

/**
 * Companies of one type (owners, tenants, brokers, lenders, property managers, developers), largest first.
 * @customfunction COMPANIES
 * @helpurl http://localhost:3000/docs/functions#propcompanies
 * @requiresAddress
 * @param company_type "owner", "tenant", "broker", "lender", "property-manager" or "developer".
 * @param [name] Optional part of the company name.
 * @param [options] Optional "key=value; ..." text: state_code=TX (headquarters), limit=100, cols=name,property_count, headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per company.
 */
export async function companies(
  company_type: string,
  name?: string,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => COMPANIES.run([company_type, name], options, ctx));
}

/**
 * The properties an owner holds, largest first, each with the evidence (recorded sale or ownership record).
 * @customfunction PORTFOLIO
 * @helpurl http://localhost:3000/docs/functions#propportfolio
 * @requiresAddress
 * @param owner Owner company id ("co_0001a2b3") or name (exact, else the one owner whose name contains it; several: #VALUE! listing them).
 * @param [options] Optional "key=value; ..." text: asset_type=office, geography=TX, limit=100, cols=..., name_match=best (the largest of several), headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per property held.
 */
export async function portfolio(owner: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => PORTFOLIO.run([owner], options, ctx));
}

/**
 * Every location a tenant occupies, soonest lease expiry first, with leased area and rent.
 * @customfunction FOOTPRINT
 * @helpurl http://localhost:3000/docs/functions#propfootprint
 * @requiresAddress
 * @param tenant Tenant company id ("co_0001a2b3") or name (exact, else the one tenant whose name contains it; several: #VALUE! listing them).
 * @param [options] Optional "key=value; ..." text: asset_type=retail, geography=TX, limit=100, cols=..., dates=text, name_match=best, headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per location.
 */
export async function footprint(tenant: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => FOOTPRINT.run([tenant], options, ctx));
}

/**
 * Properties ranked by a 0-100 score of reasons to look closer (occupancy below market, lease rollover, long hold...).
 * @customfunction DILIGENCE
 * @helpurl http://localhost:3000/docs/functions#propdiligence
 * @requiresAddress
 * @param [asset_type] Optional asset type, such as "office".
 * @param [geography] Optional place: state ("TX"), county, city ("Austin, TX"), ZIP code or metro ("Austin, TX metro").
 * @param [options] Optional "key=value; ..." text: min_score=60, limit=100, cols=property_name,score,reason_codes, headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per candidate, highest score first.
 */
export async function diligence(
  asset_type?: string,
  geography?: string,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => DILIGENCE.run([asset_type, geography], options, ctx));
}
