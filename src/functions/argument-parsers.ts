// Positional arguments that mean more than one thing: a place that may be a state, a county,
// a city, a ZIP code or a metro; a sale-comps subject that may be a property; a range of
// property ids.
// Each turns into the query inputs the service expects, or a #VALUE! saying what would work.
import { ENDPOINTS, type EndpointSpec, type ParamSpec } from "../shared/endpoints";
import { PLACE_PARAMS } from "../contract/queries";
import { COMPANY_TYPES } from "../contract/vocabulary";
import { InputError } from "./excel-errors";
import { checkParam, withoutHeader } from "./param-values";

export const ASSET_TYPE = ENDPOINTS.searchProperties.query.find((q) => q.name === "asset_type")!;
export const COMPANY_TYPE: ParamSpec = {
  name: "company_type",
  kind: "enum",
  values: COMPANY_TYPES,
  help: `One of ${COMPANY_TYPES.join(", ")}.`,
};

export function isBlank(raw: unknown): boolean {
  return raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "");
}

/**
 * Refuses "key=value" text in an argument that is not the options: options typed one slot too
 * early ("limit=5" as PROP.MARKET's metric) are called what they are.
 */
export function notOptions(raw: unknown, label: string): void {
  if (typeof raw === "string" && /^\s*[A-Za-z_]+\s*=/.test(raw)) {
    throw new InputError(`${label}: "${raw.trim()}" looks like options; options go in the last argument.`);
  }
}

export function assetTypeArg(raw: unknown): string {
  notOptions(raw, "asset_type");
  return checkParam(ASSET_TYPE, raw, "asset_type") as string;
}

export function companyTypeArg(raw: unknown): string {
  return checkParam(COMPANY_TYPE, raw, "company_type") as string;
}

/** A place argument as the endpoint's `geography` input, in its canonical form ("austin tx" -> "Austin, TX"). */
export function placeArg(raw: unknown, spec: EndpointSpec, label = "geography"): { geography: string } {
  const param = spec.query.find((q) => q.name === "geography");
  if (!param) throw new Error(`${spec.operationId} takes no geography`);
  return { geography: String(checkParam(param, raw, label)) };
}

/** Adds positional inputs to options' filters; the same input given both ways is an error. */
export function mergeInputs(
  positional: Record<string, string | number>,
  filters: Record<string, string | number>,
): Record<string, string | number> {
  for (const name of Object.keys(positional)) {
    if (name in filters) throw new InputError(`${name} is given twice: as an argument and in options.`);
  }
  const merged = { ...filters, ...positional };
  // The place is named once: `geography` (which takes every form), or the single-purpose inputs.
  const others = PLACE_PARAMS.filter((p) => p !== "geography" && p in merged);
  if ("geography" in merged && others.length > 0) {
    const where = "geography" in positional ? "the geography argument" : "geography";
    throw new InputError(`The place is given twice: ${where} and ${others.join(", ")} in options; give it once.`);
  }
  return merged;
}

/** Most property ids one COMPARE takes (four compare requests). */
export const MAX_COMPARE_IDS = 100;
const PROPERTY_ID = /^cp_[A-Za-z0-9-]+$/;

/**
 * A range (or one cell) of property ids: blanks, zeros (what an `=IF(...,"",A1)` chain leaves)
 * and a header cell ("id", "property_id", "Property ID") skipped, repeats dropped, order kept.
 */
export function propertyIdsArg(raw: unknown): string[] {
  const cells = withoutHeader(raw);
  const ids: string[] = [];
  for (const cell of cells) {
    if (isBlank(cell) || cell === 0) continue;
    const id = String(cell).trim();
    if (!PROPERTY_ID.test(id)) throw new InputError(`property_ids: "${id}" is not a property id; ids look like cp_0001a2b3.`);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length < 2) throw new InputError(`property_ids: give at least two different property ids (got ${ids.length}).`);
  if (ids.length > MAX_COMPARE_IDS) throw new InputError(`property_ids: at most ${MAX_COMPARE_IDS} properties (got ${ids.length}).`);
  return ids;
}
