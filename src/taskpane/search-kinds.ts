// The searches the task pane offers, as data: for each, the PROP function that makes the same
// request, the endpoint, the function's positional arguments in order, and the form's fields.
// A field named after an endpoint input takes its type, bounds, allowed values and help from
// that input's ParamSpec in endpoints.ts, so the pane checks exactly what the functions check.
// Fields that are not positional arguments become the formula's `key=value` options, so their
// names are the endpoint's input names (which the functions' options accept).
import { ENDPOINTS, type OperationId, type ParamSpec } from "../shared/endpoints";
import { MAX_LIMIT } from "../contract/paging";
import { COMPANY_TYPES } from "../contract/vocabulary";
import type { CatalogValueList } from "../contract/responses";
import type { ResourceName } from "../functions/record-fields";
import { HISTORY_COLUMNS } from "../functions/property-history";
import { DEFAULT_HISTORY_METRICS, DEFAULT_WINDOW_QUARTERS } from "../contract/history";

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

/**
 * One positional argument of the function (`arg` is its parameter name in functions.json) and
 * how it becomes part of the request; `field` names the form field its value comes from. Each
 * reads its value with the parser the function uses.
 */
export type ArgSpec = { arg: string } &
  /** One query input, checked against the endpoint's ParamSpec of the same name. */
  (
    | { field: string; as: "param" }
    /** The path parameter (asset type, company type or property id). */
    | { field: string; as: "path"; param: "asset_type" | "company_type" | "property_id" }
    /** A place in any form of the place grammar, as the endpoint's `geography` input. */
    | { field: string; as: "geography" }
    /** PROP.SALECOMPS's subject: a property id, else a place. */
    | { field: string; as: "subject" }
    /** PROP.MARKETHISTORY's metrics: comma-separated names, as the `metrics` input. */
    | { field: string; as: "metrics" }
    /** PROP.MARKETHISTORY's from or to: a date, a quarter or a year, as that input's date. */
    | { field: string; as: "period"; bound: "from" | "to" }
    /** A company by id or name (`owner_id` / `owner_name`, `tenant_id` / `tenant_name`). */
    | { field: string; as: "company"; role: "owner" | "tenant" }
    /** An argument the pane never fills, kept so the options land in the options slot. */
    | { as: "omitted" }
  );

export interface SearchKindSpec {
  /** What an analyst reads in the pane's search picker. */
  label: string;
  description: string;
  /** The PROP function's id, as registered (the formula calls PROP.<fn>). */
  fn: string;
  endpoint: OperationId;
  /** The records' resource (record-fields.ts): the columns of the spill and of the inserted table. */
  resource: ResourceName;
  /** The columns the function spills by default, when not every field of the resource. */
  columns?: readonly string[];
  /** The function's positional arguments before `options`, in order, every one of them. */
  args: readonly ArgSpec[];
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
  const spec = (ENDPOINTS[endpoint].query as readonly ParamSpec[]).find((q) => q.name === name);
  if (!spec) throw new Error(`${endpoint} has no query input ${name}`);
  return spec;
}

/** A field for one endpoint input, typed and bounded by its ParamSpec. */
function param(endpoint: OperationId, name: string, label: string, extra: Partial<SearchField> = {}): SearchField {
  const spec = paramSpec(endpoint, name);
  const field: SearchField = { name, label, help: spec.help, input: "text" };
  if (spec.kind === "enum") Object.assign(field, { input: "select", options: [...(spec.values ?? [])] });
  if (spec.kind === "number" || spec.kind === "integer") {
    Object.assign(field, { input: "number", min: spec.min, max: spec.max, step: spec.kind === "integer" ? 1 : undefined });
  }
  return { ...field, ...extra };
}

const assetTypeField = (endpoint: OperationId, extra: Partial<SearchField> = {}) =>
  param(endpoint, "asset_type", "Asset type", { catalogList: "asset_types", ...extra });
const subtypeField = (endpoint: OperationId) =>
  param(endpoint, "subtype", "Subtype", { input: "select", options: [], catalogList: "subtypes" });

/** The place field of a search: its help names the kinds of place the endpoint takes. */
const geography = (endpoint: OperationId, metros: boolean): SearchField => ({
  name: "geography",
  label: "Place",
  help: paramSpec(endpoint, "geography").help,
  input: "text",
  ...(metros ? { catalogList: "metros" as const } : {}),
});

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

/** A paged search also asks how many rows: the field goes last, after the filters. */
function withPaging(spec: SearchKindSpec): SearchKindSpec {
  return ENDPOINTS[spec.endpoint].paged ? { ...spec, fields: [...spec.fields, LIMIT_FIELD] } : spec;
}

/** The property searches' inputs beyond place and asset type (the asset-oriented search). */
function propertyFilters(endpoint: "searchProperties" | "searchAssetProperties"): SearchField[] {
  return [
    subtypeField(endpoint),
    param(endpoint, "min_building_area_sqft", "Min. building area (sq ft)"),
    param(endpoint, "min_land_area_acres", "Min. land area (acres)"),
    param(endpoint, "min_units", "Min. units"),
    param(endpoint, "owner_name", "Owner name"),
    param(endpoint, "owner_id", "Owner id"),
  ];
}

/** Every search the pane offers, in the order its picker lists them. */
export const SEARCH_KINDS: Record<SearchKind, SearchKindSpec> = {
  listings: withPaging({
    label: "Listings",
    description: "Listings, newest first: price, status, days on market, broker.",
    fn: "LISTINGS",
    endpoint: "searchListings",
    resource: "listing",
    args: [
      { arg: "geography", field: "geography", as: "geography" },
      { arg: "status", field: "status", as: "param" },
    ],
    fields: [
      geography("searchListings", false),
      param("searchListings", "status", "Status", { catalogList: "listing_statuses" }),
      param("searchListings", "property_type", "Property type", { catalogList: "listing_property_types" }),
      param("searchListings", "min_price", "Min. price (USD)"),
      param("searchListings", "max_price", "Max. price (USD)"),
      param("searchListings", "min_bedrooms", "Min. bedrooms"),
    ],
  }),
  parcels: withPaging({
    label: "Parcels",
    description: "Assessor parcels: APN, land use, assessed values, tax and last sale.",
    fn: "PARCELS",
    endpoint: "listParcels",
    resource: "parcel",
    args: [{ arg: "geography", field: "geography", as: "geography" }],
    fields: [
      geography("listParcels", false),
      param("listParcels", "county_fips", "County FIPS"),
      param("listParcels", "apn", "APN"),
      param("listParcels", "land_use", "Land use"),
    ],
  }),
  search: withPaging({
    label: "Commercial properties",
    description: "Commercial properties of every asset type, by text and place.",
    fn: "SEARCH",
    endpoint: "searchProperties",
    resource: "property",
    args: [
      { arg: "text", field: "q", as: "param" },
      { arg: "geography", field: "geography", as: "geography" },
    ],
    fields: [
      param("searchProperties", "q", "Text"),
      geography("searchProperties", true),
      assetTypeField("searchProperties"),
      ...propertyFilters("searchProperties"),
    ],
    assetFilters: true,
  }),
  assetsearch: withPaging({
    label: "Properties by asset type",
    description: "Properties of one asset type, with the filters its data supports.",
    fn: "ASSETSEARCH",
    endpoint: "searchAssetProperties",
    resource: "property",
    args: [
      { arg: "asset_type", field: "asset_type", as: "path", param: "asset_type" },
      { arg: "geography", field: "geography", as: "geography" },
    ],
    fields: [
      // The path parameter has no ParamSpec of its own; its values are the cross-asset search's.
      assetTypeField("searchProperties", { required: true, help: "Asset type, e.g. industrial; the filters below depend on it." }),
      geography("searchAssetProperties", true),
      param("searchAssetProperties", "q", "Text"),
      ...propertyFilters("searchAssetProperties"),
    ],
    assetFilters: true,
  }),
  salecomps: withPaging({
    label: "Sale comps",
    description: "Captured sales around a property (most similar first) or in a place (newest first).",
    fn: "SALECOMPS",
    endpoint: "findSaleComps",
    resource: "sale_comp",
    args: [
      { arg: "subject", field: "subject", as: "subject" },
      { arg: "asset_type", field: "asset_type", as: "param" },
    ],
    fields: [
      {
        name: "subject",
        label: "Subject",
        help: `A property id ("cp_0001a2b3"), or ${paramSpec("findSaleComps", "geography").help.replace(/^A place: /, "a place: ")}`,
        input: "text",
        required: true,
        catalogList: "metros",
      },
      assetTypeField("findSaleComps", { help: "Asset type; around a property it defaults to the property's own." }),
      subtypeField("findSaleComps"),
      param("findSaleComps", "min_sale_date", "Sold on or after"),
      param("findSaleComps", "max_sale_date", "Sold on or before"),
      param("findSaleComps", "min_price", "Min. price (USD)"),
      param("findSaleComps", "max_price", "Max. price (USD)"),
      param("findSaleComps", "min_building_area_sqft", "Min. building area (sq ft)"),
      param("findSaleComps", "max_distance_miles", "Radius (miles)"),
    ],
  }),
  history: withPaging({
    label: "Property history",
    description: "A property's events: when it was built, each sale, each lease's start and expiration.",
    fn: "HISTORY",
    endpoint: "getPropertyHistory",
    resource: "property_event",
    columns: HISTORY_COLUMNS,
    args: [{ arg: "property_id", field: "property_id", as: "path", param: "property_id" }],
    fields: [
      {
        name: "property_id",
        label: "Property id",
        help: "A property id, such as cp_0001a2b3 (a search result's id column).",
        input: "text",
        required: true,
      },
      param("getPropertyHistory", "event_type", "Event types"),
      param("getPropertyHistory", "from", "On or after"),
      param("getPropertyHistory", "to", "On or before"),
    ],
  }),
  market: withPaging({
    label: "Market snapshot",
    description:
      'One asset type\'s market in the whole country ("US"), a state, county, metro, city or ZIP code: vacancy, rent, cap rate, sales volume.',
    fn: "MARKET",
    endpoint: "getMarketSnapshot",
    resource: "market",
    args: [
      { arg: "geography", field: "geography", as: "geography" },
      { arg: "asset_type", field: "asset_type", as: "param" },
      // A metric makes PROP.MARKET one number; the pane inserts the whole snapshot.
      { arg: "metric", as: "omitted" },
    ],
    fields: [{ ...geography("getMarketSnapshot", true), required: true }, assetTypeField("getMarketSnapshot", { required: true })],
  }),
  markethistory: withPaging({
    label: "Market history",
    description: "One asset type's market by quarter or year: rent, vacancy, cap rate, sales, inventory, absorption, deliveries.",
    fn: "MARKETHISTORY",
    endpoint: "getMarketHistory",
    resource: "market_history",
    args: [
      { arg: "geography", field: "geography", as: "geography" },
      { arg: "asset_type", field: "asset_type", as: "param" },
      { arg: "metrics", field: "metrics", as: "metrics" },
      { arg: "from", field: "from", as: "period", bound: "from" },
      { arg: "to", field: "to", as: "period", bound: "to" },
    ],
    fields: [
      { ...geography("getMarketHistory", true), required: true },
      assetTypeField("getMarketHistory", { required: true }),
      {
        name: "metrics",
        label: "Metrics",
        help: `Comma-separated, one column each in this order, e.g. ${DEFAULT_HISTORY_METRICS.join(",")}.`,
        input: "text",
        required: true,
        options: [...(paramSpec("getMarketHistory", "metrics").values ?? [])],
      },
      {
        name: "from",
        label: "From",
        help: `A date (YYYY-MM-DD), a quarter (2016-Q1) or a year; blank: the last ${DEFAULT_WINDOW_QUARTERS} quarters.`,
        input: "text",
      },
      { name: "to", label: "To", help: "A date, a quarter (2025-Q4) or a year; blank: up to the latest data.", input: "text" },
      param("getMarketHistory", "interval", "Interval"),
    ],
  }),
  companies: withPaging({
    label: "Companies",
    description: "Owners, tenants, brokers, lenders, property managers or developers, largest first.",
    fn: "COMPANIES",
    endpoint: "searchCompanies",
    resource: "company",
    args: [
      { arg: "company_type", field: "company_type", as: "path", param: "company_type" },
      { arg: "name", field: "q", as: "param" },
    ],
    fields: [
      {
        name: "company_type",
        label: "Company type",
        help: `One of ${COMPANY_TYPES.join(", ")}.`,
        input: "select",
        options: [...COMPANY_TYPES],
        required: true,
        catalogList: "company_types",
      },
      param("searchCompanies", "q", "Name contains"),
      param("searchCompanies", "state_code", "Headquarters state"),
    ],
  }),
  portfolio: withPaging({
    label: "Owners' portfolios",
    description: "The properties an owner holds, most valuable first, with the evidence for each.",
    fn: "PORTFOLIO",
    endpoint: "getOwnerPortfolio",
    resource: "portfolio_holding",
    args: [{ arg: "owner", field: "owner", as: "company", role: "owner" }],
    fields: [
      {
        name: "owner",
        label: "Owner",
        help: "Owner company id (co_0001a2b3) or name (exact, else the largest owner whose name contains it).",
        input: "text",
        required: true,
      },
      assetTypeField("getOwnerPortfolio"),
      param("getOwnerPortfolio", "state_code", "State"),
    ],
  }),
  footprint: withPaging({
    label: "Tenants' footprints",
    description: "Every location a tenant occupies, soonest lease expiry first, with leased area and rent.",
    fn: "FOOTPRINT",
    endpoint: "getTenantFootprint",
    resource: "tenant_location",
    args: [{ arg: "tenant", field: "tenant", as: "company", role: "tenant" }],
    fields: [
      {
        name: "tenant",
        label: "Tenant",
        help: "Tenant company id (co_0001a2b3) or name (exact, else the largest tenant whose name contains it).",
        input: "text",
        required: true,
      },
      assetTypeField("getTenantFootprint"),
      param("getTenantFootprint", "state_code", "State"),
    ],
  }),
};

/** Whether the search returns pages of rows (and so has a row count), rather than one record. */
export function isPaged(kind: SearchKind): boolean {
  return ENDPOINTS[SEARCH_KINDS[kind].endpoint].paged;
}
