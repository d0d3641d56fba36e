// Names as analysts type them, and what each means: the table the service's tests and the
// add-in's tests both read, so the two sides cannot disagree about a spelling. Asset types in
// the industry's spellings (null: refused, with `hint` saying what to write instead), and fields,
// metrics and sort keys by name or label in any case and spacing.
import type { AssetType } from "../../src/contract/vocabulary";

export interface AssetTypeCase {
  input: string;
  assetType: AssetType | null;
  /** For a refused spelling, what its message says. */
  hint?: RegExp;
}

export const ASSET_TYPE_CASES: AssetTypeCase[] = [
  { input: "multifamily", assetType: "multifamily" },
  { input: "Multifamily", assetType: "multifamily" },
  { input: "Multi-Family", assetType: "multifamily" },
  { input: "multi_family", assetType: "multifamily" },
  { input: "residential_multi_family", assetType: "multifamily" },
  { input: "MF", assetType: "multifamily" },
  { input: "Apartments", assetType: "multifamily" },
  { input: "Hotel", assetType: "hospitality" },
  { input: "Hospitality", assetType: "hospitality" },
  { input: "Healthcare", assetType: "health-care" },
  { input: "Health Care", assetType: "health-care" },
  { input: "Senior Housing", assetType: "senior-living" },
  { input: "senior living", assetType: "senior-living" },
  { input: "Student Housing", assetType: "student" },
  { input: "Retail", assetType: "retail" },
  { input: " OFFICE ", assetType: "office" },
  { input: "Industrial", assetType: "industrial" },
  { input: "Self Storage", assetType: null, hint: /self-storage subtype of specialty/ },
  { input: "Self-Storage", assetType: null, hint: /self-storage subtype of specialty/ },
  { input: "Warehouse", assetType: null, hint: /warehouse subtype of industrial/ },
  { input: "castle", assetType: null, hint: /not one of multifamily/ },
];

export interface FieldCase {
  /** The resource (=PROP.FIELDS) the name belongs to. */
  resource: "property" | "market" | "sale_comp" | "market_history";
  input: string;
  name: string;
}

/** Fields, metrics and sort keys by their names and by the labels the pane and =PROP.FIELDS show. */
export const FIELD_CASES: FieldCase[] = [
  { resource: "property", input: "year_built", name: "year_built" },
  { resource: "property", input: "Year Built", name: "year_built" },
  { resource: "property", input: "YEAR BUILT", name: "year_built" },
  { resource: "property", input: "Building area (sq ft)", name: "building_area_sqft" },
  { resource: "property", input: "building area", name: "building_area_sqft" },
  { resource: "market", input: "Vacancy Rate", name: "vacancy_rate" },
  { resource: "market", input: "vacancy-rate", name: "vacancy_rate" },
  { resource: "market", input: "Asking rent ($/sq ft/yr)", name: "asking_rent_sqft_year" },
  { resource: "market", input: "Median cap rate", name: "median_cap_rate" },
  { resource: "sale_comp", input: "Sale Price", name: "sale_price" },
  { resource: "sale_comp", input: "sale price", name: "sale_price" },
  { resource: "sale_comp", input: "Cap rate", name: "cap_rate" },
  { resource: "market_history", input: "Vacancy Rate", name: "vacancy_rate" },
];

/** Names no field has: refused. */
export const NOT_FIELDS: FieldCase[] = [
  { resource: "property", input: "yearbuilt", name: "" },
  { resource: "market", input: "vacancy", name: "" },
];
