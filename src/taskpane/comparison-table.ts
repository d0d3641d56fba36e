// The comparison sheet the pane writes for "Compare selected rows": the properties side by
// side as columns and the fields as rows, so 2 to 25 properties read across like a broker's
// comparison grid, with the minimum, median and maximum of each numeric field at the right.
import type { PropertyComparison } from "../contract/responses";
import { toCellValue } from "./cell-text";
import type { CellValue } from "./workbook-types";

/** The compare answer as the sheet reads it: each property's fields by name (the fields compared vary). */
export type Comparison = Pick<PropertyComparison, "fields" | "statistics" | "snapshot"> & { properties: Record<string, unknown>[] };

const STATISTIC_HEADERS = ["Minimum", "Median", "Maximum"];

/** Header row, an id row, then one row per field; every row as wide as the header. */
export function comparisonRows(comparison: Comparison): CellValue[][] {
  const { properties } = comparison;
  const statistics = new Map(comparison.statistics.map((s) => [s.field, s]));
  const blanks = STATISTIC_HEADERS.map((): CellValue => "");
  const header: CellValue[] = ["Field", ...properties.map((p) => toCellValue(columnTitle(p))), ...STATISTIC_HEADERS];
  const idRow: CellValue[] = ["id", ...properties.map((p) => toCellValue(p.id)), ...blanks];
  const fieldRows = comparison.fields
    .filter((field) => field !== "id")
    .map((field): CellValue[] => {
      const stat = statistics.get(field);
      const figures = stat ? [stat.min, stat.median, stat.max].map(toCellValue) : blanks;
      return [toCellValue(field), ...properties.map((p) => toCellValue(p[field])), ...figures];
    });
  return [header, idRow, ...fieldRows];
}

/** A property's name heads its column; its id when it has no name, so every column is labelled. */
function columnTitle(property: Record<string, unknown>): unknown {
  const name = property.name;
  return typeof name === "string" && name.trim() !== "" ? name : property.id;
}
