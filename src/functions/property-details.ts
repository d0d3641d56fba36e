// PROP.DETAILS(property_id, [options]): every field of one property, read down as field/value
// rows (or across with layout=columns). Shares the batched, cached record with PROP.PROPERTY.
import { pinCall } from "./snapshot-pin";
import type { CommercialProperty } from "../contract/records";
import type { FunctionContext } from "./call-context";
import type { OperationDef } from "./function-def";
import { parseOptions } from "./options";
import type { LocalOption, OptionValue } from "./option-specs";
import { PROPERTY_ARG, parsePropertyId } from "./property-field";
import { fieldNames } from "./record-fields";
import { SHAPE_OPTIONS, shapePairs, shapeTable, tableOptions, type Cell } from "./table-shape";

const LAYOUT_OPTION: LocalOption = { name: "layout", kind: "choice", values: ["rows", "columns"], help: "rows (default) or columns." };

const FIELDS = fieldNames("property").filter((f) => f !== "object");

const shapeOf = (parsed: Map<string, OptionValue>) => tableOptions(parsed, FIELDS, "property");

/** PROP.DETAILS: one property's record (getProperty, through the property batcher) as field/value rows. */
export const DETAILS: OperationDef<CommercialProperty> = {
  name: "DETAILS",
  operation: "getProperty",
  resource: "property",
  args: [PROPERTY_ARG],
  request(args, options) {
    const id = parsePropertyId(args[0]);
    const parsed = parseOptions(options, [...SHAPE_OPTIONS, LAYOUT_OPTION]);
    // cols is checked against the fields here, before the request.
    shapeOf(parsed);
    return { operation: "getProperty", params: { property_id: id }, query: {}, options: parsed, args };
  },
  table(property, call) {
    const record: Record<string, unknown> = property;
    const shape = shapeOf(call.options);
    const empty = `No details for ${call.params.property_id}.`;
    if (call.options.get("layout") === "columns") return shapeTable([record], FIELDS, shape, empty);
    return shapePairs(
      FIELDS.map((f): [string, unknown] => [f, record[f]]),
      ["field", "value"],
      shape,
      empty,
    );
  },
};

export async function propertyDetails(rawId: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const call = DETAILS.request([rawId], options);
  const record = await ctx.session.api.property(call.params.property_id, pinCall(call.options, ctx));
  return DETAILS.table(record as CommercialProperty, call);
}
