// The values Excel's AutoComplete offers while the analyst types some arguments: asset types,
// market metrics, property fields, listing statuses, company types and the helper functions'
// sections. Excel calls these custom enums (CustomFunctionsRuntime 1.5: Excel on the web,
// Microsoft 365 on Windows from 2504, Mac from 16.96). The build adds them to functions.json
// (webpack.config.js) from the same lists the functions check their arguments against, so a
// suggestion is always a value the function accepts and a list grows with the contract.
//
// A suggestion is only a suggestion: the argument stays text, any value may still be typed
// (a label, another case, a cell reference) and the function reads it as before. Hosts without
// 1.5 ignore the enums, as hosts without 1.4 ignore allowCustomDataForDataTypeAny, and the
// argument is plain text there.
import { ASSET_TYPES, COMPANY_TYPES, LISTING_STATUSES } from "../contract/vocabulary";
import { CATALOG_SECTIONS } from "./catalog-table";
import { COVERAGE_SECTIONS } from "./coverage-table";
import { CREDIT_ITEMS } from "./credits";
import { fieldLabel } from "./field-labels";
import { MARKET_METRICS } from "./market";
import { PROPERTY_FIELDS } from "./property-field";
import { RESOURCES, type ResourceName } from "./record-fields";

/** One suggestion: the text the argument takes and the line Excel shows beside it. */
export interface ArgumentChoice {
  value: string;
  tooltip: string;
}

/** The custom enums' ids (letters, digits, periods and underscores; 3 to 64 characters). */
export type ChoiceListId =
  | "ASSET_TYPE"
  | "PROPERTY_FIELD"
  | "MARKET_METRIC"
  | "LISTING_STATUS"
  | "COMPANY_TYPE"
  | "COVERAGE_SECTION"
  | "CATALOG_SECTION"
  | "FIELDS_RESOURCE"
  | "CREDIT_ITEM";

/** Excel cuts long tooltips; a label plus a short unit fits. */
const MAX_TOOLTIP = 120;

function plain(values: readonly string[], describe: (value: string) => string): ArgumentChoice[] {
  return values.map((value) => ({ value, tooltip: describe(value) }));
}

/** Fields by name, each with its label ("Year built", "Vacancy rate"). */
function fields(resource: ResourceName, names: readonly string[]): ArgumentChoice[] {
  return names.map((name) => {
    const info = RESOURCES[resource].find((f) => f.name === name);
    return { value: name, tooltip: info ? fieldLabel(info) : words(name) };
  });
}

function words(value: string): string {
  const text = value.replace(/[_-]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Every list, built from the lists the functions read their arguments against. */
export function choiceLists(): Record<ChoiceListId, ArgumentChoice[]> {
  return {
    ASSET_TYPE: plain(ASSET_TYPES, (v) => `${words(v)} properties`),
    PROPERTY_FIELD: fields("property", PROPERTY_FIELDS),
    MARKET_METRIC: fields("market", MARKET_METRICS),
    LISTING_STATUS: plain(LISTING_STATUSES, (v) => `${words(v)} listings`),
    COMPANY_TYPE: plain(COMPANY_TYPES, (v) => `Companies that are ${words(v).toLowerCase()}s`),
    COVERAGE_SECTION: plain(COVERAGE_SECTIONS, (v) => `Coverage: ${words(v).toLowerCase()}`),
    CATALOG_SECTION: plain(CATALOG_SECTIONS, (v) => `Catalog: ${words(v).toLowerCase()}`),
    FIELDS_RESOURCE: plain(Object.keys(RESOURCES), (v) => `The fields of a ${words(v).toLowerCase()}`),
    CREDIT_ITEM: plain(CREDIT_ITEMS, (v) => `Credits: ${words(v).toLowerCase()}`),
  };
}

/** Which argument of which function (by id and parameter name) offers which list. */
export const ARGUMENT_CHOICES: Readonly<Record<string, Readonly<Record<string, ChoiceListId>>>> = {
  PROPERTY: { field: "PROPERTY_FIELD" },
  SALECOMPS: { asset_type: "ASSET_TYPE" },
  MARKET: { asset_type: "ASSET_TYPE", metric: "MARKET_METRIC" },
  ANALYSIS: { asset_type: "ASSET_TYPE" },
  MARKETHISTORY: { asset_type: "ASSET_TYPE" },
  ASSETSEARCH: { asset_type: "ASSET_TYPE" },
  DILIGENCE: { asset_type: "ASSET_TYPE" },
  LISTINGS: { status: "LISTING_STATUS" },
  COMPANIES: { company_type: "COMPANY_TYPE" },
  COVERAGE: { section: "COVERAGE_SECTION" },
  CATALOG: { section: "CATALOG_SECTION" },
  FIELDS: { resource: "FIELDS_RESOURCE" },
  CREDITS: { item: "CREDIT_ITEM" },
};

/** The parts of functions.json this step reads and writes. */
export interface FunctionsMetadata {
  functions: Array<{ id: string; parameters: Array<{ name: string; type?: string; dimensionality?: string; customEnumId?: string }> }>;
  enums?: Array<{ id: string; type: "string"; values: Array<{ name: string; stringValue: string; tooltip: string }> }>;
  [key: string]: unknown;
}

/**
 * functions.json with the suggestion lists added as custom enums and named on their arguments.
 * Throws when an argument named in ARGUMENT_CHOICES is missing or not a single text value, so a
 * renamed argument fails the build instead of losing its suggestions quietly.
 */
export function withArgumentChoices(metadata: FunctionsMetadata): FunctionsMetadata {
  const lists = choiceLists();
  const used = new Set<ChoiceListId>();
  const functions = metadata.functions.map((fn) => {
    const wanted = ARGUMENT_CHOICES[fn.id];
    if (!wanted) return fn;
    const parameters = fn.parameters.map((p) => {
      const id = wanted[p.name];
      if (!id) return p;
      if (p.type !== "string" || (p.dimensionality ?? "scalar") !== "scalar") {
        throw new Error(`PROP.${fn.id}(${p.name}) offers ${id} but is not a single text argument`);
      }
      used.add(id);
      return { ...p, customEnumId: id };
    });
    for (const name of Object.keys(wanted)) {
      if (!fn.parameters.some((p) => p.name === name))
        throw new Error(`PROP.${fn.id} has no argument "${name}" to offer ${wanted[name]} on`);
    }
    return { ...fn, parameters };
  });
  const missing = Object.keys(ARGUMENT_CHOICES).filter((id) => !metadata.functions.some((fn) => fn.id === id));
  if (missing.length) throw new Error(`No function ${missing.join(", ")} to offer suggestions on`);
  const enums = [...used].map((id) => ({
    id,
    type: "string" as const,
    values: lists[id].map((c) => ({ name: c.value, stringValue: c.value, tooltip: c.tooltip.slice(0, MAX_TOOLTIP) })),
  }));
  return { ...metadata, functions, enums: [...(metadata.enums ?? []), ...enums] };
}
