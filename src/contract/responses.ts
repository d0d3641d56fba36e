// Records that only responses carry: rows the service computes from the snapshot's tables
// (a sale comp with its distance and score, a portfolio holding, a tenant location, an
// asset-type analysis and its breakdowns, a comparison), and what lists carry beside their rows
// (a company summary, a sale-comps subject). The routes serialise with them and the OpenAPI
// document publishes them; the add-in derives its spill columns and reads answers by them. They
// live here, not in the route modules, because the add-in may not import server code.
import { Type, type Static, type TArray, type TString } from "@sinclair/typebox";
import { Id, IsoDate, Nullable, Ratio, StringEnum } from "./schema-helpers";
import { CommercialProperty, SaleComp, Tenancy } from "./records";
import { SnapshotRef } from "./snapshot-ref";

const P = CommercialProperty.properties;

/** A sale as the sale-comps search returns it: published as the `SaleComp` component, since this is what clients receive. */
export const SaleCompRow = Type.Object(
  {
    ...SaleComp.properties,
    distance_miles: Nullable(Type.Number({ description: "Miles from the subject (subject searches only)." })),
    similarity_score: Nullable(Type.Number({ minimum: 0, maximum: 1, description: "0..1, subject searches only." })),
    months_since_sale: Type.Integer({
      description: "Whole calendar months from the sale's month to the snapshot's capture month (0: sold in the capture's month).",
    }),
  },
  {
    $id: "SaleComp",
    title: "Sale comparable",
    description: "A captured sale. distance_miles and similarity_score are set in subject searches.",
  },
);
export type SaleCompRow = Static<typeof SaleCompRow>;

export const PortfolioHolding = Type.Object(
  {
    id: Type.String({ description: "The property id." }),
    object: Type.Literal("portfolio_holding"),
    property_id: P.id,
    property_name: P.name,
    asset_type: P.asset_type,
    subtype: P.subtype,
    city: P.city,
    state_code: P.state_code,
    building_area_sqft: P.building_area_sqft,
    units: P.units,
    estimated_value: P.estimated_value,
    acquired_date: Nullable(IsoDate("Date the owner bought it, when a sale records it.")),
    acquisition_price: Nullable(Type.Number({ description: "Price paid, USD, when a sale records it." })),
    evidence: Type.String({ description: "recorded_sale (a captured sale to this owner) or ownership_record (owner of record)." }),
    evidence_id: Type.String({ description: "The sale id, or the parcel/property id of the ownership record." }),
    owner_id: Id("co", "The owner (the company the portfolio is of)."),
    owner_name: Type.String({ description: "The owner's name." }),
  },
  { $id: "PortfolioHolding", title: "Portfolio holding", description: "One property an owner holds, with the evidence for it." },
);
export type PortfolioHolding = Static<typeof PortfolioHolding>;

export const TenantLocation = Type.Object(
  {
    ...Tenancy.properties,
    object: Type.Literal("tenant_location"),
    tenant_name: Type.String(),
    property_name: P.name,
    asset_type: P.asset_type,
    address: P.address,
    city: P.city,
    state_code: P.state_code,
    latitude: P.latitude,
    longitude: P.longitude,
  },
  { $id: "TenantLocation", title: "Tenant location", description: "One location a tenant occupies." },
);
export type TenantLocation = Static<typeof TenantLocation>;

/** Beside a portfolio's or footprint's rows: the company they are of, and how it was found. */
export const CompanySummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    property_count: Type.Integer({ description: "Records matching the filters." }),
    total_building_area_sqft: Nullable(Type.Number()),
    states: Type.Array(Type.String()),
    matched_by: StringEnum(["id", "exact_name", "name_contains"] as const, { description: "How the company was found." }),
    candidate_count: Type.Integer({ minimum: 1, description: "Companies of the type the name matched (1 for an id)." }),
    other_candidates: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), property_count: Type.Integer() }), {
      description: "The other companies the name matched, largest first (at most five).",
    }),
  },
  { $id: "CompanySummary", title: "Company summary" },
);
export type CompanySummary = Static<typeof CompanySummary>;

/** Beside sale comps: the subject property they were found around, or null in a place search. */
export const SaleCompsSubject = Type.Object({
  id: Type.String(),
  name: Type.String(),
  asset_type: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  radius_miles: Type.Number(),
});
export type SaleCompsSubject = Static<typeof SaleCompsSubject>;

const Num = (description: string) => Nullable(Type.Number({ description }));

/** One row of an asset analysis' `by_subtype`, `by_building_class` or `by_state`. */
export const AssetBreakdown = Type.Object({
  key: Type.String({ description: "Subtype, building class or state code." }),
  property_count: Type.Integer(),
  building_area_sqft: Num("Total building area."),
  units: Num("Total units."),
  occupancy_rate: Nullable(Ratio("Weighted occupancy, 0..1.")),
});
export type AssetBreakdown = Static<typeof AssetBreakdown>;

export const AssetAnalysis = Type.Object(
  {
    object: Type.Literal("asset_analysis"),
    asset_type: Type.String(),
    geography_type: Type.String({ description: "national, state, county, metro, city or zip." }),
    geography_id: Nullable(Type.String()),
    as_of: Type.String({ format: "date" }),
    property_count: Type.Integer(),
    total_building_area_sqft: Num("Sum of building area."),
    total_units: Num("Sum of units."),
    median_building_area_sqft: Num("Median building area."),
    median_year_built: Num("Median year built."),
    occupancy_rate: Nullable(Ratio("Area- (or unit-) weighted occupancy, 0..1.")),
    median_cap_rate: Nullable(Ratio("Median cap rate of sales in the last 24 months.")),
    median_price_per_sqft: Num("Median sale price per sq ft, last 24 months."),
    median_price_per_unit: Num("Median sale price per unit, last 24 months."),
    sales_count_12m: Type.Integer(),
    sales_volume_12m: Type.Number(),
    by_subtype: Type.Array(AssetBreakdown),
    by_building_class: Type.Array(AssetBreakdown),
    by_state: Type.Array(AssetBreakdown),
  },
  { $id: "AssetAnalysis", title: "Asset-type analysis" },
);
export type AssetAnalysis = Static<typeof AssetAnalysis>;

/** Count, mean, minimum, median and maximum of one numeric field across compared records. */
export const ComparisonStatistic = Type.Object({
  field: Type.String(),
  count: Type.Integer({ description: "Records with a value for the field." }),
  mean: Type.Union([Type.Number(), Type.Null()], { description: "Average of the values (null when there are none)." }),
  min: Type.Union([Type.Number(), Type.Null()]),
  median: Type.Union([Type.Number(), Type.Null()]),
  max: Type.Union([Type.Number(), Type.Null()]),
});
export type ComparisonStatistic = Static<typeof ComparisonStatistic>;

/** A list's `statistics` member (`stats=true`): one per numeric field of its records, over every match. */
export const ListStatistics = Type.Optional(
  Type.Array(ComparisonStatistic, {
    description:
      "With stats=true only: one per numeric field of the records, over every record matching the request (all " +
      "`total_count` of them, not just this page). Counts are 0 and figures null when nothing matches.",
  }),
);

/** The compare answer (POST /v1/commercial/properties/compare). */
export const PropertyComparison = Type.Object({
  object: Type.Literal("property_comparison"),
  fields: Type.Array(Type.String(), { description: "The fields compared, id first, in the order asked." }),
  properties: Type.Array(Type.Partial(CommercialProperty), {
    description:
      "The properties in the order asked, each with the fields compared; a property listed in `not_modified` (still as " +
      "the ETag held for it) is its `id` only, as a 304 carries no body: keep the copy held.",
  }),
  statistics: Type.Array(ComparisonStatistic, {
    description: "One per numeric field compared; none when every property is in `not_modified` (the free answer carries no data).",
  }),
  etags: Type.Record(Type.String(), Type.String(), {
    description:
      "Each property's validator, by id: the ETag its detail endpoint gives it, so a property fetched here revalidates " +
      "there (If-None-Match) or in a later comparison (if_none_match).",
  }),
  not_modified: Type.Array(Type.String(), {
    description:
      "The ids whose if_none_match named the property as it is: each is its id only in `properties`. When this lists " +
      "every id asked, the call costs nothing and carries no statistics.",
  }),
  snapshot: SnapshotRef,
});
export type PropertyComparison = Static<typeof PropertyComparison>;

/**
 * The catalog (GET /v1/commercial/catalog): what the API offers over this snapshot. The task
 * pane builds its search forms from it (asset types with the inputs each supports and why the
 * others are not, subtypes, company types, listing vocabularies, metros, paging bounds).
 * The route answers with this very schema (src/server/routes/coverage-catalog.ts).
 */
/**
 * The catalog's lists of plain values, each with the name of one of its values (the column a
 * table of the list shows): written once here for the schema, the add-in's PROP.CATALOG sections
 * and the pane's select lists.
 */
export const CATALOG_VALUE_LISTS = {
  company_types: "company_type",
  listing_statuses: "listing_status",
  listing_property_types: "listing_property_type",
} as const;
export type CatalogValueList = keyof typeof CATALOG_VALUE_LISTS;
export const CATALOG_VALUE_LIST_NAMES = Object.keys(CATALOG_VALUE_LISTS) as CatalogValueList[];

export function isCatalogValueList(name: string): name is CatalogValueList {
  return Object.prototype.hasOwnProperty.call(CATALOG_VALUE_LISTS, name);
}

/** The schema's members for the value lists: an array of strings each. */
function valueListMembers(): { [K in CatalogValueList]: TArray<TString> } {
  return Object.fromEntries(CATALOG_VALUE_LIST_NAMES.map((name) => [name, Type.Array(Type.String())])) as {
    [K in CatalogValueList]: TArray<TString>;
  };
}

export const Catalog = Type.Object({
  object: Type.Literal("catalog"),
  api_version: Type.Literal("v1"),
  snapshot: SnapshotRef,
  surfaces: Type.Array(
    Type.Object({
      operation_id: Type.String(),
      method: Type.String(),
      path: Type.String(),
      summary: Type.String(),
      cost_credits: Type.Integer(),
      cost_per: Type.String({ description: 'What cost_credits is charged per: "call", or a unit such as "market answered".' }),
      place_kinds: Type.Array(Type.String(), {
        description: "The kinds of place its geography input takes (state, county, city, zip, metro); empty if none.",
      }),
    }),
  ),
  asset_types: Type.Array(
    Type.Object({
      asset_type: Type.String(),
      property_count: Type.Integer(),
      supported_inputs: Type.Array(Type.String()),
      unsupported_inputs: Type.Array(Type.Object({ input: Type.String(), reason: Type.String() })),
      subtypes: Type.Array(Type.String()),
    }),
  ),
  ...valueListMembers(),
  metros: Type.Array(
    Type.Object({ metro_id: Type.String(), name: Type.String(), state_code: Type.String(), property_count: Type.Integer() }),
  ),
  paging: Type.Object({ default_limit: Type.Integer(), max_limit: Type.Integer(), max_offset: Type.Integer() }),
  fields: Type.Record(Type.String(), Type.Array(Type.String())),
});
export type Catalog = Static<typeof Catalog>;
