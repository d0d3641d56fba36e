// PROP.MARKETHISTORY(geography, asset_type, metrics, [from], [to], [options]): one asset type's
// market series in a place or the whole country ("US"), as BDH gives a security's: a header row,
// then one row per period, oldest first, its end date as an Excel date and a column per metric in
// the order asked, and a note row when the series has something its numbers do not say.
// Every argument is checked before any request; the request itself goes through the session's
// market-history requests, which send cells asking the same market and period at once as one.
import type { MarketHistory, MarketHistoryPoint } from "../contract/history";
import { DEFAULT_HISTORY_METRICS, DEFAULT_WINDOW_QUARTERS } from "../contract/history";
import { ENDPOINTS, type ParamSpec } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { VALUE_OPTIONS } from "./cell-values";
import { notOptions } from "./argument-parsers";
import { readArgs, type FunctionArg, type OperationDef } from "./function-def";
import { assetTypeArgOf, placeArgOf } from "./function-args";
import { NoDataError } from "./excel-errors";
import { periodBoundArg, periodRange, type Bound } from "./history-periods";
import { parseOptions } from "./options";
import type { LocalOption, OptionValue } from "./option-specs";
import { checkParam, listItems } from "./param-values";
import { AS_OF_OPTION, pinCall } from "./snapshot-pin";
import { HEADERS_OPTION, shapeTable, tableOptions, type Cell, type TableOptions } from "./table-shape";
import { THIN_MARKET_PROPERTIES } from "../contract/market-sample";
import { quarterLabel, quarterOf } from "../contract/periods";

const SPEC = ENDPOINTS.getMarketHistory;
const input = (name: string): ParamSpec => SPEC.query.find((q) => q.name === name)!;

/** labels=true adds the period's name ("2016-Q1", or "2016" by year) beside its end date. */
export const LABELS_OPTION: LocalOption = {
  name: "labels",
  kind: "boolean",
  help: 'true adds a period column ("2016-Q1") after the date.',
};
/**
 * partial=true keeps the period holding the capture date, whose flows run only to that date.
 * Left out by default, so the last row is a whole period and a change over the last rows (QoQ,
 * YoY) compares like with like; kept, it is labelled with the date it runs to.
 */
export const PARTIAL_OPTION: LocalOption = {
  name: "partial",
  kind: "boolean",
  help: 'true keeps the period to date (labelled "2026-Q4 (to Nov 1)"); default false: whole periods only.',
};
/**
 * footer=false leaves out the note row a series ends with when it has something the numbers
 * alone do not say: it starts later than `from` asked (the history begins after that date), or
 * some of its periods are thin (fewer than THIN_MARKET_PROPERTIES properties stand behind them).
 */
export const NOTES_OPTION: LocalOption = {
  name: "footer",
  kind: "boolean",
  help: `false leaves out the note row saying the series starts after the from asked, or which periods are thin (fewer than ${THIN_MARKET_PROPERTIES} properties).`,
};
export const MARKET_HISTORY_OPTIONS = [
  HEADERS_OPTION,
  ...VALUE_OPTIONS,
  input("interval"),
  LABELS_OPTION,
  PARTIAL_OPTION,
  NOTES_OPTION,
  AS_OF_OPTION,
];

/** How the periods are shown: their names beside the dates, whether the period to date is kept, and the note row. */
export interface PeriodView {
  labels: boolean;
  partial: boolean;
  /** The note row after the periods, when there is something to note (default true). */
  notes?: boolean;
}

/** The query of GET /v1/commercial/markets/history, as the service takes it. */
export type MarketHistoryAsk = Record<string, string> & { geography: string; asset_type: string; metrics: string };

/** The metrics argument: comma-separated text or a range of names, in order; blank is the service's default set. */
export function metricsArg(raw: unknown): string {
  notOptions(raw, "metrics");
  if (listItems(raw, input("metrics").values).length === 0) return DEFAULT_HISTORY_METRICS.join(",");
  return String(checkParam(input("metrics"), raw, "metrics"));
}

/** One bound of the series: a date, a quarter or a year (history-periods.ts). */
function periodArg(bound: Bound, label: string, help: string): FunctionArg {
  return {
    name: bound,
    kind: "date",
    label,
    help,
    required: false,
    input: bound,
    in: "query",
    read: (raw) => {
      const value = periodBoundArg(raw, bound);
      return value === null ? {} : { [bound]: value };
    },
  };
}

/** PROP.MARKETHISTORY: one market's series, through the session's market-history requests. */
export const MARKETHISTORY: OperationDef<MarketHistory> = {
  name: "MARKETHISTORY",
  operation: "getMarketHistory",
  resource: "market_history",
  args: [
    placeArgOf("getMarketHistory", { required: true, national: true }),
    assetTypeArgOf("getMarketHistory", { required: true }),
    {
      name: "metrics",
      kind: "metrics",
      label: "Metrics",
      help: `Comma-separated, one column each in this order, e.g. ${DEFAULT_HISTORY_METRICS.join(",")}.`,
      required: false,
      input: "metrics",
      in: "query",
      param: input("metrics"),
      read: (raw) => ({ metrics: metricsArg(raw) }),
    },
    periodArg("from", "From", `A date (YYYY-MM-DD), a quarter (2016-Q1) or a year; blank: the last ${DEFAULT_WINDOW_QUARTERS} quarters.`),
    periodArg("to", "To", "A date, a quarter (2025-Q4) or a year; blank: up to the latest data."),
  ],
  request(args, options) {
    const { params, query } = readArgs(MARKETHISTORY.args, args);
    // A from after to can match nothing: refused here, free (relative bounds by the service).
    periodRange(args[3], args[4]);
    const parsed = parseOptions(options, MARKET_HISTORY_OPTIONS);
    const interval = parsed.get("interval") as string | undefined;
    if (interval) query.interval = interval;
    return { operation: "getMarketHistory", params, query, options: parsed, args };
  },
  /**
   * The series as historyTable spills it, with the labels, period to date and notes the options
   * ask for. A preview with no complete period shows the header alone.
   */
  table(series, call, view = {}) {
    if (!Array.isArray(series.periods)) throw new NoDataError("The service's answer holds no periods.");
    const shape = tableOptions(call.options, null, "market_history");
    const metrics = String(call.query.metrics).split(",");
    if (!view.preview) return historyTable(series, metrics, shape, viewOf(call.options));
    shape.forms = { ...shape.forms, formatted: true };
    const shown = series.periods.some((p) => p.complete);
    // With no period to show, one blank period gives the header; its row is dropped.
    const blank = { period: "", period_start: "", period_end: "", complete: true, property_count: 0, thin: false, values: {} };
    const table = historyTable(shown ? series : { ...series, periods: [blank] }, metrics, shape, viewOf(call.options));
    return shown ? table : table.slice(0, 1);
  },
};

/** Labels as asked; with the period to date kept and labels not set, labels on, so that period is marked. */
function viewOf(parsed: Map<string, OptionValue>): PeriodView {
  const partial = parsed.get("partial") === true;
  const labels = parsed.get("labels");
  return { partial, labels: labels === undefined ? partial : labels === true, notes: parsed.get("footer") !== false };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A period's name; the period to date says how far it runs: "2027-Q1 (to Jan 1)". */
export function periodLabel(p: MarketHistoryPoint): string {
  if (p.complete) return p.period;
  return `${p.period} (to ${MONTHS[Number(p.period_end.slice(5, 7)) - 1]} ${Number(p.period_end.slice(8, 10))})`;
}

/** "2016-Q1 to 2017-Q2, 2019-Q3": periods as runs of consecutive ones (quarters or years). */
function periodRuns(periods: readonly MarketHistoryPoint[]): string {
  const index = (p: MarketHistoryPoint) => (p.period.includes("-Q") ? quarterOf(p.period_start) : Number(p.period));
  const runs: [MarketHistoryPoint, MarketHistoryPoint][] = [];
  for (const p of periods) {
    const run = runs[runs.length - 1];
    if (run && index(p) === index(run[1]) + 1) run[1] = p;
    else runs.push([p, p]);
  }
  return runs.map(([a, b]) => (a === b ? periodLabel(a) : `${periodLabel(a)} to ${periodLabel(b)}`)).join(", ");
}

/**
 * What the numbers of a series do not say themselves, as one line: that it starts later than
 * `from` asked, and which periods are thin. Null when there is nothing to say.
 */
export function seriesNote(body: MarketHistory, periods: readonly MarketHistoryPoint[]): string | null {
  const notes: string[] = [];
  const coverage = body.coverage;
  if (coverage?.from_before_history && periods.length > 0) {
    const first = quarterLabel(quarterOf(coverage.first_held));
    notes.push(`Starts ${first}, the first quarter held: from (${coverage.requested_from}) is before the history.`);
  }
  const thin = periods.filter((p) => p.thin === true);
  if (thin.length === periods.length && thin.length > 0) {
    notes.push(`Thin: every period stands on fewer than ${THIN_MARKET_PROPERTIES} properties.`);
  } else if (thin.length > 0) {
    notes.push(`Thin (fewer than ${THIN_MARKET_PROPERTIES} properties): ${periodRuns(thin)}.`);
  }
  return notes.length ? notes.join(" ") : null;
}

/**
 * A series as the spill holds it: `period_end` (an Excel date), the period's name with
 * labels=true, then each metric asked in its order (rates as percentages, gaps empty). The
 * period to date only with `partial`. A note row ends it when the series starts after the
 * `from` asked or has thin periods (seriesNote; footer=false leaves it out): text in the first
 * cell and empty text after it, so the spill stays a rectangle and SUM, AVERAGE and the like
 * over a column skip it, as they skip a list's footer.
 */
export function historyTable(
  body: MarketHistory,
  metrics: readonly string[],
  shape: TableOptions,
  view: PeriodView = { labels: false, partial: false },
): Cell[][] {
  const columns = ["period_end", ...(view.labels ? ["period"] : []), ...metrics];
  const periods = view.partial ? body.periods : body.periods.filter((p) => p.complete);
  const rows = periods.map((p) => ({ period_end: p.period_end, period: periodLabel(p), ...p.values }));
  const where = `${body.asset_type} in ${body.geography_name}`;
  const leftOut = periods.length < body.periods.length ? " (the period to date is left out: partial=true keeps it)" : "";
  const table = shapeTable(
    rows,
    columns,
    { ...shape, cols: columns },
    `No ${body.interval} periods of ${where} in the dates asked${leftOut}.`,
  );
  const note = view.notes === false ? null : seriesNote(body, periods);
  if (note !== null) table.push([note, ...Array<Cell>(columns.length - 1).fill("")]);
  return table;
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
  const call = MARKETHISTORY.request([geography, assetType, metrics, from, to], options);
  const body = await ctx.session.marketHistory.series(call.query as MarketHistoryAsk, pinCall(call.options, ctx));
  return MARKETHISTORY.table(body, call);
}
