// The coverage report's shape as the builder makes it, apart from the code that fills it
// (coverage.ts) so the known gaps (gaps.ts) can read it without importing that code.
import type { CoverageFigures } from "../../contract/coverage";

export const COUNTED_TABLES = ["parcels", "listings", "companies", "properties", "sales", "tenancies", "markets", "diligence"] as const;

/** The report as built (the contract's figures; every counted table has a count). */
export type Coverage = CoverageFigures & { counts: Record<(typeof COUNTED_TABLES)[number], number> };

/** Sales by asset type and state, in one scan: all, with a cap rate, and in the 24 months before capture. */
export interface SalesCell {
  asset_type: string;
  state_code: string;
  n: number;
  cap: number;
  recent: number;
}
