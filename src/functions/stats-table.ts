// The `stats=true` spill of COMPARE and SALECOMPS: one row per numeric field with its count,
// mean, minimum, median and maximum, each figure in its field's form (a cap rate's mean is a
// percentage, like the cap rates it summarises).
import type { ComparisonStatistic } from "../contract/responses";
import { toCell, type Cell } from "./cell-values";
import { NoDataError } from "./excel-errors";
import type { LocalOption } from "./option-specs";
import { RESOURCES, fieldNames, type ResourceName } from "./record-fields";
import type { TableOptions } from "./table-shape";

export const STATS_OPTION: LocalOption = {
  name: "stats",
  kind: "boolean",
  help: "true spills count, mean, min, median and max of each numeric field.",
};

/** The fields of a resource that hold numbers: the ones statistics summarise. */
export function numericFields(resource: ResourceName): string[] {
  return RESOURCES[resource].filter((f) => f.numeric).map((f) => f.name);
}

export function statsTable(stats: readonly ComparisonStatistic[], shape: TableOptions): Cell[][] {
  if (stats.length === 0) throw new NoDataError("None of the chosen fields is numeric.");
  const columns = fieldNames("statistic");
  const figure = (s: ComparisonStatistic, column: string): Cell => {
    const value = s[column as keyof ComparisonStatistic];
    return column === "field" || column === "count"
      ? toCell(value, undefined, shape.forms)
      : toCell(value, shape.formats[s.field], shape.forms);
  };
  const rows = stats.map((s) => columns.map((c) => figure(s, c)));
  return shape.headers ? [[...columns], ...rows] : rows;
}
