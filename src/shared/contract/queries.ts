// The query inputs of every endpoint that takes any (paging aside), described once. The
// server's routes validate requests with these schemas and publish them in the OpenAPI
// document; the add-in derives its input checks from them (src/shared/endpoints.ts). Shared
// pieces (`q`) give one concept one name, one unit and one description everywhere.
import { Type, type TObject, type TProperties } from "@sinclair/typebox";
import { StringEnum } from "./schema-helpers";
import { ASSET_TYPES, LISTING_PROPERTY_TYPES, LISTING_STATUSES, PARCEL_LAND_USES } from "./vocabulary";

/**
 * A query-string schema: every parameter optional unless named in `required`, and unknown
 * parameters refused (a misspelt filter must not silently match everything).
 */
export function QueryObject(props: TProperties, required: readonly string[] = []): TObject {
  const out: TProperties = {};
  for (const [name, schema] of Object.entries(props)) {
    out[name] = required.includes(name) ? schema : Type.Optional(schema);
  }
  return Type.Object(out, { additionalProperties: false });
}

export const q = {
  state_code: Type.String({ pattern: "^[A-Za-z]{2}$", description: "Two-letter state code, e.g. TX." }),
  city: Type.String({
    minLength: 1,
    maxLength: 80,
    description: 'City name, e.g. "Austin", or "Austin, TX" to name the state too. Case-insensitive.',
  }),
  zip: Type.String({ pattern: "^[0-9]{5}$", description: "Five-digit ZIP code." }),
  metro_id: Type.String({ pattern: "^metro-[a-z0-9-]+$", description: "Metro area id, e.g. metro-austin-tx (see the catalog)." }),
  asset_type: StringEnum(ASSET_TYPES, { description: "Asset type, e.g. industrial." }),
  text: Type.String({ minLength: 1, maxLength: 200, description: "Free text: whole words of the name, address, city, owner, subtype or asset type; all must match; end a word with * to match its start." }),
  subtype: Type.String({ minLength: 1, maxLength: 60, description: "Property subtype, e.g. warehouse (see the catalog)." }),
  min_building_area_sqft: Type.Number({ minimum: 0, description: "Minimum building area, square feet." }),
  min_land_area_acres: Type.Number({ minimum: 0, description: "Minimum land area, acres." }),
  min_units: Type.Integer({ minimum: 0, description: "Minimum units (apartments, beds or keys)." }),
  company_id: (description: string) => Type.String({ pattern: "^co_[A-Za-z0-9-]+$", description }),
  owner_name: Type.String({ minLength: 2, maxLength: 120, description: "Owner name or the start of it (case-insensitive)." }),
  price: (description: string) => Type.Number({ minimum: 0, description }),
  date: (description: string) => Type.String({ format: "date", description }),
};

/** The inputs of both property searches (specification section 4.3). */
const PROPERTY_SEARCH = {
  q: q.text,
  subtype: q.subtype,
  state_code: q.state_code,
  city: q.city,
  zip: q.zip,
  metro_id: q.metro_id,
  min_building_area_sqft: q.min_building_area_sqft,
  min_land_area_acres: q.min_land_area_acres,
  min_units: q.min_units,
  owner_id: q.company_id("Owner company id, e.g. co_0001a2b3."),
  owner_name: q.owner_name,
};

/** Each endpoint's query inputs other than paging (`limit`, `offset`), by operation id. */
export const QUERIES = {
  listParcels: QueryObject({
    state_code: q.state_code,
    county_fips: Type.String({ pattern: "^[0-9]{5}$", description: "Five-digit county FIPS code." }),
    city: q.city,
    zip: q.zip,
    apn: Type.String({ minLength: 1, maxLength: 40, description: "Assessor's parcel number (exact)." }),
    land_use: StringEnum(PARCEL_LAND_USES, { description: "Standardised land use, e.g. commercial." }),
  }),
  searchListings: QueryObject({
    state: q.state_code,
    city: q.city,
    zip: q.zip,
    status: StringEnum(LISTING_STATUSES, { description: "Listing status: active, pending, sold, withdrawn or expired." }),
    property_type: StringEnum(LISTING_PROPERTY_TYPES, { description: "Property type, e.g. condo." }),
    min_price: q.price("Minimum list price, USD."),
    max_price: q.price("Maximum list price, USD."),
    min_bedrooms: Type.Integer({ minimum: 0, description: "Minimum bedrooms." }),
  }),
  searchProperties: QueryObject({ asset_type: q.asset_type, ...PROPERTY_SEARCH }),
  searchAssetProperties: QueryObject(PROPERTY_SEARCH),
  findSaleComps: QueryObject({
    property_id: Type.String({ pattern: "^cp_[A-Za-z0-9-]+$", description: "Subject property id." }),
    state_code: q.state_code,
    city: q.city,
    metro_id: q.metro_id,
    asset_type: q.asset_type,
    subtype: q.subtype,
    min_sale_date: q.date("Earliest sale date, YYYY-MM-DD."),
    max_sale_date: q.date("Latest sale date, YYYY-MM-DD."),
    min_price: q.price("Minimum sale price, USD."),
    max_price: q.price("Maximum sale price, USD."),
    min_building_area_sqft: q.min_building_area_sqft,
    max_distance_miles: Type.Number({
      exclusiveMinimum: 0,
      maximum: 250,
      default: 25,
      description: "Search radius around the subject, miles (subject searches only).",
    }),
  }),
  getMarketSnapshot: QueryObject(
    {
      geography: Type.String({
        minLength: 2,
        maxLength: 100,
        description: 'A state code ("TX"), a city ("Austin, TX"), or a metro ("Austin, TX metro" or "metro-austin-tx").',
      }),
      asset_type: q.asset_type,
    },
    ["geography", "asset_type"],
  ),
  analyseAssetType: QueryObject({ state_code: q.state_code, metro_id: q.metro_id }),
  getOwnerPortfolio: QueryObject({
    owner_id: q.company_id("Owner company id, e.g. co_0001a2b3."),
    owner_name: q.owner_name,
    asset_type: q.asset_type,
    state_code: q.state_code,
  }),
  searchCompanies: QueryObject({
    q: Type.String({ minLength: 1, maxLength: 120, description: "Part of the company name (case-insensitive)." }),
    state_code: Type.String({ pattern: "^[A-Za-z]{2}$", description: "Headquarters state, e.g. TX." }),
  }),
  getTenantFootprint: QueryObject({
    tenant_id: q.company_id("Tenant company id."),
    tenant_name: Type.String({ minLength: 2, maxLength: 120, description: "Tenant name or part of it." }),
    asset_type: q.asset_type,
    state_code: q.state_code,
  }),
  rankDiligenceCandidates: QueryObject({
    asset_type: q.asset_type,
    state_code: q.state_code,
    metro_id: q.metro_id,
    min_score: Type.Integer({ minimum: 0, maximum: 100, description: "Lowest score to include, 0..100." }),
  }),
} satisfies Record<string, TObject>;

export type QueriedOperation = keyof typeof QUERIES;
