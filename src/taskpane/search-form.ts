// A search's form as the pane shows it, built from the service's free catalog: selects filled
// with this snapshot's asset types, subtypes, company types, listing vocabularies and metros,
// and, once an asset type is chosen, the inputs its data cannot answer disabled with the
// catalog's reason. checkSearch checks every value the way the functions check it, so a search
// the pane lets through is one its formula accepts, and nothing is sent that the service (or
// Excel) would refuse.
import type { Catalog } from "../contract/responses";
import { MAX_LIMIT } from "../contract/paging";
import { PLACE_PARAMS } from "../contract/queries";
import { isBlank } from "../functions/argument-parsers";
import { InputError } from "../functions/excel-errors";
import { canonical, checkParam } from "../functions/param-values";
import { DEFAULT_ROWS } from "../functions/table-shape";
import { LIMIT_FIELD, SEARCH_KINDS, type CatalogList, type SearchField, type SearchKind } from "./search-kinds";
import { readField, type SearchRequest } from "./search-request";

export type { Catalog };

export interface FormField extends SearchField {
  /** select: the choices; text: suggestions. */
  options?: string[];
  /** What to show for an option whose value is an id (metros: "Austin-Round Rock, TX"). */
  optionLabels?: Record<string, string>;
  disabled: boolean;
  /** Why the field is disabled (the catalog's words). */
  reason?: string;
  /** What is wrong with the value typed so far. */
  error?: string;
}

type AssetTypeEntry = Catalog["asset_types"][number];

/** The catalog's entry for the asset type chosen in the form, if one is chosen and known. */
function chosenAssetType(values: Record<string, string>, catalog: Catalog | null): AssetTypeEntry | undefined {
  const raw = values.asset_type;
  if (!catalog || isBlank(raw)) return undefined;
  return catalog.asset_types.find((a) => canonical(a.asset_type) === canonical(raw));
}

function catalogOptions(
  list: CatalogList,
  catalog: Catalog,
  assetType: AssetTypeEntry | undefined,
): Pick<FormField, "options" | "optionLabels"> {
  switch (list) {
    case "asset_types":
      return { options: catalog.asset_types.map((a) => a.asset_type) };
    case "subtypes": {
      // Before an asset type is chosen, every subtype the snapshot has.
      const subtypes = assetType ? assetType.subtypes : catalog.asset_types.flatMap((a) => a.subtypes);
      return { options: [...new Set(subtypes)].sort() };
    }
    case "metros":
      return {
        options: catalog.metros.map((m) => m.metro_id),
        optionLabels: Object.fromEntries(catalog.metros.map((m) => [m.metro_id, m.name])),
      };
    default:
      return { options: [...catalog[list]] };
  }
}

/** Why `input` cannot be used with the chosen asset type, or undefined when it can. */
function unsupportedReason(kind: SearchKind, input: string, assetType: AssetTypeEntry | undefined): string | undefined {
  if (!SEARCH_KINDS[kind].assetFilters || !assetType) return undefined;
  return assetType.unsupported_inputs.find((u) => u.input === input)?.reason;
}

/**
 * The form of `kind` for the values entered so far. `catalog` is null while it loads: the
 * selects then offer the fixed vocabularies of v1. Errors are shown for values typed, not
 * for required fields still blank (checkSearch reports those when the user searches).
 */
export function formFor(kind: SearchKind, catalog: Catalog | null, values: Record<string, string>): { fields: FormField[] } {
  const assetType = chosenAssetType(values, catalog);
  const checked = checkSearch(kind, values, catalog ?? undefined);
  const errors = checked.ok ? {} : checked.errors;
  const fields = SEARCH_KINDS[kind].fields.map((field): FormField => {
    const out: FormField = { ...field, disabled: false };
    if (field.catalogList && catalog) Object.assign(out, catalogOptions(field.catalogList, catalog, assetType));
    const reason = unsupportedReason(kind, field.name, assetType);
    if (reason) Object.assign(out, { disabled: true, reason });
    if (!isBlank(values[field.name]) && errors[field.name]) out.error = errors[field.name];
    return out;
  });
  return { fields };
}

export type CheckedSearch = { ok: true; request: SearchRequest } | { ok: false; errors: Record<string, string> };

/**
 * Checks every value before any request, with the functions' own parsers and bounds, and
 * returns the search with its values normalised. With the catalog, an input the chosen asset
 * type does not support is refused here rather than by the service (400 unsupported_filter).
 */
export function checkSearch(kind: SearchKind, values: Record<string, string>, catalog?: Catalog): CheckedSearch {
  const spec = SEARCH_KINDS[kind];
  const errors: Record<string, string> = {};
  const normalised: Record<string, string> = {};
  const fieldOf = new Map<string, string>(); // query input -> the field it came from
  for (const field of spec.fields) {
    const raw = values[field.name];
    if (field.name === LIMIT_FIELD.name) continue;
    if (isBlank(raw)) {
      if (field.required) errors[field.name] = `${field.label} is required.`;
      continue;
    }
    try {
      const inputs = readField(kind, field.name, raw);
      normalised[field.name] = inputs.normalised;
      for (const input of Object.keys(inputs.query)) fieldOf.set(input, field.name);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      errors[field.name] = err.message;
    }
  }
  // PROP.SALECOMPS refuses a radius without a subject property (sale-comps.ts): so does the pane.
  if (kind === "salecomps" && normalised.max_distance_miles !== undefined && !fieldOf.has("property_id") && !errors.subject) {
    errors.max_distance_miles = "Radius needs a property id as the subject (it is a radius around that property).";
  }
  // The history searches refuse a from after to, as PROP.MARKETHISTORY and PROP.HISTORY do (both are ISO dates here).
  const { from, to } = normalised;
  if (from !== undefined && to !== undefined && from > to && !errors.from)
    errors.from = `${labelOf(kind, "from")} is after ${labelOf(kind, "to")}: nothing can match.`;
  // The functions take the place once (mergeInputs in argument-parsers.ts): the place field, or
  // an input naming one kind of place (county_fips), not both.
  const place = fieldOf.get("geography");
  for (const [input, name] of fieldOf) {
    if (place === undefined || name === place || !(PLACE_PARAMS as readonly string[]).includes(input) || errors[name]) continue;
    errors[name] = `${labelOf(kind, name)} and ${labelOf(kind, place)} both name the place; give it once (clear one of them).`;
  }
  const assetType = chosenAssetType(normalised, catalog ?? null);
  for (const [input, name] of fieldOf) {
    const reason = unsupportedReason(kind, input, assetType);
    if (reason && !errors[name]) errors[name] = `Not available for ${assetType!.asset_type}: ${reason}.`;
  }
  const limit = readLimit(values.limit);
  if (typeof limit === "string") errors.limit = limit;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, request: { kind, values: normalised, limit: limit as number } };
}

function labelOf(kind: SearchKind, name: string): string {
  return SEARCH_KINDS[kind].fields.find((f) => f.name === name)?.label ?? name;
}

/** The preview's page size: one request, so at most the service's page (the formula may ask for more itself). */
function readLimit(raw: string | undefined): number | string {
  if (isBlank(raw)) return DEFAULT_ROWS;
  try {
    return checkParam(
      { name: LIMIT_FIELD.name, kind: "integer", min: 1, max: MAX_LIMIT, help: LIMIT_FIELD.help },
      raw,
      LIMIT_FIELD.label,
    ) as number;
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
}
