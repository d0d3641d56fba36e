// Positional arguments that mean more than one thing: a geography that may be a state, a city,
// a ZIP code or a metro; a sale-comps subject that may be a property; a range of property ids.
// Each turns into the query inputs the service expects, or a #VALUE! saying what would work.
import { ENDPOINTS, type ParamSpec } from "../shared/endpoints";
import { COMPANY_TYPES } from "../shared/contract/vocabulary";
import { InputError } from "./excel-errors";
import { checkParam } from "./param-values";

const ASSET_TYPE = ENDPOINTS.searchProperties.query.find((q) => q.name === "asset_type")!;
const COMPANY_TYPE: ParamSpec = { name: "company_type", kind: "enum", values: COMPANY_TYPES, help: `One of ${COMPANY_TYPES.join(", ")}.` };

export function isBlank(raw: unknown): boolean {
  return raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "");
}

export function assetTypeArg(raw: unknown): string {
  return checkParam(ASSET_TYPE, raw, "asset_type") as string;
}

export function companyTypeArg(raw: unknown): string {
  return checkParam(COMPANY_TYPE, raw, "company_type") as string;
}

/** "Austin", "St. Louis", "Coeur d'Alene, ID", "Winston-Salem, NC". */
const CITY = /^\p{L}[\p{L} .'’-]*(,\s*[A-Za-z]{2})?$/u;

export type GeographyKind = "state" | "city" | "zip" | "metro";

const FORMS: Record<GeographyKind, string> = {
  state: 'a state code ("TX")',
  city: 'a city ("Austin, TX")',
  zip: 'a ZIP code ("78701")',
  metro: 'a metro id ("metro-austin-tx")',
};

/**
 * A geography argument as the query input it stands for. `names` maps each accepted kind to
 * the endpoint's parameter name (listings call the state `state`, most others `state_code`).
 */
export function geographyArg(raw: unknown, names: Partial<Record<GeographyKind, string>>, label = "geography"): Record<string, string> {
  const accepted = (Object.keys(names) as GeographyKind[]).map((k) => FORMS[k]);
  const help = `give ${accepted.join(", ").replace(/, ([^,]*)$/, " or $1")}.`;
  if (isBlank(raw)) throw new InputError(`${label} is empty: ${help}`);
  const text = typeof raw === "number" ? String(raw) : String(raw).trim();
  const kind: GeographyKind | null =
    typeof raw === "number" || /^\d{5}$/.test(text)
      ? "zip"
      : /^[A-Za-z]{2}$/.test(text)
        ? "state"
        : /^metro-/i.test(text)
          ? "metro"
          : CITY.test(text)
            ? "city"
            : null;
  const name = kind ? names[kind] : undefined;
  if (!kind || !name) throw new InputError(`${label}: "${text}" is not a geography this function takes; ${help}`);
  const spec: ParamSpec =
    kind === "city"
      ? { name, kind: "text", minLength: 1, maxLength: 80, help }
      : { name, kind: kind === "zip" ? "zip" : kind === "state" ? "state" : "metro", help };
  return { [name]: String(checkParam(spec, raw, label)) };
}

/** Adds positional inputs to options' filters; the same input given both ways is an error. */
export function mergeInputs(positional: Record<string, string | number>, filters: Record<string, string | number>): Record<string, string | number> {
  for (const name of Object.keys(positional)) {
    if (name in filters) throw new InputError(`${name} is given twice: as an argument and in options.`);
  }
  return { ...filters, ...positional };
}

/** Most property ids one COMPARE takes (four compare requests). */
export const MAX_COMPARE_IDS = 100;
const PROPERTY_ID = /^cp_[A-Za-z0-9-]+$/;

/** A range (or one cell) of property ids: blanks skipped, repeats dropped, order kept. */
export function propertyIdsArg(raw: unknown): string[] {
  const cells = Array.isArray(raw) ? (raw as unknown[][]).flat() : [raw];
  const ids: string[] = [];
  for (const cell of cells) {
    if (isBlank(cell)) continue;
    const id = String(cell).trim();
    if (!PROPERTY_ID.test(id)) throw new InputError(`property_ids: "${id}" is not a property id; ids look like cp_0001a2b3.`);
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length < 2) throw new InputError(`property_ids: give at least two different property ids (got ${ids.length}).`);
  if (ids.length > MAX_COMPARE_IDS) throw new InputError(`property_ids: at most ${MAX_COMPARE_IDS} properties (got ${ids.length}).`);
  return ids;
}
