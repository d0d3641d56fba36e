// Which search inputs each asset type supports in this snapshot (published by the catalog).
// Inputs marked `always` apply to every record. A data-dependent input is supported when at
// least half of the type's properties carry the field it filters on: filtering on a field
// most rows lack would silently drop most of the type.
import { ASSET_TYPES, INPUT_FIELD, SEARCH_INPUTS, type SearchInput } from "../../contract/vocabulary";
import type { FieldCounts } from "./field-counts";

export const SUPPORT_THRESHOLD = 0.5;

export function deriveAssetInputs(counts: FieldCounts): Record<string, SearchInput[]> {
  const inputs = Object.keys(SEARCH_INPUTS) as SearchInput[];
  const out: Record<string, SearchInput[]> = {};
  for (const t of ASSET_TYPES) {
    const c = counts.get(t);
    out[t] = inputs.filter((input) => {
      if (SEARCH_INPUTS[input].always) return true;
      const field = INPUT_FIELD[input];
      return !!c && !!field && c.n > 0 && (c[field] ?? 0) / c.n >= SUPPORT_THRESHOLD;
    });
  }
  return out;
}
