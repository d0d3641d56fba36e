// Facts about asset types that both the generator and the derivations rely on.
import type { AssetType } from "../contract/vocabulary";

/** Types measured in units (apartments, beds, keys): occupancy and rent are unit-weighted. */
export const UNIT_TYPES: ReadonlySet<string> = new Set<AssetType>(["multifamily", "hospitality", "student", "senior-living"]);

/** Types leased to tenant companies, whose rent roll the tenancies table holds. */
export const LEASED_TYPES: ReadonlySet<string> = new Set<AssetType>([
  "industrial",
  "office",
  "retail",
  "health-care",
  "flex",
  "specialty",
  "sports-and-entertainment",
]);
