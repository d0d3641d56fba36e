// PROP.MARKET(geography, asset_type, [metric], [options]): one asset type's market figures in
// the whole country ("US"), a state, county, metro, city or ZIP code. With a metric, one number
// (=PROP.MARKET("Austin, TX","industrial","vacancy_rate")); without, a spill of metric and value.
import { AS_OF_OPTION, pinCall } from "./snapshot-pin";
import type { EndpointSpec } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { isBlank, notOptions, placeArg } from "./argument-parsers";
import { readArgs, type FunctionArg, type OperationDef } from "./function-def";
import type { MarketSnapshot } from "../contract/records";
import { assetTypeArgOf, placeArgOf } from "./function-args";
import { NATIONAL_PLACE, isNational } from "../contract/places";
import { InputError, NoDataError } from "./excel-errors";
import { parseOptions } from "./options";
import type { LocalOption } from "./option-specs";
import { nameIn } from "./field-names";
import { fieldNames } from "./record-fields";
import { VALUE_OPTIONS, toCell } from "./cell-values";
import { SHAPE_OPTIONS, shapePairs, shapeTable, tableOptions, type Cell } from "./table-shape";

export const MARKET_METRICS: readonly string[] = fieldNames("market").filter((f) => f !== "object");
const LAYOUT_OPTION: LocalOption = {
  name: "layout",
  kind: "choice",
  values: ["rows", "columns"],
  help: "rows (default): one metric per row; columns: metric names across, values below.",
};

/** A market's geography: the whole country ("US", "United States", "national") as "US", else a place of the grammar. */
export function marketPlaceArg(raw: unknown, spec: EndpointSpec, label = "geography"): { geography: string } {
  return isNational(raw) ? { geography: NATIONAL_PLACE } : placeArg(raw, spec, label);
}

/** A market metric by its name or label ("Vacancy Rate" is vacancy_rate), in any case and spacing. */
export function marketMetric(raw: unknown): string {
  notOptions(raw, "metric");
  const metric = nameIn(MARKET_METRICS, String(raw));
  if (!metric) {
    throw new InputError(
      `metric: "${String(raw).trim()}" is not a market metric; =PROP.FIELDS("market") lists them (e.g. vacancy_rate, median_cap_rate).`,
    );
  }
  return metric;
}

/** A market metric: the cell shows that one number; blank, the whole snapshot. Not part of the request. */
const METRIC_ARG: FunctionArg = {
  name: "metric",
  kind: "metric",
  label: "Metric",
  help: 'A market metric, such as vacancy_rate (=PROP.FIELDS("market") lists them); blank: every figure.',
  required: false,
  in: "query",
  read: (raw) => {
    if (!isBlank(raw)) marketMetric(raw);
    return {};
  },
};

/** PROP.MARKET: one market's figures, from the markets batch (CachedApi.market caches each as this request's answer). */
export const MARKET: OperationDef<MarketSnapshot> = {
  name: "MARKET",
  operation: "getMarketSnapshot",
  resource: "market",
  args: [
    placeArgOf("getMarketSnapshot", { required: true, national: true }),
    assetTypeArgOf("getMarketSnapshot", { required: true }),
    METRIC_ARG,
  ],
  request(args, options) {
    const { params, query } = readArgs(MARKET.args, args);
    const wanted = !isBlank(args[2]);
    const parsed = parseOptions(options, wanted ? [...VALUE_OPTIONS, AS_OF_OPTION] : [...SHAPE_OPTIONS, LAYOUT_OPTION]);
    // cols is checked against the metrics here, before the request, not when the answer is shaped.
    tableOptions(parsed, MARKET_METRICS, "market");
    return { operation: "getMarketSnapshot", params, query, options: parsed, args };
  },
  /** With a metric, that one number; without, metric/value rows (or across with layout=columns). */
  table(snapshot, call, view = {}) {
    const query = call.query as { geography: string; asset_type: string };
    const wanted = isBlank(call.args[2]) ? null : marketMetric(call.args[2]);
    const shape = tableOptions(call.options, MARKET_METRICS, "market");
    if (view.preview) shape.forms = { ...shape.forms, formatted: true };
    const record: Record<string, unknown> = snapshot;
    const where = `${query.asset_type} in ${String(record.geography_name ?? query.geography)}`;
    if (wanted) {
      const value = record[wanted];
      if (value === null || value === undefined) throw new NoDataError(`${wanted} is not recorded for ${where}.`);
      return [[toCell(value, shape.formats[wanted], shape.forms)]];
    }
    if (call.options.get("layout") === "columns") return shapeTable([record], MARKET_METRICS, shape, `No market figures for ${where}.`);
    const pairs = MARKET_METRICS.map((m): [string, unknown] => [m, record[m]]);
    return shapePairs(pairs, ["metric", "value"], shape, `No market figures for ${where}.`);
  },
};

export async function marketFigures(
  geography: unknown,
  assetType: unknown,
  metric: unknown,
  options: unknown,
  ctx: FunctionContext,
): Promise<Cell[][]> {
  const call = MARKET.request([geography, assetType, metric], options);
  const query = call.query as { geography: string; asset_type: string };
  // Markets asked for in the same calculation travel together (one batch request).
  const record = await ctx.session.api.market(query.geography, query.asset_type, pinCall(call.options, ctx));
  return MARKET.table(record as MarketSnapshot, call);
}
