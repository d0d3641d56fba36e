// Count, mean, minimum, median and maximum of numeric fields across records: the compare
// endpoint's `statistics` and sale comps' `stats=true`, computed by the service over every
// matching record, and by the add-in where it has the records itself (a comparison that took
// several requests).
import type { TObject, TSchema } from "@sinclair/typebox";
import type { ComparisonStatistic } from "./responses";

export function fieldStatistics(records: readonly Record<string, unknown>[], fields: readonly string[]): ComparisonStatistic[] {
  return fields.map((field) => {
    const values = records
      .map((r) => r[field])
      .filter((v): v is number => typeof v === "number")
      .sort((a, b) => a - b);
    const n = values.length;
    const mid = n >> 1;
    return {
      field,
      count: n,
      mean: n ? values.reduce((s, v) => s + v, 0) / n : null,
      min: n ? values[0] : null,
      median: n === 0 ? null : n % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2,
      max: n ? values[n - 1] : null,
    };
  });
}

/** The fields of a record schema that hold numbers (nullable or not), in the schema's order. */
export function numericFieldsOf(record: TObject): string[] {
  const numeric = (s: TSchema) => [s.type].flat().some((t) => t === "number" || t === "integer");
  return Object.entries(record.properties)
    .filter(([, schema]) => numeric(schema))
    .map(([name]) => name);
}
