// PROP.COMPARE(property_ids, [options]): selected properties side by side, one row each in
// the order given; with stats=true, the count, mean, minimum, median and maximum of each
// numeric field instead. Up to 100 ids: the service compares 25 at a time, so larger ranges are split
// into near-equal parts (26 ids are 13 + 13, never 25 + 1).
import { pinCall } from "./snapshot-pin";
import type { FunctionContext } from "./call-context";
import { propertyIdsArg } from "./argument-parsers";
import { parseOptions } from "./options";
import { fieldNames } from "./record-fields";
import { STATS_OPTION, numericFields, statsTable } from "./stats-table";
import { SHAPE_OPTIONS, shapeTable, tableOptions, type Cell } from "./table-shape";
import { COMPARE_BATCH } from "../shared/property-batching";
import { fieldStatistics } from "../contract/statistics";

export function chunkIds(ids: string[], size: number = COMPARE_BATCH): string[][] {
  const parts = Math.ceil(ids.length / size);
  const each = Math.ceil(ids.length / parts);
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += each) chunks.push(ids.slice(i, i + each));
  return chunks;
}

export async function compareTable(rawIds: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const ids = propertyIdsArg(rawIds);
  const parsed = parseOptions(options, [...SHAPE_OPTIONS, STATS_OPTION]);
  ctx = pinCall(parsed, ctx);
  const fields = fieldNames("property");
  const shape = tableOptions(parsed, fields, "property");
  const parts = await Promise.all(chunkIds(ids).map((chunk) => ctx.session.api.compare(chunk, ctx)));
  const rows = parts.flatMap((p) => p.properties);
  if (parsed.get("stats") !== true) return shapeTable(rows, fields, shape, "No properties to compare.");
  const numeric = new Set(numericFields("property"));
  const wanted = (shape.cols ?? fields).filter((f) => numeric.has(f));
  // One request: the service's statistics; several: the same figures over all the rows.
  const single = parts.length === 1 && wanted.every((f) => parts[0].statistics.some((s) => s.field === f));
  const stats = single ? wanted.map((f) => parts[0].statistics.find((s) => s.field === f)!) : fieldStatistics(rows, wanted);
  return statsTable(stats, shape);
}
