// The common body of every list function: check the options against the endpoint's filters
// and the shaping options, merge them with the positional inputs, fetch the pages and shape
// the spill. Everything that can be wrong with the input is found before the first request.
import { pinCall } from "./snapshot-pin";
import type { EndpointSpec } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { mergeInputs } from "./argument-parsers";
import { InputError, NoDataError } from "./excel-errors";
import { STATS_OPTION, numericFields, statsTable } from "./stats-table";
import { fieldStatistics } from "../shared/contract/statistics";
import { impossibleRange } from "../shared/contract/queries";
import { parseOptions, type OptionValue } from "./options";
import { fieldNames, type ResourceName } from "./record-fields";
import { fetchRows } from "./list-rows";
import { LIST_OPTIONS, pagingOptions, shapeTable, tableOptions, type Cell } from "./table-shape";

export interface ListCall {
  spec: EndpointSpec;
  pathParams?: Record<string, string>;
  /** Inputs from the positional arguments, already checked. */
  positional: Record<string, string | number>;
  /** The raw options argument. */
  options: unknown;
  resource: ResourceName;
  /** What the cell says when nothing matches. */
  empty: string;
  /** The function offers stats=true: count, mean, min, median and max of the rows' numeric fields. */
  stats?: true;
  /** Inputs sent unless the options give them (the functions' own defaults). */
  defaults?: Record<string, string>;
  /** The columns shown unless `cols` says otherwise, when not every field (`cols` may still name any). */
  columns?: readonly string[];
  /** Rows fetched unless `limit` says otherwise (DEFAULT_ROWS when absent). */
  limit?: number;
}

/** The endpoint's filters given in options, ready for the query. */
export function splitOptions(parsed: Map<string, OptionValue>, spec: EndpointSpec): Record<string, string | number> {
  const filters: Record<string, string | number> = {};
  for (const q of spec.query) {
    const value = parsed.get(q.name);
    if (value !== undefined) filters[q.name] = value as string | number;
  }
  return filters;
}

export async function listTable(call: ListCall, ctx: FunctionContext): Promise<Cell[][]> {
  const parsed = parseOptions(call.options, [...LIST_OPTIONS, ...(call.stats ? [STATS_OPTION] : []), ...call.spec.query]);
  ctx = pinCall(parsed, ctx);
  const fields = fieldNames(call.resource);
  const shape = tableOptions(parsed, fields, call.resource);
  const paging = { ...pagingOptions(parsed), ...(call.limit && !parsed.has("limit") ? { limit: call.limit } : {}) };
  const query = { ...call.defaults, ...mergeInputs(call.positional, splitOptions(parsed, call.spec)) };
  // A range that can match nothing is refused here, before a request is made.
  const range = impossibleRange(call.spec.operationId, query);
  if (range) throw new InputError(`options: ${range.detail}`);
  const { rows } = await fetchRows(ctx, call.spec, call.pathParams ?? {}, query, paging);
  const asked = Object.entries({ ...call.pathParams, ...query }).map(([k, v]) => `${k}=${v}`);
  const from = paging.offset > 0 ? ` from row ${paging.offset + 1}` : "";
  const empty = `${call.empty}${asked.length ? ` for ${asked.join(", ")}` : ""}${from}.`;
  if (parsed.get("stats") === true) {
    if (rows.length === 0) throw new NoDataError(empty);
    const numeric = new Set(numericFields(call.resource));
    return statsTable(
      fieldStatistics(
        rows,
        (shape.cols ?? fields).filter((f) => numeric.has(f)),
      ),
      shape,
    );
  }
  return shapeTable(rows, call.columns ?? fields, shape, empty);
}
