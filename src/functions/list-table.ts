// The common body of every list function: check the options against the endpoint's filters
// and the shaping options, merge them with the positional inputs, fetch the pages and shape
// the spill, ending with an "N of M rows" footer when the list is cut; or, with stats=true,
// spill the service's statistics over every match. Everything that can be wrong with the
// input is found before the first request.
import { pinCall } from "./snapshot-pin";
import type { EndpointSpec } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { mergeInputs } from "./argument-parsers";
import { InputError, NoDataError } from "./excel-errors";
import { STATS_OPTION, statsTable } from "./stats-table";
import type { ComparisonStatistic } from "../contract/responses";
import type { ListEnvelope } from "../contract/list-envelope";
import { impossibleRange } from "../contract/queries";
import { parseOptions } from "./options";
import type { OptionValue } from "./option-specs";
import { fieldNames, type ResourceName } from "./record-fields";
import { fetchRows } from "./list-rows";
import { LIST_OPTIONS, listFooter, pagingOptions, shapeList, tableOptions, type Cell } from "./table-shape";

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
  /** The function offers stats=true: the service's count, mean, min, median and max of every match's numeric fields. */
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
  // stats is the function's own option: asked of the service below, never sent as a filter.
  const spec = { ...call.spec, query: call.spec.query.filter((q) => q.name !== STATS_OPTION.name) };
  const parsed = parseOptions(call.options, [...LIST_OPTIONS, ...(call.stats ? [STATS_OPTION] : []), ...spec.query]);
  ctx = pinCall(parsed, ctx);
  const fields = fieldNames(call.resource);
  const shape = tableOptions(parsed, fields, call.resource);
  const paging = { ...pagingOptions(parsed), ...(call.limit && !parsed.has("limit") ? { limit: call.limit } : {}) };
  const query = { ...call.defaults, ...mergeInputs(call.positional, splitOptions(parsed, spec)) };
  // A range that can match nothing is refused here, before a request is made.
  const range = impossibleRange(call.spec.operationId, query);
  if (range) throw new InputError(`options: ${range.detail}`);
  if (parsed.get("stats") === true) return statsTable(await wholeStatistics(ctx, spec, call, query, shape.cols ?? fields), shape);
  const { rows, total } = await fetchRows(ctx, spec, call.pathParams ?? {}, query, paging);
  const asked = Object.entries({ ...call.pathParams, ...query }).map(([k, v]) => `${k}=${v}`);
  const from = paging.offset > 0 ? ` from row ${paging.offset + 1}` : "";
  const empty = `${call.empty}${asked.length ? ` for ${asked.join(", ")}` : ""}${from}.`;
  // "N of M" when the list shows fewer rows than match, unless footer=false (footer=true: always).
  const footer = ((parsed.get("footer") as boolean | undefined) ?? rows.length < total) ? listFooter(rows.length, total, paging) : null;
  return shapeList(rows, call.columns ?? fields, shape, footer, empty);
}

/**
 * The service's statistics over every matching record (stats=true), for the chosen columns that
 * hold numbers, in their order. One request of one record: the statistics do not depend on the page.
 */
async function wholeStatistics(
  ctx: FunctionContext,
  spec: EndpointSpec,
  call: ListCall,
  query: Record<string, string | number>,
  columns: readonly string[],
): Promise<ComparisonStatistic[]> {
  const body = await ctx.session.api.get<ListEnvelope<unknown, { statistics?: ComparisonStatistic[] }>>(
    spec,
    call.pathParams ?? {},
    { ...query, stats: "true", limit: 1, offset: 0 },
    ctx,
  );
  if (!Array.isArray(body.statistics)) throw new NoDataError("The service's answer holds no statistics.");
  const byField = new Map(body.statistics.map((s) => [s.field, s]));
  return columns.flatMap((c) => byField.get(c) ?? []);
}
