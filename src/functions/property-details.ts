// PROP.DETAILS(property_id, [options]): every field of one property, read down as field/value
// rows (or across with layout=columns). Shares the batched, cached record with PROP.PROPERTY.
import { pinCall } from "./snapshot-pin";
import type { FunctionContext } from "./call-context";
import { parseOptions } from "./options";
import type { LocalOption } from "./option-specs";
import { parsePropertyId } from "./property-field";
import { fieldNames } from "./record-fields";
import { SHAPE_OPTIONS, shapePairs, shapeTable, tableOptions, type Cell } from "./table-shape";

const LAYOUT_OPTION: LocalOption = { name: "layout", kind: "choice", values: ["rows", "columns"], help: "rows (default) or columns." };

export async function propertyDetails(rawId: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const id = parsePropertyId(rawId);
  const parsed = parseOptions(options, [...SHAPE_OPTIONS, LAYOUT_OPTION]);
  ctx = pinCall(parsed, ctx);
  const fields = fieldNames("property").filter((f) => f !== "object");
  const shape = tableOptions(parsed, fields, "property");
  const record = await ctx.session.api.property(id, ctx);
  if (parsed.get("layout") === "columns") return shapeTable([record], fields, shape, `No details for ${id}.`);
  return shapePairs(
    fields.map((f): [string, unknown] => [f, record[f]]),
    ["field", "value"],
    shape,
    `No details for ${id}.`,
  );
}
