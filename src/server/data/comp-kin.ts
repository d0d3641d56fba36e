// Which sales may be comps of a subject by what the building is used for. Most asset types are
// one market (an office is compared with offices, of any subtype), so a subject's comps are its
// asset type's sales. A few types are catch-alls of unrelated uses: a self-storage facility,
// a car wash, a church and a data center are all "specialty", and none is evidence of another's
// value. A subject of such a type is compared with sales of its own subtype and of the subtypes
// that trade as its substitutes (its kin), which may be of another asset type: self-storage
// trades with light-industrial flex space, never with a parking garage.

/** A kind of sale: an asset type and one of its subtypes. */
export interface SaleKind {
  asset_type: string;
  subtype: string;
}

/** The asset types whose subtypes are unrelated uses. */
export const BROAD_TYPES: ReadonlySet<string> = new Set(["specialty", "sports-and-entertainment", "land"]);

/** Each subtype's kin beyond itself, as asset type → subtypes (a subtype not listed has none). */
const KIN: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  "self-storage": { flex: ["light-industrial-flex"] },
  "car-wash": { specialty: ["gas-station"], retail: ["auto-service"] },
  "gas-station": { specialty: ["car-wash"], retail: ["auto-service"] },
  religious: { specialty: ["school"] },
  school: { specialty: ["religious"] },
  "commercial-land": { land: ["mixed-use-land"] },
  "mixed-use-land": { land: ["commercial-land", "residential-land"] },
  "residential-land": { land: ["mixed-use-land"] },
  "bowling-center": { "sports-and-entertainment": ["movie-theater", "fitness-center"] },
  "movie-theater": { "sports-and-entertainment": ["bowling-center", "performing-arts"] },
  "performing-arts": { "sports-and-entertainment": ["movie-theater"] },
  "fitness-center": { "sports-and-entertainment": ["bowling-center"] },
};

/**
 * The kinds of sale that may be comps of a subject: null when its asset type is one market (its
 * comps are the type's sales), else its own subtype and its kin. A subject of a broad type with
 * no subtype recorded has nothing to narrow by: null, the type's sales.
 */
export function compKinds(assetType: string, subtype: string | null): SaleKind[] | null {
  if (!BROAD_TYPES.has(assetType) || !subtype) return null;
  const kinds: SaleKind[] = [{ asset_type: assetType, subtype }];
  for (const [type, subtypes] of Object.entries(KIN[subtype] ?? {})) {
    for (const s of subtypes) kinds.push({ asset_type: type, subtype: s });
  }
  return kinds;
}
