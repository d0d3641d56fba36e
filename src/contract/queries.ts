// The query inputs of every endpoint that takes any (paging aside), described once. The
// server's routes validate requests with these schemas and publish them in the OpenAPI
// document; the add-in derives its input checks from them (src/shared/endpoints.ts). Shared
// pieces (`q`) give one concept one name, one unit and one description everywhere.
import { Type, type TObject, type TOptional, type TProperties, type TString } from "@sinclair/typebox";
import { StringEnum, WithDefault } from "./schema-helpers";
import { PLACE_KINDS, describeKinds, type PlaceKind } from "./places";
import { DATE_INPUT_MAX_LENGTH, dateInputHelp, isIsoDate, type DateBound } from "./dates";
import { ASSET_TYPES, LISTING_PROPERTY_TYPES, LISTING_STATUSES, PARCEL_LAND_USES } from "./vocabulary";
import { Input } from "./input-kinds";

/**
 * The static type of a query's inputs once Fastify has validated it: those named in `required`
 * and those with a default (WithDefault) are always there, the others may be absent.
 */
export type QueryProperties<P extends TProperties, R extends keyof P> = {
  [K in keyof P]: K extends R ? P[K] : P[K] extends { default: unknown } ? P[K] : TOptional<P[K]>;
};

/**
 * A query-string schema: every parameter optional unless named in `required`, and unknown
 * parameters refused (a misspelt filter must not silently match everything).
 */
export function QueryObject<P extends TProperties, R extends keyof P & string = never>(
  props: P,
  required: readonly R[] = [],
): TObject<QueryProperties<P, R>> {
  const out: TProperties = {};
  for (const [name, schema] of Object.entries(props)) {
    out[name] = (required as readonly string[]).includes(name) ? schema : Type.Optional(schema);
  }
  // The loop above builds what QueryProperties describes; TypeScript cannot follow it.
  return Type.Object(out, { additionalProperties: false }) as TObject<QueryProperties<P, R>>;
}

/**
 * The kinds of place each operation's `geography` input serves: the kinds its records can be
 * filtered by. Listings carry no county or metro and parcels no metro; companies are found by
 * their headquarters' state only (`state_code`), so they take no `geography`.
 */
export const PLACE_KINDS_OF = {
  listParcels: ["state", "county", "city", "zip"],
  searchListings: ["state", "city", "zip"],
  searchProperties: PLACE_KINDS,
  searchAssetProperties: PLACE_KINDS,
  findSaleComps: PLACE_KINDS,
  getMarketSnapshot: PLACE_KINDS,
  getMarketHistory: PLACE_KINDS,
  analyseAssetType: PLACE_KINDS,
  getOwnerPortfolio: PLACE_KINDS,
  getTenantFootprint: PLACE_KINDS,
  rankDiligenceCandidates: PLACE_KINDS,
} as const satisfies Record<string, readonly PlaceKind[]>;
export type PlacedOperation = keyof typeof PLACE_KINDS_OF;

/**
 * The `geography` input of an operation: one place in the place grammar (src/contract/places.ts),
 * of the kinds PLACE_KINDS_OF gives the operation (an input shared by several names one of them).
 */
function geography(operation: PlacedOperation, what = "Where", national = false): TString {
  const kinds = PLACE_KINDS_OF[operation];
  const nation = national ? 'the whole country ("US" or "United States"), ' : "";
  return Input(
    "place",
    Type.String({
      minLength: 1,
      maxLength: 120,
      description:
        `${what}: ${nation}${describeKinds(kinds)}. Case, spacing and the comma do not matter ("austin tx" is "Austin, TX"). ` +
        "A place the snapshot does not hold is refused free of charge (400 `unknown_place`, with suggestions).",
    }),
    { "x-places": kinds },
  );
}

export const q = {
  state_code: Input("state", Type.String({ pattern: "^[A-Za-z]{2}$", description: "Two-letter state code, e.g. TX." })),
  city: Input(
    "city",
    Type.String({
      minLength: 1,
      maxLength: 80,
      description:
        'City name, e.g. "Austin", or "Austin, TX" to name the state too. Case-insensitive; "Austin" alone matches Austin in every state that has one.',
    }),
  ),
  zip: Input(
    "zip",
    Type.String({
      pattern: "^[0-9]{5}(-[0-9]{4})?$",
      description: 'Five-digit ZIP code; a ZIP+4 code ("78704-1234") names its ZIP code.',
    }),
  ),
  metro_id: Input(
    "metro",
    Type.String({ pattern: "^metro-[a-z0-9-]+$", description: "Metro area id, e.g. metro-austin-tx (see the catalog)." }),
  ),
  asset_type: StringEnum(ASSET_TYPES, { description: "Asset type, e.g. industrial." }),
  text: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "Free text: whole words of the name, address, city, owner, subtype or asset type; all must match; end a word with * to match its start.",
  }),
  subtype: Type.String({ minLength: 1, maxLength: 60, description: "Property subtype, e.g. warehouse (see the catalog)." }),
  min_building_area_sqft: Type.Number({ minimum: 0, description: "Minimum building area, square feet." }),
  min_land_area_acres: Type.Number({ minimum: 0, description: "Minimum land area, acres." }),
  min_units: Type.Integer({ minimum: 0, description: "Minimum units (apartments, beds or keys)." }),
  company_id: (description: string) => Input("company_id", Type.String({ pattern: "^co_[A-Za-z0-9-]+$", description })),
  owner_name: Type.String({ minLength: 2, maxLength: 120, description: "Owner name or the start of it (case-insensitive)." }),
  price: (description: string) => Type.Number({ minimum: 0, description }),
  /** A date input in the date grammar (src/contract/dates.ts), standing for `bound`. */
  date: (description: string, bound: DateBound) =>
    Input("date", Type.String({ minLength: 1, maxLength: DATE_INPUT_MAX_LENGTH, description: `${description} ${dateInputHelp(bound)}` }), {
      "x-date-bound": bound,
    }),
};

/** What names one market: the single market endpoint's query, and each market of a batch. */
export const MARKET_INPUTS = {
  geography: geography("getMarketSnapshot", "The market's geography", true),
  asset_type: q.asset_type,
};

/** Orders the sale-comps search offers (`sort`). */
export const SALE_SORTS = [
  "similarity_score",
  "distance_miles",
  "sale_date",
  "sale_price",
  "price_per_sqft",
  "price_per_unit",
  "cap_rate",
] as const;

/** How a company name finds its company (owner portfolio, tenant footprint). */
function nameMatch(role: "owner" | "tenant") {
  const schema = StringEnum(["best", "unique"] as const, {
    description:
      `How ${role}_name picks the ${role}: best (default) takes the exact name, else the ${role} with the most properties whose name contains it; ` +
      `unique takes the exact name, else the only ${role} whose name contains it, and refuses free of charge (400 ambiguous_name, listing them) when several do.`,
  });
  return WithDefault(schema, "best");
}

/** The inputs of both property searches (across asset types, and of one asset type). */
const PROPERTY_SEARCH = {
  geography: geography("searchProperties"),
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
    geography: geography("listParcels"),
    state_code: q.state_code,
    county_fips: Input("fips", Type.String({ pattern: "^[0-9]{5}$", description: "Five-digit county FIPS code." })),
    city: q.city,
    zip: q.zip,
    apn: Type.String({ minLength: 1, maxLength: 40, description: "Assessor's parcel number (exact)." }),
    land_use: StringEnum(PARCEL_LAND_USES, { description: "Standardised land use, e.g. commercial." }),
  }),
  searchListings: QueryObject({
    geography: geography("searchListings"),
    state_code: q.state_code,
    state: Input(
      "state",
      Type.String({ pattern: "^[A-Za-z]{2}$", description: "The older name of `state_code`, still accepted (give one of the two)." }),
    ),
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
    property_id: Input("property_id", Type.String({ pattern: "^cp_[A-Za-z0-9-]+$", description: "Subject property id." })),
    geography: geography("findSaleComps", "Where the sales are (with a subject too: only sales there)"),
    state_code: q.state_code,
    city: q.city,
    metro_id: q.metro_id,
    asset_type: q.asset_type,
    subtype: q.subtype,
    min_sale_date: q.date("Earliest sale date.", "start"),
    max_sale_date: q.date("Latest sale date.", "end"),
    min_price: q.price("Minimum sale price, USD."),
    max_price: q.price("Maximum sale price, USD."),
    min_building_area_sqft: q.min_building_area_sqft,
    max_distance_miles: WithDefault(
      Type.Number({ exclusiveMinimum: 0, maximum: 250, description: "Search radius around the subject, miles (subject searches only)." }),
      25,
    ),
    prefer_sold_within_months: Type.Integer({
      minimum: 1,
      maximum: 240,
      description:
        "Around a subject: sales at most this many whole months before the capture date's month (`months_since_sale`) come " +
        "before every older sale, each group in the chosen order; older sales fill the list only where fewer recent ones " +
        "match. 36 asks for the last three years first and widens only when they are too few (subject searches only).",
    }),
    per_property: WithDefault(
      StringEnum(["all", "latest"] as const, {
        description: "all: every matching sale; latest: each property's latest matching sale only (no repeat sales of one building).",
      }),
      "all",
    ),
    sort: StringEnum(SALE_SORTS, {
      description:
        "Order of the comps: similarity_score (default around a subject) or distance_miles (subject searches only), " +
        "sale_date (default in a place), sale_price, price_per_sqft, price_per_unit or cap_rate. Missing values sort last.",
    }),
    order: StringEnum(["asc", "desc"] as const, {
      description: "asc or desc; the default is desc, except distance_miles (asc).",
    }),
    stats: StringEnum(["true", "false"] as const, {
      description:
        "true adds `statistics`: count, mean, min, median and max of each numeric field over every matching sale " +
        "(not just this page; `limit` and `offset` page `data` only). No extra charge.",
    }),
  }),
  getMarketSnapshot: QueryObject(MARKET_INPUTS, ["geography", "asset_type"]),
  analyseAssetType: QueryObject({ geography: geography("analyseAssetType"), state_code: q.state_code, metro_id: q.metro_id }),
  getOwnerPortfolio: QueryObject({
    owner_id: q.company_id("Owner company id, e.g. co_0001a2b3."),
    owner_name: q.owner_name,
    name_match: nameMatch("owner"),
    geography: geography("getOwnerPortfolio", "Where the holdings are"),
    asset_type: q.asset_type,
    state_code: q.state_code,
  }),
  searchCompanies: QueryObject({
    q: Type.String({ minLength: 1, maxLength: 120, description: "Part of the company name (case-insensitive)." }),
    state_code: Input("state", Type.String({ pattern: "^[A-Za-z]{2}$", description: "Headquarters state, e.g. TX." })),
  }),
  getTenantFootprint: QueryObject({
    tenant_id: q.company_id("Tenant company id."),
    tenant_name: Type.String({ minLength: 2, maxLength: 120, description: "Tenant name or part of it." }),
    name_match: nameMatch("tenant"),
    geography: geography("getTenantFootprint", "Where the locations are"),
    asset_type: q.asset_type,
    state_code: q.state_code,
  }),
  rankDiligenceCandidates: QueryObject({
    geography: geography("rankDiligenceCandidates"),
    asset_type: q.asset_type,
    state_code: q.state_code,
    metro_id: q.metro_id,
    min_score: Type.Integer({ minimum: 0, maximum: 100, description: "Lowest score to include, 0..100." }),
  }),
} satisfies Record<string, TObject>;

export type QueriedOperation = keyof typeof QUERIES;

/** Every input that names a place; a request names its place once (`geography`, or the others). */
export const PLACE_PARAMS = ["geography", "state_code", "state", "city", "zip", "metro_id", "county_fips"] as const;

/**
 * Inputs that bound a range, by operation: a lower bound above its upper bound can match
 * nothing, so the service refuses it free of charge and the add-in before any request.
 */
export const RANGES_OF: Partial<
  Record<QueriedOperation | "getMarketHistory" | "getPropertyHistory", readonly (readonly [string, string])[]>
> = {
  findSaleComps: [
    ["min_sale_date", "max_sale_date"],
    ["min_price", "max_price"],
  ],
  searchListings: [["min_price", "max_price"]],
  getMarketHistory: [["from", "to"]],
  getPropertyHistory: [["from", "to"]],
};

/** The first range of `query` whose lower bound is above its upper bound, as a sentence; null if none. */
export function impossibleRange(operation: string, query: object): { low: string; high: string; detail: string } | null {
  const given = new Map<string, unknown>(Object.entries(query));
  for (const [low, high] of RANGES_OF[operation as keyof typeof RANGES_OF] ?? []) {
    const a = given.get(low) as string | number | undefined | null;
    const b = given.get(high) as string | number | undefined | null;
    if (a === undefined || a === null || b === undefined || b === null || a <= b) continue;
    // A relative date (-8Q, LQ) is a day only once a capture date resolves it: the service checks it then.
    if (typeof a === "string" && typeof b === "string" && !(isIsoDate(a) && isIsoDate(b))) continue;
    return { low, high, detail: `${low} (${a}) is above ${high} (${b}): nothing can match.` };
  }
  return null;
}
