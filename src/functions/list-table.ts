// The common body of every list function (listFunction): its request from its arguments and
// options, and its spill from the pages that request starts.
import { pinCall } from "./snapshot-pin";
import { ENDPOINTS, type EndpointSpec, type OperationId } from "../shared/endpoints";
import { MAX_LIMIT } from "../contract/paging";
import { readArgs, type OperationDef, type ReadCall, type SpillView } from "./function-def";
import type { FunctionContext } from "./call-context";
import { mergeInputs } from "./argument-parsers";
import { InputError, NoDataError } from "./excel-errors";
import { STATS_OPTION, statsTable } from "./stats-table";
import type { ComparisonStatistic } from "../contract/responses";
import type { ListEnvelope } from "../contract/list-envelope";
import { impossibleRange } from "../contract/queries";
import { parseOptions } from "./options";
import type { OptionValue, ParamValue } from "./option-specs";
import { fieldNames } from "./record-fields";
import { fetchRows } from "./list-rows";
import { LIST_OPTIONS, listFooter, pagingOptions, shapeList, tableOptions, type Cell } from "./table-shape";
import { IDS_OPTION, cardColumn, type ListCell } from "./list-cards";
import { cardsSupported, type CardSpec } from "./property-card";

/** A list function: a FunctionDef whose answer is pages of records, spilled as a table. */
export interface ListFunctionSpec extends Omit<OperationDef, "request" | "table"> {
  /** What the cell says when nothing matches, given the path parameters. */
  empty: (params: Record<string, string>) => string;
  /** The function offers stats=true: the service's count, mean, min, median and max of every match's numeric fields. */
  stats?: true;
  /** Inputs sent unless the options give them (the function's own defaults), from the positional inputs. */
  defaults?: (positional: Record<string, ParamValue>) => Record<string, string> | undefined;
  /** A check of the positional inputs against the raw options text, before the options are read. */
  check?: (positional: Record<string, ParamValue>, options: unknown) => void;
  /** Rows fetched unless `limit` says otherwise (DEFAULT_ROWS when absent). */
  limit?: number;
  /** The function offers ids=cards: its rows' property id cells as cards of this kind (list-cards.ts). */
  cards?: CardSpec;
}

/** A list's answer: one page (the pane's preview), the pages a formula fetched, or one page with the statistics. */
export type ListAnswer = ListEnvelope<Record<string, unknown>, { statistics?: ComparisonStatistic[] }>;

export interface ListFunction extends OperationDef<ListAnswer> {
  /** The formula's spill: Cell values, and cards in the id column with ids=cards. */
  run(args: readonly unknown[], options: unknown, ctx: FunctionContext): Promise<ListCell[][]>;
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

/** The query inputs without the paging of one page. */
function withoutPaging(query: Record<string, ParamValue>): Record<string, ParamValue> {
  const { limit: _limit, offset: _offset, ...rest } = query;
  return rest;
}

/**
 * A list function from its definition: `request` checks the arguments and the options against
 * the endpoint's filters and the shaping options and gives the first page's request; `run`
 * fetches the pages and shapes the spill, ending with an "N of M rows" footer when the list is
 * cut, or, with stats=true, spills the service's statistics over every match. Everything that
 * can be wrong with the input is found before the first request.
 */
export function listFunction(def: ListFunctionSpec): ListFunction {
  const endpoint = ENDPOINTS[def.operation];
  // stats is the function's own option: asked of the service below, never sent as a filter.
  const spec = { ...endpoint, query: endpoint.query.filter((q) => q.name !== STATS_OPTION.name) };
  const fields = fieldNames(def.resource);
  const read = (args: readonly unknown[], options: unknown) => {
    const { params, query: positional } = readArgs(def.args, args);
    def.check?.(positional, options);
    const parsed = parseOptions(options, [
      ...LIST_OPTIONS,
      ...(def.stats ? [STATS_OPTION] : []),
      ...(def.cards ? [IDS_OPTION] : []),
      ...spec.query,
    ]);
    const shape = tableOptions(parsed, fields, def.resource);
    const paging = { ...pagingOptions(parsed), ...(def.limit && !parsed.has("limit") ? { limit: def.limit } : {}) };
    const query = { ...def.defaults?.(positional), ...mergeInputs(positional, splitOptions(parsed, spec)) };
    // A range that can match nothing is refused here, before a request is made.
    const range = impossibleRange(def.operation, query);
    if (range) throw new InputError(`options: ${range.detail}`);
    return { params, query, parsed, shape, paging };
  };
  const request = (args: readonly unknown[], options: unknown): ReadCall<OperationId> => {
    const { params, query, parsed, paging } = read(args, options);
    // The first page, as fetchRows asks for it (offset included: the same cache key).
    const page = { limit: Math.min(MAX_LIMIT, paging.limit), offset: paging.offset };
    return { operation: def.operation, params, query: { ...query, ...page }, options: parsed, args };
  };
  const table = (answer: ListAnswer, call: ReadCall, view: SpillView = {}): Cell[][] => {
    const parsed = call.options;
    const shape = tableOptions(parsed, fields, def.resource);
    if (view.preview) shape.forms = { ...shape.forms, formatted: true };
    if (parsed.get("stats") === true) {
      if (!Array.isArray(answer.statistics)) throw new NoDataError("The service's answer holds no statistics.");
      const byField = new Map(answer.statistics.map((s) => [s.field, s]));
      return statsTable(
        (shape.cols ?? fields).flatMap((c) => byField.get(c) ?? []),
        shape,
      );
    }
    const columns = def.columns ?? fields;
    const rows = answer.data;
    // A preview: the rows alone (an empty answer is its header alone), no footer.
    if (view.preview) return shapeList(rows, columns, shape, null, "");
    const total = typeof answer.total_count === "number" ? answer.total_count : rows.length;
    const paging = { ...pagingOptions(parsed), ...(def.limit && !parsed.has("limit") ? { limit: def.limit } : {}) };
    const query = withoutPaging(call.query);
    const asked = Object.entries({ ...call.params, ...query }).map(([k, v]) => `${k}=${v}`);
    const from = paging.offset > 0 ? ` from row ${paging.offset + 1}` : "";
    const empty = `${def.empty(call.params)}${asked.length ? ` for ${asked.join(", ")}` : ""}${from}.`;
    // "N of M" when the list shows fewer rows than match, unless footer=false (footer=true: always).
    const footer = ((parsed.get("footer") as boolean | undefined) ?? rows.length < total) ? listFooter(rows.length, total, paging) : null;
    return shapeList(rows, columns, shape, footer, empty);
  };
  const run = async (args: readonly unknown[], options: unknown, ctx: FunctionContext): Promise<ListCell[][]> => {
    const { params, query, parsed, shape, paging } = read(args, options);
    const call = request(args, options);
    ctx = pinCall(parsed, ctx);
    if (parsed.get("stats") === true) return table(await wholeStatistics(ctx, spec, params, query), call);
    const { rows, total } = await fetchRows(ctx, spec, params, withoutPaging(query), paging);
    const spill = table({ data: rows, total_count: total } as ListAnswer, call);
    if (!def.cards || parsed.get(IDS_OPTION.name) !== "cards" || !cardsSupported()) return spill;
    // The id column among the columns shown (the table's own choice of them).
    const columns = shape.cols ?? (def.columns ?? fields).filter((f) => f !== "object");
    const serviceUrl = await ctx.session.api.serviceUrl();
    return cardColumn(spill, rows, columns.indexOf(def.cards.idField), shape.headers ? 1 : 0, def.cards, serviceUrl);
  };
  return {
    name: def.name,
    operation: def.operation,
    resource: def.resource,
    columns: def.columns,
    args: def.args,
    request,
    table,
    run,
  };
}

/** The service's statistics over every matching record (stats=true): one request of one record, as they do not depend on the page. */
async function wholeStatistics(
  ctx: FunctionContext,
  spec: EndpointSpec,
  params: Record<string, string>,
  query: Record<string, string | number>,
): Promise<ListAnswer> {
  return ctx.session.api.get<ListAnswer>(spec, params, { ...query, stats: "true", limit: 1, offset: 0 }, ctx);
}
