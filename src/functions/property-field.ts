// PROP.PROPERTY: one field of one commercial property. Inputs are checked against the shared
// contract before any request, so a typo costs no credit and says what would have worked.
// The record comes through the batcher: a thousand such cells over a hundred properties cost
// four requests on the first calculation and none on the next.
import { AS_OF_OPTION, pinCall } from "./snapshot-pin";
import { CommercialProperty } from "../contract/records";
import type { FunctionContext } from "./call-context";
import { InputError, NoDataError } from "./excel-errors";
import { VALUE_OPTIONS, toCell, valueForms, type Cell } from "./cell-values";
import { parseOptions } from "./options";
import { fieldFormats } from "./record-fields";
import { nameIn } from "./field-names";
import { notOptions } from "./argument-parsers";

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

export async function propertyField(rawId: unknown, rawField: unknown, options: unknown, ctx: FunctionContext): Promise<Cell> {
  const id = parsePropertyId(rawId);
  const field = parseFieldName(rawField);
  const parsed = parseOptions(options, [...VALUE_OPTIONS, AS_OF_OPTION]);
  ctx = pinCall(parsed, ctx);
  const forms = valueForms(parsed);
  const record = await ctx.session.api.property(id, ctx);
  const value = record[field];
  if (value === null || value === undefined) throw new NoDataError(`${field} is not recorded for ${id}.`);
  return toCell(value, FORMATS[field], forms);
}
