// PROP.SALECOMPS(subject, [asset_type], [options]): captured sales around a subject property
// (most similar first, with distance and similarity) or in a state, city or metro (newest
// first), spilled as a header row and one row per comparable sale.
import { ENDPOINTS } from "../shared/endpoints";
import type { FunctionContext } from "./call-context";
import { assetTypeArg, isBlank, placeArg } from "./argument-parsers";
import { InputError } from "./excel-errors";
import { listTable } from "./list-table";
import type { Cell } from "./table-shape";

const PROPERTY_ID = /^cp_[A-Za-z0-9-]+$/;

/** A property id means "comps around this property"; anything else is a geography. */
export function saleCompsSubject(raw: unknown): Record<string, string> {
  if (isBlank(raw)) {
    throw new InputError(
      'subject is empty: give a property id ("cp_0001a2b3") or a place, such as "TX", "Austin, TX" or "Austin, TX metro".',
    );
  }
  const text = String(raw).trim();
  if (/^cp_/i.test(text)) {
    if (!PROPERTY_ID.test(text)) throw new InputError(`subject: "${text}" is not a property id; ids look like cp_0001a2b3.`);
    return { property_id: text };
  }
  return placeArg(raw, ENDPOINTS.findSaleComps, "subject");
}

export function saleComps(subject: unknown, assetType: unknown, options: unknown, ctx: FunctionContext): Promise<Cell[][]> {
  const positional: Record<string, string> = {
    ...saleCompsSubject(subject),
    ...(isBlank(assetType) ? {} : { asset_type: assetTypeArg(assetType) }),
  };
  // The radius only means something around a subject property; say so instead of ignoring it.
  if (!positional.property_id && typeof options === "string" && /(^|;)\s*max_distance_miles\s*=/i.test(options)) {
    throw new InputError("options: max_distance_miles needs a property id as the subject (a radius around it).");
  }
  return listTable(
    { spec: ENDPOINTS.findSaleComps, positional, options, resource: "sale_comp", empty: "No sale comps match", stats: true },
    ctx,
  );
}
