// The PROP custom functions, as Excel sees them. This file is read by the metadata generator
// (custom-functions-metadata-plugin), which writes functions.json from the JSDoc below and
// appends the CustomFunctions.associate calls at build time. So it holds only thin, documented
// `export async function` wrappers; the work is done in the modules they call.
// Function ids are stable forever once released: workbooks store them.
import { coverageTable } from "./coverage-table";
import { withExcelErrors } from "./excel-errors";
import { propertyField } from "./property-field";

/**
 * One field of a commercial property, such as its year built, size, owner or last sale price.
 * @customfunction PROPERTY
 * @param property_id Property id, such as "cp_0001a2b3" (from a search result or a cell).
 * @param field Field to return, such as "year_built", "building_area_sqft", "owner_name" or "last_sale_price".
 * @returns The field's value; #N/A with a reason when the property has no value for it.
 */
export async function property(property_id: string, field: string): Promise<any> {
  return withExcelErrors(() => propertyField(property_id, field));
}

/**
 * What the service's data snapshot holds: the number of records of each kind (properties, parcels, sales, ...).
 * @customfunction COVERAGE
 * @returns A table with the columns resource and count, one row per kind of record.
 */
export async function coverage(): Promise<any[][]> {
  return withExcelErrors(() => coverageTable());
}
