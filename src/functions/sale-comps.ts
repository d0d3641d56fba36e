// PROP.SALECOMPS(subject, [asset_type], [options]): captured sales around a subject property
// (most similar first, with distance and similarity) or in a state, city or metro (newest
// first), spilled as a header row and one row per comparable sale.
import { ENDPOINTS } from "../shared/endpoints";
import { isBlank, placeArg } from "./argument-parsers";
import { InputError } from "./excel-errors";
import { inputSpec, type FunctionArg } from "./function-def";
import { assetTypeArgOf } from "./function-args";
import { listFunction } from "./list-table";
import { SALE_COMP_CARD } from "./property-card";

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

/** A sale-comps subject: a property id, else a place (state, city, metro...). */
const SUBJECT_ARG: FunctionArg = {
  name: "subject",
  kind: "subject",
  label: "Subject",
  help: `A property id ("cp_0001a2b3"), or ${inputSpec("findSaleComps", "geography").help.replace(/^A place: /, "a place: ")}`,
  required: true,
  in: "query",
  read: (raw) => saleCompsSubject(raw),
};

export const SALECOMPS = listFunction({
  name: "SALECOMPS",
  operation: "findSaleComps",
  resource: "sale_comp",
  args: [
    SUBJECT_ARG,
    assetTypeArgOf("findSaleComps", { required: false, help: "Asset type; around a property it defaults to the property's own." }),
  ],
  // The radius and the recent-first order only mean something around a subject property; say so
  // instead of ignoring the one or sending the other to a free 400.
  check: (positional, options) => {
    if (positional.property_id || typeof options !== "string") return;
    if (/(^|;)\s*max_distance_miles\s*=/i.test(options)) {
      throw new InputError("options: max_distance_miles needs a property id as the subject (a radius around it).");
    }
    if (/(^|;)\s*prefer_sold_within_months\s*=/i.test(options)) {
      throw new InputError("options: prefer_sold_within_months needs a property id as the subject (it orders the comps around one).");
    }
  },
  empty: () => "No sale comps match",
  stats: true,
  cards: SALE_COMP_CARD,
});
