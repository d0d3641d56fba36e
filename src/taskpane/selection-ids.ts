// "Compare selected rows": finds the property ids in the rows the user selected, checked
// before any request so a wrong selection costs nothing and the message says what to select.
// Whether each id exists is the service's answer (a 404 naming the unknown ids), not ours.
import type { CellValue, SelectedRows } from "./workbook-types";

/** The service compares 2 to 25 distinct properties in one call. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 25;

/** The same shape as the functions check (src/functions/param-values.ts). */
const PROPERTY_ID = /^cp_[A-Za-z0-9-]+$/;

/**
 * Id column headers, in order of preference. "property_id" comes first because the tables
 * that hold both name their own records in "id": DILIGENCE ("dil_…"), SALECOMPS ("sale_…"),
 * FOOTPRINT ("ten_…").
 */
const ID_HEADERS = ["property_id", "id"];

/** A selection the pane cannot compare; the message is what the pane shows. */
export class SelectionError extends Error {
  override readonly name = "SelectionError";
}

/** The distinct property ids of the selected rows, in the order they appear. */
export function propertyIdsFrom(selection: SelectedRows): string[] {
  const column = idColumn(selection);
  const ids: string[] = [];
  selection.rows.forEach((row, index) => {
    const text = cellText(row[column]);
    if (text === "") return; // A parcel or listing without a commercial property, or a gap.
    if (!PROPERTY_ID.test(text)) {
      throw new SelectionError(
        `Selected row ${index + 1} of ${selection.source} holds "${text}" where a property id (like cp_0001a2b3) should be.`,
      );
    }
    if (!ids.includes(text)) ids.push(text);
  });
  if (ids.length === 0)
    throw new SelectionError(
      `The selected rows of ${selection.source} hold no property ids; select the rows of the properties to compare.`,
    );
  if (ids.length < COMPARE_MIN) {
    throw new SelectionError(
      `Compare needs at least ${COMPARE_MIN} different properties; the selection has 1 (${ids[0]}). Select more rows.`,
    );
  }
  if (ids.length > COMPARE_MAX)
    throw new SelectionError(`Compare takes at most ${COMPARE_MAX} properties; the selection has ${ids.length}.`);
  return ids;
}

/** The id column's index: by its header, else the one column whose values all are property ids. */
function idColumn(selection: SelectedRows): number {
  const headers = (selection.header ?? []).map(headerName);
  for (const name of ID_HEADERS) {
    const index = headers.indexOf(name);
    if (index >= 0) return index;
  }
  const width = Math.max(0, ...selection.rows.map((row) => row.length));
  const candidates = Array.from({ length: width }, (_, i) => i).filter((i) => holdsOnlyPropertyIds(selection.rows, i));
  if (candidates.length === 1) return candidates[0];
  throw new SelectionError(
    `The selection in ${selection.source} has no property id column; select rows of a PROP.SEARCH, ASSETSEARCH, PORTFOLIO or COMPARE result, or of a table with an id column.`,
  );
}

function holdsOnlyPropertyIds(rows: CellValue[][], column: number): boolean {
  const values = rows.map((row) => cellText(row[column])).filter((text) => text !== "");
  return values.length > 0 && values.every((text) => PROPERTY_ID.test(text));
}

/** "Property ID", " property-id " and "property_id" are one header. */
function headerName(value: CellValue): string {
  return cellText(value)
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

function cellText(value: CellValue | undefined): string {
  return value === null || value === undefined ? "" : String(value).trim();
}
