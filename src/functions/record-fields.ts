// The columns each function can spill, by resource: names, types and descriptions for
// =PROP.FIELDS and for checking `cols=` before any request. Derived from the shared contract's
// record schemas where the contract has them; the few shapes only the service defines are
// written out here and held equal to its OpenAPI document by test/addin/endpoints-contract.test.ts.
import type { TSchema } from "@sinclair/typebox";
import { CommercialProperty, Company, DiligenceCandidate, Listing, MarketSnapshot, Parcel, SaleComp, Tenancy } from "../shared/contract/records";
import { InputError } from "./excel-errors";
import { canonical } from "./param-values";

export interface FieldInfo {
  name: string;
  type: string;
  description: string;
}

type Schema = { type?: string | string[]; enum?: string[]; format?: string; description?: string; const?: string; items?: Schema };

function describe(name: string, schema: Schema): FieldInfo {
  const types = ([] as string[]).concat(schema.type ?? (schema.const !== undefined ? "string" : "any"));
  const nullable = types.includes("null");
  let type = types.filter((t) => t !== "null").join(" or ");
  if (schema.format === "date") type = "date (YYYY-MM-DD)";
  if (schema.enum) type = `one of ${schema.enum.join(", ")}`;
  if (type === "array") type = "list (comma-separated)";
  return { name, type: nullable ? `${type}, may be empty` : type, description: schema.description ?? "" };
}

function fieldsOf(schema: TSchema, extra: Record<string, Schema> = {}): FieldInfo[] {
  return listed({ ...(schema.properties as Record<string, Schema>), ...extra });
}

/** Fields of a record only the service defines, written out (held equal to its OpenAPI). */
function listed(props: Record<string, Schema>): FieldInfo[] {
  return Object.entries(props).map(([name, s]) => describe(name, s));
}

const P = CommercialProperty.properties as unknown as Record<string, Schema>;
const num = (description: string, nullable = true): Schema => ({ type: nullable ? ["number", "null"] : "number", description });
const int = (description = ""): Schema => ({ type: "integer", description });
const text = (description = "", nullable = false): Schema => ({ type: nullable ? ["string", "null"] : "string", description });

const BREAKDOWN: Record<string, Schema> = {
  key: text("Subtype, building class or state code."),
  property_count: int(),
  building_area_sqft: num("Total building area."),
  units: num("Total units."),
  occupancy_rate: num("Weighted occupancy, 0..1."),
};

export const RESOURCES = {
  property: fieldsOf(CommercialProperty),
  parcel: fieldsOf(Parcel),
  listing: fieldsOf(Listing),
  sale_comp: fieldsOf(SaleComp, {
    distance_miles: num("Miles from the subject (subject searches only)."),
    similarity_score: num("0..1, subject searches only."),
  }),
  market: fieldsOf(MarketSnapshot),
  asset_analysis: listed({
    object: text(),
    asset_type: text(),
    geography_type: text("national, state or metro."),
    geography_id: text("", true),
    as_of: { type: "string", format: "date" },
    property_count: int(),
    total_building_area_sqft: num("Sum of building area."),
    total_units: num("Sum of units."),
    median_building_area_sqft: num("Median building area."),
    median_year_built: num("Median year built."),
    occupancy_rate: num("Area- (or unit-) weighted occupancy, 0..1."),
    median_cap_rate: num("Median cap rate of sales in the last 24 months."),
    median_price_per_sqft: num("Median sale price per sq ft, last 24 months."),
    median_price_per_unit: num("Median sale price per unit, last 24 months."),
    sales_count_12m: int(),
    sales_volume_12m: num("", false),
  }),
  breakdown: listed(BREAKDOWN),
  portfolio_holding: listed({
    id: text("The property id."),
    object: text(),
    property_id: P.id,
    property_name: P.name,
    asset_type: P.asset_type,
    subtype: P.subtype,
    city: P.city,
    state_code: P.state_code,
    building_area_sqft: P.building_area_sqft,
    units: P.units,
    estimated_value: P.estimated_value,
    acquired_date: { type: ["string", "null"], format: "date", description: "Date the owner bought it, when a sale records it." },
    acquisition_price: num("Price paid, USD, when a sale records it."),
    evidence: text("recorded_sale (a captured sale to this owner) or ownership_record (owner of record)."),
    evidence_id: text("The sale id, or the parcel/property id of the ownership record."),
  }),
  company: fieldsOf(Company),
  tenant_location: fieldsOf(Tenancy, {
    object: text(),
    tenant_name: text(),
    property_name: P.name,
    asset_type: P.asset_type,
    address: P.address,
    city: P.city,
    state_code: P.state_code,
    latitude: P.latitude,
    longitude: P.longitude,
  }),
  diligence_candidate: fieldsOf(DiligenceCandidate),
  statistic: listed({
    field: text("The numeric field."),
    count: int("Properties with a value for the field."),
    min: num(""),
    median: num(""),
    max: num(""),
  }),
} satisfies Record<string, FieldInfo[]>;

export type ResourceName = keyof typeof RESOURCES;

/** Other names analysts type for a resource (plural, the function's name, ...). */
const ALIASES: Record<string, ResourceName> = {
  properties: "property", search: "property", assetsearch: "property", details: "property", compare: "property",
  parcels: "parcel", listings: "listing",
  sale_comps: "sale_comp", salecomps: "sale_comp", comps: "sale_comp", sales: "sale_comp",
  markets: "market", analysis: "asset_analysis", breakdowns: "breakdown",
  portfolio: "portfolio_holding", companies: "company", footprint: "tenant_location", tenant_locations: "tenant_location",
  diligence: "diligence_candidate", diligence_candidates: "diligence_candidate", statistics: "statistic", stats: "statistic",
};

export function resourceNamed(raw: unknown): ResourceName {
  const wanted = typeof raw === "string" ? canonical(raw).replace(/-/g, "_") : "";
  if (wanted in RESOURCES) return wanted as ResourceName;
  if (wanted in ALIASES) return ALIASES[wanted];
  const names = Object.keys(RESOURCES).join(", ");
  if (!wanted) throw new InputError(`resource is empty: give one of ${names}.`);
  throw new InputError(`"${String(raw).trim()}" is not a resource; use one of ${names}.`);
}

export function fieldNames(resource: ResourceName): string[] {
  return RESOURCES[resource].map((f) => f.name);
}
