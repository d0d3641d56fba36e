// The add-in's view of the fifteen v1 endpoints: paths, published credit costs and the query
// inputs each accepts, with enough type information to check an input before any request.
// The server's route definitions are the truth; test/addin/endpoints-contract.test.ts holds
// this table equal to the OpenAPI document the server generates, so the two cannot drift.
import { ASSET_TYPES, LISTING_PROPERTY_TYPES, LISTING_STATUSES, PARCEL_LAND_USES } from "./contract/vocabulary";

export type ParamKind =
  | "state"
  | "zip"
  | "fips"
  | "metro"
  | "company_id"
  | "property_id"
  | "text"
  | "enum"
  | "number"
  | "integer"
  | "date";

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** Allowed values (enum). */
  values?: readonly string[];
  min?: number;
  /** True when `min` itself is not allowed (a radius must be more than 0). */
  exclusiveMin?: boolean;
  max?: number;
  /** Text length bounds. */
  minLength?: number;
  maxLength?: number;
  /** Units and meaning, as docs/functions.md states them. */
  help: string;
}

export interface EndpointSpec {
  operationId: string;
  method: "GET" | "POST";
  /** Path with `{name}` placeholders. */
  path: string;
  /** Credits a successful call costs (published in the catalog); 304s and errors cost nothing. */
  cost: number;
  /** Query inputs other than paging. */
  query: readonly ParamSpec[];
  /** Whether the endpoint returns a list envelope paged by `limit` and `offset`. */
  paged: boolean;
}

/** The service's paging bounds (DESIGN.md section 2). */
export const PAGE_SIZE_MAX = 100;
export const OFFSET_MAX = 10_000;

const p = {
  state: (name = "state_code", help = "Two-letter state code, e.g. TX."): ParamSpec => ({ name, kind: "state", help }),
  city: (): ParamSpec => ({ name: "city", kind: "text", minLength: 1, maxLength: 80, help: 'City, e.g. "Austin" or "Austin, TX".' }),
  zip: (): ParamSpec => ({ name: "zip", kind: "zip", help: "Five-digit ZIP code." }),
  metro: (): ParamSpec => ({ name: "metro_id", kind: "metro", help: "Metro id, e.g. metro-austin-tx (see =PROP.CATALOG(\"metros\"))." }),
  assetType: (): ParamSpec => ({ name: "asset_type", kind: "enum", values: ASSET_TYPES, help: "Asset type, e.g. industrial." }),
  text: (name: string, help: string, minLength = 1, maxLength = 200): ParamSpec => ({ name, kind: "text", minLength, maxLength, help }),
  number: (name: string, help: string, min = 0, max?: number): ParamSpec => ({ name, kind: "number", min, max, help }),
  integer: (name: string, help: string, min = 0, max?: number): ParamSpec => ({ name, kind: "integer", min, max, help }),
  date: (name: string, help: string): ParamSpec => ({ name, kind: "date", help }),
  companyId: (name: string, help: string): ParamSpec => ({ name, kind: "company_id", help }),
};

/** The inputs of both property searches (specification section 4.3). */
const PROPERTY_SEARCH_INPUTS: ParamSpec[] = [
  p.text("q", "Free text: whole words of name, address, city, owner or subtype; end a word with * to match its start."),
  p.text("subtype", "Property subtype, e.g. warehouse (see =PROP.CATALOG(\"asset_types\")).", 1, 60),
  p.state(),
  p.city(),
  p.zip(),
  p.metro(),
  p.number("min_building_area_sqft", "Minimum building area, square feet."),
  p.number("min_land_area_acres", "Minimum land area, acres."),
  p.integer("min_units", "Minimum units (apartments, beds or keys)."),
  p.companyId("owner_id", "Owner company id, e.g. co_0001a2b3."),
  p.text("owner_name", "Owner name or the start of it.", 2, 120),
];

export const ENDPOINTS = {
  listParcels: {
    operationId: "listParcels", method: "GET", path: "/v1/parcels", cost: 1, paged: true,
    query: [
      p.state(),
      { name: "county_fips", kind: "fips", help: "Five-digit county FIPS code." },
      p.city(),
      p.zip(),
      p.text("apn", "Assessor's parcel number (exact).", 1, 40),
      { name: "land_use", kind: "enum", values: PARCEL_LAND_USES, help: "Standardised land use, e.g. commercial." },
    ],
  },
  searchListings: {
    operationId: "searchListings", method: "GET", path: "/v1/listings/search", cost: 1, paged: true,
    query: [
      p.state("state"),
      p.city(),
      p.zip(),
      { name: "status", kind: "enum", values: LISTING_STATUSES, help: "Listing status: active, pending, sold, withdrawn or expired." },
      { name: "property_type", kind: "enum", values: LISTING_PROPERTY_TYPES, help: "Property type, e.g. condo." },
      p.number("min_price", "Minimum list price, USD."),
      p.number("max_price", "Maximum list price, USD."),
      p.integer("min_bedrooms", "Minimum bedrooms."),
    ],
  },
  getCoverage: { operationId: "getCoverage", method: "GET", path: "/v1/commercial/coverage", cost: 0, paged: false, query: [] },
  getCatalog: { operationId: "getCatalog", method: "GET", path: "/v1/commercial/catalog", cost: 0, paged: false, query: [] },
  searchProperties: {
    operationId: "searchProperties", method: "GET", path: "/v1/commercial/properties", cost: 1, paged: true,
    query: [p.assetType(), ...PROPERTY_SEARCH_INPUTS],
  },
  getProperty: {
    operationId: "getProperty", method: "GET", path: "/v1/commercial/properties/{property_id}", cost: 1, paged: false, query: [],
  },
  compareProperties: {
    operationId: "compareProperties", method: "POST", path: "/v1/commercial/properties/compare", cost: 2, paged: false, query: [],
  },
  findSaleComps: {
    operationId: "findSaleComps", method: "GET", path: "/v1/commercial/sale-comps", cost: 2, paged: true,
    query: [
      { name: "property_id", kind: "property_id", help: "Subject property id." },
      p.state(),
      p.city(),
      p.metro(),
      p.assetType(),
      p.text("subtype", "Property subtype, e.g. warehouse.", 1, 60),
      p.date("min_sale_date", "Earliest sale date (YYYY-MM-DD or an Excel date)."),
      p.date("max_sale_date", "Latest sale date (YYYY-MM-DD or an Excel date)."),
      p.number("min_price", "Minimum sale price, USD."),
      p.number("max_price", "Maximum sale price, USD."),
      p.number("min_building_area_sqft", "Minimum building area, square feet."),
      { ...p.number("max_distance_miles", "Search radius around a subject property, miles (more than 0, at most 250; default 25).", 0, 250), exclusiveMin: true },
    ],
  },
  getMarketSnapshot: {
    operationId: "getMarketSnapshot", method: "GET", path: "/v1/commercial/markets/snapshot", cost: 1, paged: false,
    query: [
      p.text("geography", 'A state ("TX"), a city ("Austin, TX") or a metro ("Austin, TX metro" or "metro-austin-tx").', 2, 100),
      p.assetType(),
    ],
  },
  analyseAssetType: {
    operationId: "analyseAssetType", method: "GET", path: "/v1/commercial/assets/{asset_type}/analysis", cost: 2, paged: false,
    query: [p.state(), p.metro()],
  },
  searchAssetProperties: {
    operationId: "searchAssetProperties", method: "GET", path: "/v1/commercial/assets/{asset_type}/properties", cost: 1, paged: true,
    query: PROPERTY_SEARCH_INPUTS,
  },
  getOwnerPortfolio: {
    operationId: "getOwnerPortfolio", method: "GET", path: "/v1/commercial/owners/portfolio", cost: 2, paged: true,
    query: [
      p.companyId("owner_id", "Owner company id."),
      p.text("owner_name", "Owner name or the start of it.", 2, 120),
      p.assetType(),
      p.state(),
    ],
  },
  searchCompanies: {
    operationId: "searchCompanies", method: "GET", path: "/v1/commercial/companies/{company_type}", cost: 1, paged: true,
    query: [p.text("q", "Part of the company name.", 1, 120), p.state("state_code", "Headquarters state, e.g. TX.")],
  },
  getTenantFootprint: {
    operationId: "getTenantFootprint", method: "GET", path: "/v1/commercial/tenants/footprint", cost: 2, paged: true,
    query: [
      p.companyId("tenant_id", "Tenant company id."),
      p.text("tenant_name", "Tenant name or part of it.", 2, 120),
      p.assetType(),
      p.state(),
    ],
  },
  rankDiligenceCandidates: {
    operationId: "rankDiligenceCandidates", method: "GET", path: "/v1/commercial/diligence/candidates", cost: 3, paged: true,
    query: [p.assetType(), p.state(), p.metro(), p.integer("min_score", "Lowest score to include, 0..100.", 0, 100)],
  },
} satisfies Record<string, EndpointSpec>;

export type OperationId = keyof typeof ENDPOINTS;

/** `/v1/commercial/assets/{asset_type}/analysis` with its placeholders filled (and encoded). */
export function endpointPath(spec: EndpointSpec, params: Record<string, string> = {}): string {
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${spec.operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The endpoint a concrete request path belongs to (for credit counting); null if none. */
export function endpointFor(method: string, path: string): EndpointSpec | null {
  for (const spec of Object.values(ENDPOINTS) as EndpointSpec[]) {
    if (spec.method !== method) continue;
    const pattern = new RegExp(`^${spec.path.replace(/\{\w+\}/g, "[^/]+")}$`);
    if (pattern.test(path)) return spec;
  }
  return null;
}
