// Fixed vocabularies of the v1 interface: the asset types, and the company types and listing
// statuses docs/decisions.md records.
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

/**
 * The key names and labels are matched by: case, and which separator (spaces, underscores,
 * hyphens, punctuation) stands between words, do not matter ("Vacancy Rate", "vacancy-rate" and
 * "vacancy_rate" are one key); where words break does ("vacancyrate" is another).
 */
export function nameKey(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * The spellings of asset types analysts and other vocabularies use, by their key (nameKey),
 * beside each asset type's own name. `multifamily` is the asset type's canonical name; listings
 * call it `multi_family` (a property type) and parcels `residential_multi_family` (a land use):
 * all three mean it here.
 */
const ASSET_TYPE_SPELLINGS: Record<string, AssetType> = {
  multi_family: "multifamily",
  mf: "multifamily",
  apartment: "multifamily",
  apartments: "multifamily",
  residential_multi_family: "multifamily",
  residential_multifamily: "multifamily",
  hotel: "hospitality",
  hotels: "hospitality",
  motel: "hospitality",
  lodging: "hospitality",
  healthcare: "health-care",
  medical: "health-care",
  senior_housing: "senior-living",
  seniors_housing: "senior-living",
  seniors_living: "senior-living",
  assisted_living: "senior-living",
  student_housing: "student",
  offices: "office",
  shopping_center: "retail",
  vacant_land: "land",
  sports_entertainment: "sports-and-entertainment",
  sports_and_entertainment: "sports-and-entertainment",
  entertainment: "sports-and-entertainment",
};

/**
 * Spellings that name a subtype of one asset type rather than an asset type: refused with what
 * to write instead, since taking the whole asset type would count what the analyst did not mean.
 */
const SUBTYPE_SPELLINGS = new Map<string, { assetType: AssetType; subtype: string }>(
  Object.entries({
    self_storage: { assetType: "specialty", subtype: "self-storage" },
    storage: { assetType: "specialty", subtype: "self-storage" },
    data_center: { assetType: "specialty", subtype: "data-center" },
    warehouse: { assetType: "industrial", subtype: "warehouse" },
    distribution: { assetType: "industrial", subtype: "distribution" },
    cold_storage: { assetType: "industrial", subtype: "cold-storage" },
  }),
);

const ASSET_TYPE_BY_KEY = new Map<string, AssetType>([
  ...ASSET_TYPES.map((t): [string, AssetType] => [nameKey(t), t]),
  ...Object.entries(ASSET_TYPE_SPELLINGS),
]);

/**
 * The asset type a spelling names ("Multi-Family", "MF", "Apartments", "Hotel" ...), or null.
 * The service (its `asset_type` inputs) and the add-in (every asset type argument and option)
 * read asset types with this one function.
 */
export function assetTypeOf(text: string): AssetType | null {
  return ASSET_TYPE_BY_KEY.get(nameKey(text)) ?? null;
}

/** Why a spelling is not an asset type, and what to write, when it names a subtype ("Self Storage"); else null. */
export function assetTypeHint(text: string): string | null {
  // A Map lookup: a word such as "constructor" must not find an object's own properties.
  const sub = SUBTYPE_SPELLINGS.get(nameKey(text));
  if (!sub) return null;
  return `"${text.trim()}" is the ${sub.subtype} subtype of ${sub.assetType}: use asset_type ${sub.assetType} with subtype=${sub.subtype}.`;
}

/**
 * Field names records used to have, and the name each has now: `cols=fips` in the add-in and a
 * captured parcel file with a `fips` column still mean the parcel's `county_fips`.
 */
export const OLD_FIELD_NAMES: Readonly<Record<string, string>> = { fips: "county_fips" };

/**
 * What each vocabulary calls multifamily: the asset type `multifamily` (canonical for
 * properties, comps, markets and analyses), the listing property type `multi_family` and the
 * parcel land use `residential_multi_family`. Each endpoint answers with its own name and
 * accepts every spelling of multifamily for it.
 */
export const MULTIFAMILY_NAMES = ["multifamily", "multi_family", "residential_multi_family"] as const;

/**
 * The value of a fixed vocabulary (`values`, an input's enum) that `text` names: the value in any
 * case and spacing, an asset type in any of its spellings, or multifamily under the name that
 * vocabulary gives it. Null when it names none. The service normalises its enum inputs with this
 * before validating them, and the add-in checks its inputs with it, so both accept the same words.
 */
export function vocabularyValue(values: readonly string[], text: string): string | null {
  const key = nameKey(text);
  const exact = values.find((v) => nameKey(v) === key);
  if (exact) return exact;
  const assetType = assetTypeOf(text);
  if (assetType && values.includes(assetType)) return assetType;
  if (assetType === "multifamily") return MULTIFAMILY_NAMES.find((name) => values.includes(name)) ?? null;
  return null;
}
