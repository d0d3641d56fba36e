// The PROP custom functions about properties and markets, as Excel sees them. This file and
// its two siblings (search-functions.ts, helper-functions.ts) are read by the metadata
// generator (custom-functions-metadata-plugin), which writes functions.json from the JSDoc
// below and appends the CustomFunctions.associate calls at build time. So they hold only thin,
// documented `export async function` wrappers; the work is done in the modules they call.
// Function ids are stable forever once released: workbooks store them.
// Every function takes Excel's invocation last: it says whether the call is a formula-edit
// preview (no metered request then), lets a cancelled call abort its request, and (with
// @requiresAddress) names the calling cell, under which withExcelErrors records the outcome
// for the pane.
import { assetAnalysis } from "./asset-analysis";
import { propertyCard } from "./card-function";
import { compareTable } from "./compare-table";
import { withExcelErrors } from "./excel-errors";
import { marketFigures } from "./market";
import { marketHistory } from "./market-history";
import { HISTORY } from "./property-history";
import { propertyDetails } from "./property-details";
import { propertyField } from "./property-field";
import { matchAddresses } from "./property-match";
import { SALECOMPS } from "./sale-comps";

/**
 * One field of a commercial property, such as its year built, size, owner or last sale price.
 * @customfunction PROPERTY
 * @helpurl http://localhost:3000/docs/functions#propproperty
 * @requiresAddress
 * @param property_id Property id, such as "cp_0001a2b3" (from a search result or a cell).
 * @param field Field to return, such as "year_built", "building_area_sqft", "owner_name" or "last_sale_price".
 * @param [options] Optional "key=value; ..." text: dates=text (or serial) for a date field, rates=fraction for a rate, as_of=2026-10-01 or as_of=snap_… for the data of that snapshot.
 * @param invocation Supplied by Excel.
 * @returns The field's value (dates as Excel dates, rates as percentages); #N/A with a reason when the property has no value for it.
 */
export async function property(
  property_id: string,
  field: string,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any> {
  return withExcelErrors(invocation, (ctx) => propertyField(property_id, field, options, ctx));
}

/**
 * The property id of a street address (or, with by=apn, of a parcel number), and with cols= or quality=true its match status, score and confidence. A range spills one row per address.
 * @customfunction MATCH
 * @helpurl http://localhost:3000/docs/functions#propmatch
 * @requiresAddress
 * @param address An address ("623 Washington Blvd, Austin, TX 78721") or its street line, or a one-column range of them; with by=apn, parcel numbers ("123-456-78"). A blank cell gives a blank row.
 * @param [city] Optional city: one value for every address, or a range of as many rows beside them; with by=apn, the county ("Travis" or FIPS "48453").
 * @param [state] Optional state ("TX" or "Texas"): one value for every address, or a range beside them.
 * @param [zip] Optional ZIP code ("78721"; the number 2134 is read as 02134): one value for every address, or a range beside them; none with by=apn.
 * @param [options] Optional "key=value; ..." text: by=apn, quality=true, cols=property_id,status,score,match,confidence,matched_address,candidates,detail, headers=true, as_of=2026-10-01.
 * @param invocation Supplied by Excel.
 * @returns One row per address: its property id (or the columns asked for); #N/A saying why (and the candidates) where it is not a unique match. 1 credit per row that names a property.
 */
export async function match(
  address: any[][],
  city?: any[][],
  state?: any[][],
  zip?: any[][],
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => matchAddresses(address, city, state, zip, options, ctx));
}

/**
 * Every field of one commercial property, as field and value rows.
 * @customfunction DETAILS
 * @helpurl http://localhost:3000/docs/functions#propdetails
 * @requiresAddress
 * @param property_id Property id, such as "cp_0001a2b3".
 * @param [options] Optional "key=value; ..." text: headers=false, cols=name,year_built, layout=columns, dates=text, rates=fraction.
 * @param invocation Supplied by Excel.
 * @returns A table with the columns field and value.
 */
export async function details(property_id: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => propertyDetails(property_id, options, ctx));
}

/**
 * Compares properties side by side: one row per property id in the range, in its order.
 * @customfunction COMPARE
 * @helpurl http://localhost:3000/docs/functions#propcompare
 * @requiresAddress
 * @param property_ids A range (or list) of 2 to 100 property ids; blank cells are skipped.
 * @param [options] Optional "key=value; ..." text: cols=name,year_built,occupancy_rate, stats=true for count/mean/min/median/max, headers=false, dates=text.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per property (or per field with stats=true).
 */
export async function compare(
  property_ids: any[][],
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => compareTable(property_ids, options, ctx));
}

/**
 * Comparable sales around a property (most similar first) or in a place (newest first).
 * @customfunction SALECOMPS
 * @helpurl http://localhost:3000/docs/functions#propsalecomps
 * @requiresAddress
 * @param subject A property id ("cp_0001a2b3"), or a place: state ("TX"), county ("Travis County, TX"), city ("Austin, TX"), ZIP ("78704") or metro ("Austin, TX metro").
 * @param [asset_type] Optional asset type, such as "industrial" or "multifamily" (a property subject defaults to its own).
 * @param [options] Optional "key=value; ..." text: limit=50, min_sale_date=2023 (any date form: 2023-01-01, 2023-Q1, -3Y), max_distance_miles=10, per_property=latest, sort=sale_price, stats=true, cols=sale_date,sale_price,cap_rate.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per comparable sale.
 */
export async function salecomps(
  subject: any,
  asset_type?: string,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => SALECOMPS.run([subject, asset_type], options, ctx));
}

/**
 * Market figures of one asset type in the whole country, a state, county, metro, city or ZIP code: vacancy, rent, cap rate, sales volume and more.
 * @customfunction MARKET
 * @helpurl http://localhost:3000/docs/functions#propmarket
 * @requiresAddress
 * @param geography The whole country ("US"), a state ("TX"), county ("Travis County, TX"), metro ("Austin, TX metro"), city ("Austin, TX") or ZIP code ("78704").
 * @param asset_type Asset type, such as "industrial", "office" or "multifamily".
 * @param [metric] Optional metric for a single number, such as "vacancy_rate", "asking_rent_sqft_year" or "median_cap_rate".
 * @param [options] Optional "key=value; ..." text: cols=vacancy_rate,median_cap_rate, layout=columns, headers=false, rates=fraction, dates=text.
 * @param invocation Supplied by Excel.
 * @returns The metric's value, or without a metric a table of metric and value.
 */
export async function market(
  geography: string,
  asset_type: string,
  metric?: string,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => marketFigures(geography, asset_type, metric, options, ctx));
}

/**
 * Aggregate figures of one asset type nationally or in a place: inventory, occupancy, vintage, pricing, sales.
 * @customfunction ANALYSIS
 * @helpurl http://localhost:3000/docs/functions#propanalysis
 * @requiresAddress
 * @param asset_type Asset type, such as "industrial".
 * @param [geography] Optional place: state ("TX"), county, metro ("Austin, TX metro"), city ("Austin, TX") or ZIP code; national when omitted.
 * @param [options] Optional "key=value; ..." text: breakdown=subtype (or building_class, state), cols=..., layout=columns, headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table of metric and value, or the breakdown table.
 */
export async function analysis(
  asset_type: string,
  geography?: string,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => assetAnalysis(asset_type, geography, options, ctx));
}

/**
 * A market's history, period by period, oldest first: asking rent, vacancy, cap rate, sales, inventory, absorption and more.
 * @customfunction MARKETHISTORY
 * @helpurl http://localhost:3000/docs/functions#propmarkethistory
 * @requiresAddress
 * @param geography The whole country ("US"), a state ("TX"), county ("Travis County, TX"), metro ("Austin, TX metro"), city ("Austin, TX") or ZIP code ("78704").
 * @param asset_type Asset type, such as "industrial", "office" or "multifamily".
 * @param metrics Metrics as comma-separated text ("asking_rent_sqft_year,vacancy_rate") or a range of names; blank for rent, vacancy and cap rate.
 * @param [from] Optional first period: a date, a year (2016), a quarter ("2016-Q1"), a month ("2016-03") or -8Q, -3Y, LQ, YTD. Default: ten years back.
 * @param [to] Optional last period: a date, a year, a quarter ("2025-Q4"), a month or LQ (the last complete quarter). Default: the latest data.
 * @param [options] Optional "key=value; ..." text: interval=year (default quarter), headers=false, labels=true, rates=fraction, dates=text.
 * @param invocation Supplied by Excel.
 * @returns A table: period_end (a date) and one column per metric, one row per period, oldest first.
 */
export async function markethistory(
  geography: string,
  asset_type: string,
  metrics: any[][],
  from?: any,
  to?: any,
  options?: string,
  invocation?: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => marketHistory(geography, asset_type, metrics, from, to, options, ctx));
}

/**
 * A property's history: when it was built, each sale (price, cap rate, buyer and seller) and each lease's start and expiration.
 * @customfunction HISTORY
 * @helpurl http://localhost:3000/docs/functions#prophistory
 * @requiresAddress
 * @param property_id Property id, such as "cp_0001a2b3".
 * @param [options] Optional "key=value; ..." text: event_type=sale,lease_start, from=2015 (any date form: 2015-01-01, 2015-Q1, -3Y), to=..., cols=date,description,price, limit=200, headers=false.
 * @param invocation Supplied by Excel.
 * @returns A table with a header row and one row per event.
 */
export async function history(property_id: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return withExcelErrors(invocation, (ctx) => HISTORY.run([property_id], options, ctx));
}

/**
 * A property as a card: the cell shows its name, the card its fields by section, and =A2.[Year built] reads one. Where Excel cannot show cards, the property id.
 * @customfunction CARD
 * @helpurl http://localhost:3000/docs/functions#propcard
 * @requiresAddress
 * @param property Property id ("cp_0001a2b3") or street address ("623 Washington Blvd, Austin, TX 78721"); an address must match one property.
 * @param [options] Optional "key=value; ..." text: as_of=2026-10-01 or as_of=snap_… for the data of that snapshot.
 * @param invocation Supplied by Excel.
 * @returns The property's card (an entity value); #N/A naming the candidates when an address is not a unique match.
 */
export async function card(property: string, options?: string, invocation?: CustomFunctions.CancelableInvocation): Promise<any> {
  return withExcelErrors(invocation, (ctx) => propertyCard(property, options, ctx));
}
