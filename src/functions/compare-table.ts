// PROP.COMPARE(property_ids, [options]): selected properties side by side, one row each in
// the order given; with stats=true, the count, mean, minimum, median and maximum of each
// numeric field instead. Up to 100 ids: the service compares 25 at a time, so larger ranges are split
// into near-equal parts (26 ids are 13 + 13, never 25 + 1).
import { pinCall } from "./snapshot-pin";
import type { FunctionContext } from "./call-context";
import { propertyIdsArg } from "./argument-parsers";
import type { FunctionArg, OperationDef } from "./function-def";
import { parseOptions } from "./options";
import type { OptionValue } from "./option-specs";
import { fieldNames } from "./record-fields";
import { STATS_OPTION, numericFields, statsTable } from "./stats-table";
import { SHAPE_OPTIONS, shapeTable, tableOptions, type Cell } from "./table-shape";
import { ALL_PROPERTY_FIELDS, COMPARE_BATCH } from "../shared/property-batching";
import { fieldStatistics } from "../contract/statistics";
import type { PropertyComparison } from "../contract/responses";

export function chunkIds(ids: string[], size: number = COMPARE_BATCH): string[][] {
  const parts = Math.ceil(ids.length / size);
  const each = Math.ceil(ids.length / parts);
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += each) chunks.push(ids.slice(i, i + each));
  return chunks;
}

/** The ids to compare: a range or list, blanks skipped, each once. They go in the body, not the query. */
const IDS_ARG: FunctionArg = {
  name: "property_ids",
  kind: "property_ids",
  label: "Property ids",
  help: "A range (or list) of 2 to 100 property ids; blank cells are skipped.",
  required: true,
  in: "query",
  read: (raw) => {
    propertyIdsArg(raw);
    return {};
  },
};

const FIELDS = fieldNames("property");

const shapeOf = (parsed: Map<string, OptionValue>) => tableOptions(parsed, FIELDS, "property");

/** The body of one comparison: these ids, every field of each. */
export const compareBody = (ids: string[]) => ({ property_ids: ids, fields: ALL_PROPERTY_FIELDS });

/**
 * PROP.COMPARE: its request is compareProperties with every id in the body; the formula sends it
 * in parts of at most 25 ids (chunkIds), so its answer is the comparisons of those parts, in order.
 */
export const COMPARE: OperationDef<PropertyComparison[]> = {
  name: "COMPARE",
  operation: "compareProperties",
  resource: "property",
  args: [IDS_ARG],
  request(args, options) {
    const ids = propertyIdsArg(args[0]);
    const parsed = parseOptions(options, [...SHAPE_OPTIONS, STATS_OPTION]);
    // cols is checked against the fields here, before any request.
    shapeOf(parsed);
    return { operation: "compareProperties", params: {}, query: {}, body: compareBody(ids), options: parsed, args };
  },
  /** One row per property; with stats=true, the statistics of each numeric column asked. */
  table(parts, call) {
    const shape = shapeOf(call.options);
    const rows = parts.flatMap((p) => p.properties);
    if (call.options.get("stats") !== true) return shapeTable(rows, FIELDS, shape, "No properties to compare.");
    const numeric = new Set(numericFields("property"));
    const wanted = (shape.cols ?? FIELDS).filter((f) => numeric.has(f));
    // One request: the service's statistics; several: the same figures over all the rows.
    const single = parts.length === 1 && wanted.every((f) => parts[0].statistics.some((s) => s.field === f));
    const stats = single ? wanted.map((f) => parts[0].statistics.find((s) => s.field === f)!) : fieldStatistics(rows, wanted);
    return statsTable(stats, shape);
  },
};

export async function compareTable(rawIds: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const call = COMPARE.request([rawIds], options);
  ctx = pinCall(call.options, ctx);
  const ids = (call.body as ReturnType<typeof compareBody>).property_ids;
  const parts = await Promise.all(chunkIds(ids).map((chunk) => ctx.session.api.compare(chunk, ctx)));
  return COMPARE.table(parts, call);
}
