// PROP.MARKETHISTORY(geography, asset_type, metrics, [from], [to], [options]): one asset type's
// market series in a place, as BDH gives a security's: a header row, then one row per period,
// oldest first, its end date as an Excel date and a column per metric in the order asked.
// Every argument is checked before any request; the request itself goes through the session's
// market-history requests, which send cells asking the same market and period at once as one.
import type { MarketHistory } from "../shared/contract/history";
import { DEFAULT_HISTORY_METRICS } from "../shared/contract/history";
import { ENDPOINTS, type ParamSpec } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { VALUE_OPTIONS } from "./cell-values";
import { assetTypeArg, notOptions, placeArg } from "./argument-parsers";
import { NoDataError } from "./excel-errors";
import { periodRange } from "./history-periods";
import { parseOptions, type LocalOption, type OptionValue } from "./options";
import { checkParam, listItems } from "./param-values";
import { AS_OF_OPTION, pinCall } from "./snapshot-pin";
import { HEADERS_OPTION, shapeTable, tableOptions, type Cell, type TableOptions } from "./table-shape";

const SPEC = ENDPOINTS.getMarketHistory;
const input = (name: string): ParamSpec => SPEC.query.find((q) => q.name === name)!;

/** labels=true adds the period's name ("2016-Q1", or "2016" by year) beside its end date. */
export const LABELS_OPTION: LocalOption = {
  name: "labels",
  kind: "boolean",
  help: 'true adds a period column ("2016-Q1") after the date.',
};
export const MARKET_HISTORY_OPTIONS = [HEADERS_OPTION, ...VALUE_OPTIONS, input("interval"), LABELS_OPTION, AS_OF_OPTION];

/** The query of GET /v1/commercial/markets/history, as the service takes it. */
export type MarketHistoryAsk = Record<string, string> & { geography: string; asset_type: string; metrics: string };

/** The metrics argument: comma-separated text or a range of names, in order; blank is the service's default set. */
export function metricsArg(raw: unknown): string {
  notOptions(raw, "metrics");
  if (listItems(raw, input("metrics").values).length === 0) return DEFAULT_HISTORY_METRICS.join(",");
  return String(checkParam(input("metrics"), raw, "metrics"));
}

/** Every argument and option read into the request and the spill's shape, before any request. */
export function marketHistoryCall(
  geography: unknown,
  assetType: unknown,
  metrics: unknown,
  from: unknown,
  to: unknown,
  options: unknown,
): { query: MarketHistoryAsk; shape: TableOptions; labels: boolean; parsed: Map<string, OptionValue> } {
  const query: MarketHistoryAsk = {
    ...placeArg(geography, SPEC),
    asset_type: assetTypeArg(assetType),
    metrics: metricsArg(metrics),
    ...periodRange(from, to),
  };
  const parsed = parseOptions(options, MARKET_HISTORY_OPTIONS);
  const interval = parsed.get("interval") as string | undefined;
  if (interval) query.interval = interval;
  return { query, shape: tableOptions(parsed, null, "market_history"), labels: labelsOf(parsed), parsed };
}

function labelsOf(parsed: Map<string, OptionValue>): boolean {
  return parsed.get("labels") === true;
}

/**
 * A series as the spill holds it: `period_end` (an Excel date), the period's name with
 * labels=true, then each metric asked in its order (rates as percentages, gaps empty).
 */
export function historyTable(body: MarketHistory, metrics: readonly string[], shape: TableOptions, labels: boolean): Cell[][] {
  const columns = ["period_end", ...(labels ? ["period"] : []), ...metrics];
  const rows = body.periods.map((p) => ({ period_end: p.period_end, period: p.period, ...p.values }));
  const where = `${body.asset_type} in ${body.geography_name}`;
  return shapeTable(rows, columns, { ...shape, cols: columns }, `No ${body.interval} periods of ${where} in the dates asked.`);
}

export async function marketHistory(
  geography: unknown,
  assetType: unknown,
  metrics: unknown,
  from: unknown,
  to: unknown,
  options: unknown,
  ctx: FunctionContext,
): Promise<Cell[][]> {
  const { query, shape, labels, parsed } = marketHistoryCall(geography, assetType, metrics, from, to, options);
  const body = await ctx.session.marketHistory.series(query, pinCall(parsed, ctx));
  if (!Array.isArray(body.periods)) throw new NoDataError("The service's answer holds no periods.");
  return historyTable(body, query.metrics.split(","), shape, labels);
}
