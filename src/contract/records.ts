// The records of the v1 interface. Each schema is used four ways: the server serialises
// responses with it, the OpenAPI document publishes it, the importer validates captured
// rows against it, and the snapshot's SQLite tables are derived from it (one column a field).
// Rows are flat on purpose: every field becomes a spreadsheet column.
import { Type, type Static } from "@sinclair/typebox";
import { Id, IsoDate, Literal, Money, Nullable, Rate, Ratio, StateCode, StringEnum } from "./schema-helpers";
import { ASSET_TYPES, BUILDING_CLASSES, COMPANY_TYPES, LISTING_PROPERTY_TYPES, LISTING_STATUSES, PARCEL_LAND_USES } from "./vocabulary";
import { THIN_MARKET_PROPERTIES } from "./market-sample";

const Lat = Type.Number({ minimum: -90, maximum: 90, description: "Latitude, WGS84 degrees." });
const Lon = Type.Number({ minimum: -180, maximum: 180, description: "Longitude, WGS84 degrees." });
const Year = (description: string) => Type.Integer({ minimum: 1700, maximum: 2100, description });
const Sqft = (description: string) => Type.Number({ minimum: 0, description });

export const Parcel = Type.Object(
  {
    id: Id("par", "Stable parcel identifier."),
    object: Literal("parcel", "Resource type."),
    apn: Type.String({ description: "Assessor's parcel number, as the county formats it." }),
    county_fips: Type.String({ pattern: "^[0-9]{5}$", description: "Five-digit FIPS code of the parcel's county." }),
    county: Type.String({ description: "County name." }),
    state_code: StateCode(),
    city: Type.String(),
    zip: Type.String({ pattern: "^[0-9]{5}$" }),
    address: Type.String({ description: "Situs (street) address." }),
    latitude: Lat,
    longitude: Lon,
    land_use: StringEnum(PARCEL_LAND_USES, { description: "Standardised land use." }),
    lot_area_sqft: Sqft("Lot area in square feet."),
    building_area_sqft: Nullable(Sqft("Improved building area in square feet; null for vacant land.")),
    year_built: Nullable(Year("Year the main improvement was built.")),
    assessed_land_value: Money("Assessed land value, USD."),
    assessed_improvement_value: Money("Assessed improvement value, USD."),
    assessed_total_value: Money("Assessed total value, USD."),
    assessment_year: Year("Tax year of the assessment."),
    tax_amount: Money("Annual property tax, USD."),
    owner_name: Type.String({ description: "Owner of record." }),
    owner_type: StringEnum(["individual", "company", "trust", "government"] as const),
    last_sale_date: Nullable(IsoDate("Date of the last recorded transfer.")),
    last_sale_price: Nullable(Money("Price of the last recorded transfer, USD.")),
    property_id: Nullable(Id("cp", "Commercial property on this parcel, if any.")),
  },
  { $id: "Parcel", title: "Parcel", description: "An assessor parcel." },
);
export type Parcel = Static<typeof Parcel>;

export const Listing = Type.Object(
  {
    id: Id("lst", "Stable listing identifier."),
    object: Literal("listing", "Resource type."),
    mls_number: Type.String({ description: "Listing service number." }),
    status: StringEnum(LISTING_STATUSES, { description: "Listing status." }),
    property_type: StringEnum(LISTING_PROPERTY_TYPES),
    address: Type.String(),
    city: Type.String(),
    state_code: StateCode(),
    zip: Type.String({ pattern: "^[0-9]{5}$" }),
    latitude: Lat,
    longitude: Lon,
    list_price: Money("Current asking price, USD."),
    original_list_price: Money("Asking price when first listed, USD."),
    sold_price: Nullable(Money("Closing price, USD; only for sold listings.")),
    price_per_sqft: Nullable(Money("List price per square foot of building area.")),
    bedrooms: Nullable(Type.Integer({ minimum: 0 })),
    bathrooms: Nullable(Type.Number({ minimum: 0 })),
    building_area_sqft: Nullable(Sqft("Building area in square feet.")),
    lot_area_sqft: Nullable(Sqft("Lot area in square feet.")),
    year_built: Nullable(Year("Year built.")),
    listed_date: IsoDate("Date first listed."),
    status_date: IsoDate("Date the status last changed."),
    days_on_market: Type.Integer({ minimum: 0 }),
    agent_name: Type.String({ description: "Listing agent." }),
    brokerage_id: Id("co", "Listing brokerage (a broker company)."),
    brokerage_name: Type.String(),
    parcel_id: Nullable(Id("par", "Parcel the listing sits on.")),
    property_id: Nullable(Id("cp", "Commercial property, for commercial listings.")),
  },
  { $id: "Listing", title: "Listing", description: "A property listing." },
);
export type Listing = Static<typeof Listing>;

export const CommercialProperty = Type.Object(
  {
    id: Id("cp", "Stable commercial property identifier."),
    object: Literal("commercial_property", "Resource type."),
    name: Type.String(),
    asset_type: StringEnum(ASSET_TYPES),
    subtype: Nullable(Type.String({ description: "Property subtype within the asset type." })),
    building_class: Nullable(StringEnum(BUILDING_CLASSES, { description: "Building class A, B or C." })),
    address: Type.String(),
    city: Type.String(),
    state_code: StateCode(),
    zip: Type.String({ pattern: "^[0-9]{5}$" }),
    county: Type.String(),
    county_fips: Type.String({ pattern: "^[0-9]{5}$" }),
    metro_id: Nullable(Type.String({ description: "Metro area identifier (see markets)." })),
    metro_name: Nullable(Type.String()),
    latitude: Lat,
    longitude: Lon,
    building_area_sqft: Nullable(Sqft("Rentable building area, square feet.")),
    land_area_acres: Nullable(Type.Number({ minimum: 0, description: "Land area, acres." })),
    units: Nullable(Type.Integer({ minimum: 0, description: "Units, beds or keys, by asset type." })),
    year_built: Nullable(Year("Year built.")),
    stories: Nullable(Type.Integer({ minimum: 0 })),
    occupancy_rate: Nullable(Ratio("Share of space or units occupied, 0..1.")),
    asking_rent_sqft_year: Nullable(Money("Asking rent, USD per square foot per year.")),
    asking_rent_unit_month: Nullable(Money("Asking rent, USD per unit per month.")),
    estimated_value: Nullable(Money("Estimated market value, USD.")),
    owner_id: Nullable(Id("co", "Owner (an owner company).")),
    owner_name: Nullable(Type.String()),
    parcel_id: Nullable(Id("par", "Parcel the property sits on.")),
    tenant_count: Type.Integer({ minimum: 0 }),
    last_sale_id: Nullable(Id("sale", "Most recent recorded sale.")),
    last_sale_date: Nullable(IsoDate("Date of the most recent sale.")),
    last_sale_price: Nullable(Money("Price of the most recent sale, USD.")),
  },
  { $id: "CommercialProperty", title: "Commercial property" },
);
export type CommercialProperty = Static<typeof CommercialProperty>;

export const SaleComp = Type.Object(
  {
    id: Id("sale", "Stable sale identifier."),
    object: Literal("sale_comp", "Resource type."),
    property_id: Id("cp", "Property sold."),
    property_name: Type.String(),
    asset_type: StringEnum(ASSET_TYPES),
    subtype: Nullable(Type.String()),
    building_class: Nullable(StringEnum(BUILDING_CLASSES)),
    address: Type.String(),
    city: Type.String(),
    state_code: StateCode(),
    zip: Nullable(Type.String({ pattern: "^[0-9]{5}$", description: "ZIP code of the property." })),
    county_fips: Nullable(Type.String({ pattern: "^[0-9]{5}$", description: "Five-digit FIPS code of the property's county." })),
    metro_id: Nullable(Type.String()),
    latitude: Lat,
    longitude: Lon,
    sale_date: IsoDate("Recording date."),
    sale_price: Money("Sale price, USD."),
    building_area_sqft: Nullable(Sqft("Building area at sale.")),
    land_area_acres: Nullable(Type.Number({ minimum: 0 })),
    units: Nullable(Type.Integer({ minimum: 0 })),
    year_built: Nullable(Year("Year built.")),
    price_per_sqft: Nullable(Money("Sale price per square foot of building area.")),
    price_per_unit: Nullable(Money("Sale price per unit.")),
    price_per_acre: Nullable(Money("Sale price per acre of land.")),
    cap_rate: Nullable(Ratio("Capitalisation rate at sale, 0..1 (0.065 = 6.5%).")),
    occupancy_at_sale: Nullable(Ratio("Occupancy at sale, 0..1.")),
    sale_type: StringEnum(["investment", "owner_user", "portfolio", "distressed"] as const),
    buyer_id: Id("co", "Buyer (a company)."),
    buyer_name: Type.String(),
    seller_id: Id("co", "Seller (a company)."),
    seller_name: Type.String(),
    broker_id: Nullable(Id("co", "Brokerage on the sale.")),
    broker_name: Nullable(Type.String()),
  },
  { $id: "SaleComp", title: "Sale comparable" },
);
export type SaleComp = Static<typeof SaleComp>;

export const Company = Type.Object(
  {
    id: Id("co", "Stable company identifier."),
    object: Literal("company", "Resource type."),
    company_type: StringEnum(COMPANY_TYPES),
    name: Type.String(),
    industry: Nullable(Type.String({ description: "Industry, for tenants." })),
    headquarters_city: Type.String(),
    headquarters_state: StateCode(),
    founded_year: Nullable(Year("Year founded.")),
    website: Nullable(Type.String()),
    property_count: Type.Integer({
      minimum: 0,
      description: "Properties owned (owner), occupied (tenant), sold (broker) or developed (developer).",
    }),
  },
  { $id: "Company", title: "Company" },
);
export type Company = Static<typeof Company>;

export const Tenancy = Type.Object(
  {
    id: Id("ten", "Stable tenancy identifier."),
    object: Literal("tenancy", "Resource type."),
    tenant_id: Id("co", "Tenant (a tenant company)."),
    property_id: Id("cp", "Property occupied."),
    suite: Nullable(Type.String()),
    leased_area_sqft: Nullable(Sqft("Leased area, square feet.")),
    lease_start: IsoDate("Lease commencement."),
    lease_expiration: IsoDate("Lease expiration."),
    rent_sqft_year: Nullable(Money("Contract rent, USD per square foot per year.")),
  },
  { $id: "Tenancy", title: "Tenancy" },
);
export type Tenancy = Static<typeof Tenancy>;

export const MarketSnapshot = Type.Object(
  {
    id: Type.String({
      description:
        "`mkt_<geography_id>_<asset_type>` (a county's id carries its FIPS code, a ZIP's the code; the nation's is `mkt_US_<asset_type>`).",
    }),
    object: Literal("market_snapshot", "Resource type."),
    geography_type: StringEnum(["national", "state", "county", "metro", "city", "zip"] as const),
    geography_id: Type.String({ description: "`US` (the nation), state code, county FIPS code, metro id, city id or ZIP code." }),
    geography_name: Type.String({ examples: ["Austin, TX", "United States"] }),
    state_code: Nullable(StateCode("State of the geography (a metro's principal state); null for the nation.")),
    asset_type: StringEnum(ASSET_TYPES),
    as_of: IsoDate("Date the snapshot's figures describe (the capture date)."),
    property_count: Type.Integer({
      minimum: 0,
      description: "Properties of the asset type in the geography: how many stand behind these figures.",
    }),
    thin: Type.Boolean({
      description: `True when fewer than ${THIN_MARKET_PROPERTIES} properties stand behind the figures: a market of one or a few buildings, whose vacancy and rents are theirs.`,
    }),
    inventory_sqft: Nullable(Sqft("Total building area, square feet.")),
    inventory_units: Nullable(Type.Integer({ minimum: 0, description: "Total units, beds or keys." })),
    occupancy_rate: Nullable(Ratio("Area- (or unit-) weighted occupancy, 0..1.")),
    vacancy_rate: Nullable(Ratio("1 - occupancy_rate.")),
    asking_rent_sqft_year: Nullable(Money("Area-weighted asking rent, USD per sq ft per year.")),
    asking_rent_unit_month: Nullable(Money("Unit-weighted asking rent, USD per unit per month.")),
    rent_growth_yoy: Nullable(
      Rate("Change in average contract rent of leases signed in the last 12 months over the 12 before (0.035 = 3.5%)."),
    ),
    median_cap_rate: Nullable(Ratio("Median cap rate of sales in the last 24 months.")),
    sales_count_12m: Type.Integer({
      minimum: 0,
      description:
        "Sales dated in the 12 months to the capture date (after the same day a year before, up to it). Not the last four " +
        "quarters of market history, which are calendar quarters (the last one only to the capture date).",
    }),
    sales_volume_12m: Money("Sum of the prices of the sales in sales_count_12m (the 12 months to the capture date), USD."),
    median_price_per_sqft: Nullable(Money("Median sale price per sq ft, last 24 months.")),
    median_price_per_unit: Nullable(Money("Median sale price per unit, last 24 months.")),
    median_year_built: Nullable(Year("Median year built of the inventory.")),
  },
  { $id: "MarketSnapshot", title: "Market snapshot" },
);
export type MarketSnapshot = Static<typeof MarketSnapshot>;

/** A market as the snapshot stores it (table `markets`): `thin` follows from `property_count` when it is answered. */
export const MarketRecord = Type.Omit(MarketSnapshot, ["thin"], { $id: "MarketRecord", title: "Market record" });
export type MarketRecord = Static<typeof MarketRecord>;

export const DiligenceCandidate = Type.Object(
  {
    id: Type.String({ description: "`dil_<property id without prefix>`." }),
    object: Literal("diligence_candidate", "Resource type."),
    property_id: Id("cp", "Property to look at."),
    property_name: Type.String(),
    asset_type: StringEnum(ASSET_TYPES),
    subtype: Nullable(Type.String()),
    city: Type.String(),
    state_code: StateCode(),
    metro_id: Nullable(Type.String()),
    owner_id: Nullable(Type.String()),
    owner_name: Nullable(Type.String()),
    score: Type.Integer({ minimum: 0, maximum: 100, description: "Higher means more reason to look closer." }),
    reason_codes: Type.Array(Type.String(), { description: "Why the score is what it is, strongest first." }),
    occupancy_rate: Nullable(Ratio("Property occupancy.")),
    market_occupancy_rate: Nullable(Ratio("Occupancy of its market (metro, else state) for the asset type.")),
    lease_expiring_24m_share: Nullable(Ratio("Share of leased area expiring in the next 24 months.")),
    years_since_last_sale: Nullable(Type.Number({ minimum: 0 })),
    year_built: Nullable(Year("Year built.")),
    estimated_value: Nullable(Money("Estimated market value, USD.")),
  },
  { $id: "DiligenceCandidate", title: "Diligence candidate" },
);
export type DiligenceCandidate = Static<typeof DiligenceCandidate>;

/** Every table of the snapshot, keyed by the importer's file name (`<name>.ndjson` / `.csv`). */
export const SNAPSHOT_RESOURCES = {
  parcels: Parcel,
  listings: Listing,
  companies: Company,
  properties: CommercialProperty,
  sales: SaleComp,
  tenancies: Tenancy,
} as const;
export type SnapshotResource = keyof typeof SNAPSHOT_RESOURCES;
