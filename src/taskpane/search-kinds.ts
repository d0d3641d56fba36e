// The searches the task pane offers. Each is a PROP function (its FunctionDef, function-def.ts)
// and what only the pane knows: its label, which of the function's arguments it leaves out,
// which of the endpoint's other inputs the form offers (they become the formula's `key=value`
// options, so their names are the endpoint's input names) and which catalog list fills a select.
// The fields are derived: the function's positional arguments first (name, label, help and
// required from the argument), then the offered inputs, each typed, bounded and given its
// allowed values by the endpoint input's ParamSpec, so the pane checks exactly what the
// functions check, and search-request.ts builds the request with the function's own `request`.
import { ENDPOINTS, type OperationId, type ParamSpec } from "../shared/endpoints";
import { MAX_LIMIT } from "../contract/paging";
import type { CatalogValueList } from "../contract/responses";
import { inputSpec, type FunctionArg, type OperationDef } from "../functions/function-def";
import type { ResourceName } from "../functions/record-fields";
import { ASSETSEARCH, LISTINGS, PARCELS, SEARCH } from "../functions/property-searches";
import { SALECOMPS } from "../functions/sale-comps";
import { HISTORY } from "../functions/property-history";
import { MARKET } from "../functions/market";
import { MARKETHISTORY } from "../functions/market-history";
import { COMPANIES, FOOTPRINT, PORTFOLIO } from "../functions/company-tables";

export type SearchKind =
  | "listings"
  | "parcels"
  | "search"
  | "assetsearch"
  | "salecomps"
  | "history"
  | "market"
  | "markethistory"
  | "companies"
  | "portfolio"
  | "footprint";

/** The catalog lists a select (or a text input's suggestions) can be filled from. */
export type CatalogList = "asset_types" | CatalogValueList | "metros" | "subtypes";

export interface SearchField {
  name: string;
  label: string;
  help: string;
  input: "text" | "number" | "select";
  /** select: the allowed values; text: suggestions. Static here, replaced from the catalog when `catalogList` is set. */
  options?: string[];
  required?: boolean;
  catalogList?: CatalogList;
  /** number: the bounds the value is checked against (an exclusive minimum is checked, not shown). */
  min?: number;
  max?: number;
  /** number: 1 for whole numbers. */
  step?: number;
}

/** One of the function's positional arguments and the form field its value comes from (null: the pane leaves it out). */
export interface PositionalField {
  arg: FunctionArg;
  field: string | null;
}

/** What a search kind says beyond its function: the pane's own choices. */
interface SearchKindInput {
  /** What an analyst reads in the pane's search picker. */
  label: string;
  description: string;
  fn: OperationDef;
  /** The function's arguments the pane never fills (PROP.MARKET's metric: the pane inserts the whole snapshot). */
  omit?: readonly string[];
  /** Optional arguments the form asks for all the same. */
  require?: readonly string[];
  /** The endpoint's other inputs the form offers, in order, with their labels (and anything the ParamSpec does not say). */
  options: readonly [input: string, label: string, extra?: Partial<SearchField>][];
  /** The catalog list that fills a field's select (or a text field's suggestions), by field name. */
  catalog?: Partial<Record<string, CatalogList>>;
  assetFilters?: true;
}

export interface SearchKindSpec {
  label: string;
  description: string;
  /** The PROP function's definition: its arguments, its request builder and its spill. */
  def: OperationDef;
  /** The PROP function's id, as registered (the formula calls PROP.<fn>). */
  fn: string;
  endpoint: OperationId;
  /** The records' resource (record-fields.ts): the columns of the spill and of the inserted table. */
  resource: ResourceName;
  /** The columns the function spills by default, when not every field of the resource. */
  columns?: readonly string[];
  /** The function's positional arguments before `options`, in order, every one of them. */
  positional: readonly PositionalField[];
  fields: SearchField[];
  /**
   * True for the two property searches: only there does the service refuse, per asset type,
   * the inputs its data does not support (`400 unsupported_filter`), so only there does the
   * form disable them from the catalog's `unsupported_inputs`.
   */
  assetFilters?: true;
}

/** The ParamSpec of one of an endpoint's query inputs (a name missing here is a bug in this table). */
export function paramSpec(endpoint: OperationId, name: string): ParamSpec {
  return inputSpec(endpoint, name);
}

/** Type, bounds and allowed values of a field, from the ParamSpec of the input it fills. */
function typed(spec: ParamSpec | undefined): Partial<SearchField> {
  if (!spec) return { input: "text" };
  if (spec.kind === "enum") return { input: "select", options: [...(spec.values ?? [])] };
  if (spec.kind === "name_list") return { input: "text", options: [...(spec.values ?? [])] };
  if (spec.kind === "number" || spec.kind === "integer") {
    return { input: "number", min: spec.min, max: spec.max, step: spec.kind === "integer" ? 1 : undefined };
  }
  return { input: "text" };
}

/** The field of a positional argument: named after the input it fills (`q` for PROP.SEARCH's text), else after the argument. */
function argField(arg: FunctionArg, input: SearchKindInput): SearchField {
  const name = arg.input ?? arg.name;
  const required = arg.required || input.require?.includes(arg.name);
  const list = input.catalog?.[name];
  return {
    name,
    label: arg.label,
    help: arg.help,
    ...typed(arg.param),
    input: typed(arg.param).input ?? "text",
    ...(required ? { required: true } : {}),
    ...(list ? { catalogList: list } : {}),
  } as SearchField;
}

/** The field of one of the endpoint's other inputs (an option of the formula). */
function optionField(endpoint: OperationId, [name, label, extra]: SearchKindInput["options"][number], input: SearchKindInput): SearchField {
  const spec = paramSpec(endpoint, name);
  const list = input.catalog?.[name];
  return { name, label, help: spec.help, input: "text", ...typed(spec), ...(list ? { catalogList: list } : {}), ...extra } as SearchField;
}

/** The page the preview fetches and the formula's `limit=`: one request's worth of rows. */
export const LIMIT_FIELD: SearchField = {
  name: "limit",
  label: "Rows",
  help: `Rows to preview and insert, 1 to ${MAX_LIMIT} (default 25).`,
  input: "number",
  min: 1,
  max: MAX_LIMIT,
  step: 1,
};

/** A search kind's fields and positional arguments, derived from its function; a paged search also asks how many rows, last. */
function searchKind(input: SearchKindInput): SearchKindSpec {
  const { fn } = input;
  const positional = fn.args.map((arg) => ({ arg, field: input.omit?.includes(arg.name) ? null : (arg.input ?? arg.name) }));
  const fields = [
    ...fn.args.filter((a) => !input.omit?.includes(a.name)).map((a) => argField(a, input)),
    ...input.options.map((o) => optionField(fn.operation, o, input)),
    ...(ENDPOINTS[fn.operation].paged ? [LIMIT_FIELD] : []),
  ];
  return {
    label: input.label,
    description: input.description,
    def: fn,
    fn: fn.name,
    endpoint: fn.operation,
    resource: fn.resource,
    ...(fn.columns ? { columns: fn.columns } : {}),
    positional,
    fields,
    ...(input.assetFilters ? { assetFilters: true as const } : {}),
  };
}

/** The property searches' inputs beyond place, text and asset type. */
const PROPERTY_FILTERS: SearchKindInput["options"] = [
  ["subtype", "Subtype", { input: "select", options: [] }],
  ["min_building_area_sqft", "Min. building area (sq ft)"],
  ["min_land_area_acres", "Min. land area (acres)"],
  ["min_units", "Min. units"],
  ["owner_name", "Owner name"],
  ["owner_id", "Owner id"],
];
const PROPERTY_CATALOG = { geography: "metros", asset_type: "asset_types", subtype: "subtypes" } as const;

/** Every search the pane offers, in the order its picker lists them. */
export const SEARCH_KINDS: Record<SearchKind, SearchKindSpec> = {
  listings: searchKind({
    label: "Listings",
    description: "Listings, newest first: price, status, days on market, broker.",
    fn: LISTINGS,
    options: [
      ["property_type", "Property type"],
      ["min_price", "Min. price (USD)"],
      ["max_price", "Max. price (USD)"],
      ["min_bedrooms", "Min. bedrooms"],
    ],
    catalog: { status: "listing_statuses", property_type: "listing_property_types" },
  }),
  parcels: searchKind({
    label: "Parcels",
    description: "Assessor parcels: APN, land use, assessed values, tax and last sale.",
    fn: PARCELS,
    options: [
      ["county_fips", "County FIPS"],
      ["apn", "APN"],
      ["land_use", "Land use"],
    ],
  }),
  search: searchKind({
    label: "Commercial properties",
    description: "Commercial properties of every asset type, by text and place.",
    fn: SEARCH,
    options: [["asset_type", "Asset type"], ...PROPERTY_FILTERS],
    catalog: PROPERTY_CATALOG,
    assetFilters: true,
  }),
  assetsearch: searchKind({
    label: "Properties by asset type",
    description: "Properties of one asset type, with the filters its data supports.",
    fn: ASSETSEARCH,
    options: [["q", "Text"], ...PROPERTY_FILTERS],
    catalog: PROPERTY_CATALOG,
    assetFilters: true,
  }),
  salecomps: searchKind({
    label: "Sale comps",
    description: "Captured sales around a property (most similar first) or in a place (newest first).",
    fn: SALECOMPS,
    options: [
      ["subtype", "Subtype", { input: "select", options: [] }],
      ["min_sale_date", "Sold on or after"],
      ["max_sale_date", "Sold on or before"],
      ["min_price", "Min. price (USD)"],
      ["max_price", "Max. price (USD)"],
      ["min_building_area_sqft", "Min. building area (sq ft)"],
      ["max_distance_miles", "Radius (miles)"],
    ],
    catalog: { subject: "metros", asset_type: "asset_types", subtype: "subtypes" },
  }),
  history: searchKind({
    label: "Property history",
    description: "A property's events: when it was built, each sale, each lease's start and expiration.",
    fn: HISTORY,
    options: [
      ["event_type", "Event types"],
      ["from", "On or after"],
      ["to", "On or before"],
    ],
  }),
  market: searchKind({
    label: "Market snapshot",
    description:
      'One asset type\'s market in the whole country ("US"), a state, county, metro, city or ZIP code: vacancy, rent, cap rate, sales volume.',
    fn: MARKET,
    omit: ["metric"],
    options: [],
    catalog: { geography: "metros", asset_type: "asset_types" },
  }),
  markethistory: searchKind({
    label: "Market history",
    description: "One asset type's market by quarter or year: rent, vacancy, cap rate, sales, inventory, absorption, deliveries.",
    fn: MARKETHISTORY,
    // The function's default set is three metrics; the form asks which, one column each.
    require: ["metrics"],
    options: [["interval", "Interval"]],
    catalog: { geography: "metros", asset_type: "asset_types" },
  }),
  companies: searchKind({
    label: "Companies",
    description: "Owners, tenants, brokers, lenders, property managers or developers, largest first.",
    fn: COMPANIES,
    options: [["state_code", "Headquarters state"]],
    catalog: { company_type: "company_types" },
  }),
  portfolio: searchKind({
    label: "Owners' portfolios",
    description: "The properties an owner holds, most valuable first, with the evidence for each.",
    fn: PORTFOLIO,
    options: [
      ["asset_type", "Asset type", { catalogList: "asset_types" }],
      ["state_code", "State"],
    ],
  }),
  footprint: searchKind({
    label: "Tenants' footprints",
    description: "Every location a tenant occupies, soonest lease expiry first, with leased area and rent.",
    fn: FOOTPRINT,
    options: [
      ["asset_type", "Asset type", { catalogList: "asset_types" }],
      ["state_code", "State"],
    ],
  }),
};

/** Whether the search returns pages of rows (and so has a row count), rather than one record. */
export function isPaged(kind: SearchKind): boolean {
  return ENDPOINTS[SEARCH_KINDS[kind].endpoint].paged;
}
