// PROP.PROPERTY: one field of one commercial property. Inputs are checked against the shared
// contract before any request, so a typo costs no credit and says what would have worked.
// The record comes through the batcher: a thousand such cells over a hundred properties cost
// four requests on the first calculation and none on the next.
// One definition (PROPERTY): its arguments, its request (getProperty) and its one cell.
import { AS_OF_OPTION, pinCall } from "./snapshot-pin";
import { CommercialProperty } from "../contract/records";
import type { FunctionContext } from "./call-context";
import { InputError, NoDataError } from "./excel-errors";
import { VALUE_OPTIONS, toCell, valueForms, type Cell } from "./cell-values";
import { parseOptions } from "./options";
import { fieldFormats } from "./record-fields";
import { nameIn } from "./field-names";
import { notOptions } from "./argument-parsers";
import { PROPERTY_ID_ARG } from "./function-args";
import type { FunctionArg, OperationDef } from "./function-def";

/** Field names of a commercial property record, in the contract's order. */
export const PROPERTY_FIELDS: readonly string[] = Object.keys(CommercialProperty.properties);

const ID_PATTERN = new RegExp(CommercialProperty.properties.id.pattern ?? "^.+$");

// A few fields to suggest when a name is not recognised (the full list would not fit).
const SUGGESTED_FIELDS = ["name", "asset_type", "year_built", "building_area_sqft", "owner_name", "last_sale_price"];

export function parsePropertyId(value: unknown, label = "property_id"): string {
  const id = typeof value === "string" ? value.trim() : "";
  if (!id) throw new InputError(`${label} is empty: give a property id such as cp_0001a2b3.`);
  if (!ID_PATTERN.test(id)) {
    throw new InputError(`"${id}" is not a property id; ids look like cp_0001a2b3.`);
  }
  return id;
}

/** A property field by its name or its label ("Year Built" is year_built), in any case and spacing. */
export function parseFieldName(value: unknown): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) throw new InputError(`field is empty: give a field name such as ${SUGGESTED_FIELDS.join(", ")}.`);
  notOptions(text, "field");
  const field = nameIn(PROPERTY_FIELDS, text);
  if (!field) {
    throw new InputError(`"${text}" is not a property field; try ${SUGGESTED_FIELDS.join(", ")} (=PROP.FIELDS("property") lists all).`);
  }
  return field;
}

const FORMATS = fieldFormats("property");

/** A property id, read with the property functions' own messages. */
export const PROPERTY_ARG: FunctionArg = { ...PROPERTY_ID_ARG, read: (raw, label) => ({ property_id: parsePropertyId(raw, label) }) };

/** The field a PROP.PROPERTY cell shows: read from the record, not sent. */
const FIELD_ARG: FunctionArg = {
  name: "field",
  kind: "field",
  label: "Field",
  help: 'A property field, such as year_built or owner_name (=PROP.FIELDS("property") lists them).',
  required: true,
  in: "query",
  read: (raw) => {
    parseFieldName(raw);
    return {};
  },
};

/**
 * PROP.PROPERTY: one field of one property's record. The request is getProperty's; the record
 * comes through the property batcher (CachedApi.property), which caches it as that request's answer.
 */
export const PROPERTY: OperationDef<CommercialProperty> = {
  name: "PROPERTY",
  operation: "getProperty",
  resource: "property",
  args: [PROPERTY_ARG, FIELD_ARG],
  request(args, options) {
    const id = parsePropertyId(args[0]);
    parseFieldName(args[1]);
    const parsed = parseOptions(options, [...VALUE_OPTIONS, AS_OF_OPTION]);
    return { operation: "getProperty", params: { property_id: id }, query: {}, options: parsed, args };
  },
  /** The one cell: the field's value, or #N/A with a reason when the record has none. */
  table(record, call) {
    const field = parseFieldName(call.args[1]);
    const value = (record as Record<string, unknown>)[field];
    if (value === null || value === undefined) throw new NoDataError(`${field} is not recorded for ${call.params.property_id}.`);
    return [[toCell(value, FORMATS[field], valueForms(call.options))]];
  },
};

export async function propertyField(rawId: unknown, rawField: unknown, options: unknown, ctx: FunctionContext): Promise<Cell> {
  const call = PROPERTY.request([rawId, rawField], options);
  const record = await ctx.session.api.property(call.params.property_id, pinCall(call.options, ctx));
  return PROPERTY.table(record as CommercialProperty, call)[0][0];
}
