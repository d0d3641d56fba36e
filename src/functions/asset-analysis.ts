// PROP.ANALYSIS(asset_type, [geography], [options]): aggregate figures of one asset type,
// nationally or in a place (state, county, metro, city or ZIP code), as metric/value rows; or, with breakdown=subtype,
// building_class or state, the breakdown table.
import { pinCall } from "./snapshot-pin";
import { ENDPOINTS } from "../shared/endpoints";
import { OPERATIONS } from "../contract/operations";
import { isNational } from "../contract/places";
import type { FunctionContext } from "./call-context";
import type { AssetAnalysis, AssetBreakdown } from "../contract/responses";
import { isBlank, placeArg } from "./argument-parsers";
import { readArgs, type FunctionArg, type OperationDef } from "./function-def";
import { assetTypeArgOf, placeArgOf } from "./function-args";
import { parseOptions } from "./options";
import type { LocalOption, OptionValue } from "./option-specs";
import { fieldNames } from "./record-fields";
import { SHAPE_OPTIONS, shapePairs, shapeTable, tableOptions, type Cell } from "./table-shape";

const BREAKDOWN_OPTION: LocalOption = {
  name: "breakdown",
  kind: "choice",
  values: ["subtype", "building_class", "state"],
  help: "spill the breakdown by subtype, building class or state instead of the totals.",
};
/** The breakdown table an option value names. */
function breakdownRows(analysis: AssetAnalysis, breakdown: string): AssetBreakdown[] {
  switch (breakdown) {
    case "subtype":
      return analysis.by_subtype;
    case "building_class":
      return analysis.by_building_class;
    case "state":
      return analysis.by_state;
    default:
      return [];
  }
}

const LAYOUT_OPTION: LocalOption = { name: "layout", kind: "choice", values: ["rows", "columns"], help: "rows (default) or columns." };

/** An optional place; none, or the whole country ("US", "United States"), is the national analysis. */
const PLACE_ARG: FunctionArg = {
  ...placeArgOf("analyseAssetType", { required: false }),
  read: (raw, label = "geography"): Record<string, string> =>
    isBlank(raw) || isNational(raw) ? {} : placeArg(raw, ENDPOINTS.analyseAssetType, label),
};

/** The spill's columns and shape for the options: the breakdown's, or the analysis's figures. */
function analysisShape(parsed: Map<string, OptionValue>) {
  const breakdown = parsed.get("breakdown") as string | undefined;
  const fields = breakdown ? fieldNames("breakdown") : fieldNames("asset_analysis").filter((f) => f !== "object");
  return { breakdown, fields, shape: tableOptions(parsed, fields, breakdown ? "breakdown" : "analysis") };
}

/** PROP.ANALYSIS: one asset type's aggregate figures, nationally or in a place. */
export const ANALYSIS: OperationDef<AssetAnalysis> = {
  name: "ANALYSIS",
  operation: "analyseAssetType",
  resource: "asset_analysis",
  args: [assetTypeArgOf("analyseAssetType", { required: true, in: "path" }), PLACE_ARG],
  request(args, options) {
    const { params, query } = readArgs(ANALYSIS.args, args);
    const parsed = parseOptions(options, [...SHAPE_OPTIONS, BREAKDOWN_OPTION, LAYOUT_OPTION]);
    // cols is checked against the fields here, before the request, not when the answer is shaped.
    analysisShape(parsed);
    return { operation: "analyseAssetType", params, query, options: parsed, args };
  },
  /** Metric/value rows (or across with layout=columns), or with breakdown= that breakdown's table. */
  table(record, call, view = {}) {
    const { asset_type } = call.params;
    const query = call.query as { geography?: string };
    const parsed = call.options;
    const { breakdown, fields, shape } = analysisShape(parsed);
    if (view.preview) shape.forms = { ...shape.forms, formatted: true };
    const where = `${asset_type} ${query.geography ? `in ${query.geography}` : "nationally"}`;
    if (breakdown) {
      const national = breakdown === "state" && !isBlank(call.args[1]) ? " (the state breakdown is national only)" : "";
      return shapeTable(breakdownRows(record, breakdown), fields, shape, `No ${breakdown} breakdown for ${where}${national}.`);
    }
    const figures: Record<string, unknown> = record;
    if (parsed.get("layout") === "columns") return shapeTable([record], fields, shape, `No analysis for ${where}.`);
    return shapePairs(
      fields.map((f): [string, unknown] => [f, figures[f]]),
      ["metric", "value"],
      shape,
      `No analysis for ${where}.`,
    );
  },
};

export async function assetAnalysis(assetType: unknown, geography: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const call = ANALYSIS.request([assetType, geography], options);
  const record = await ctx.session.api.call(
    OPERATIONS.analyseAssetType,
    { params: call.params as { asset_type: string }, query: call.query },
    pinCall(call.options, ctx),
  );
  return ANALYSIS.table(record, call);
}
