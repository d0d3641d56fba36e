// Fixed vocabularies of the v1 interface. The specification names the asset types;
// docs/decisions.md records the company types and listing statuses chosen where it is silent.
// Order matters: it is the order clients show them in.

export const ASSET_TYPES = [
  "multifamily",
  "industrial",
  "office",
  "retail",
  "land",
  "hospitality",
  "health-care",
  "flex",
  "specialty",
  "sports-and-entertainment",
  "student",
  "senior-living",
] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export const COMPANY_TYPES = ["owner", "tenant", "broker", "lender", "property-manager", "developer"] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

export const LISTING_STATUSES = ["active", "pending", "sold", "withdrawn", "expired"] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const LISTING_PROPERTY_TYPES = ["single_family", "condo", "townhouse", "multi_family", "land", "commercial"] as const;

export const PARCEL_LAND_USES = [
  "residential_single_family",
  "residential_multi_family",
  "commercial",
  "industrial",
  "agricultural",
  "vacant",
  "institutional",
] as const;

export const BUILDING_CLASSES = ["A", "B", "C"] as const;

/**
 * The search inputs of section 4.3, by the query parameter that carries each one.
 * Whether an asset type accepts an input is decided by the snapshot's data (see the catalog),
 * except the ones marked `always`, which every record has.
 */
export const SEARCH_INPUTS = {
  geography: { concept: "geography", always: true },
  state_code: { concept: "geography", always: true },
  city: { concept: "geography", always: true },
  zip: { concept: "geography", always: true },
  metro_id: { concept: "geography", always: true },
  q: { concept: "text", always: true },
  subtype: { concept: "property subtype", always: false },
  min_building_area_sqft: { concept: "minimum building area", always: false },
  min_land_area_acres: { concept: "minimum land area", always: false },
  min_units: { concept: "minimum units", always: false },
  owner_id: { concept: "ownership", always: false },
  owner_name: { concept: "ownership", always: false },
} as const;
export type SearchInput = keyof typeof SEARCH_INPUTS;

/** The record field whose presence decides whether a data-dependent input is supported. */
export const INPUT_FIELD: Partial<Record<SearchInput, string>> = {
  subtype: "subtype",
  min_building_area_sqft: "building_area_sqft",
  min_land_area_acres: "land_area_acres",
  min_units: "units",
  owner_id: "owner_id",
  owner_name: "owner_id",
};
