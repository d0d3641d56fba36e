// How many properties stand behind a market figure, and when that is too few to read as a
// market: a city or ZIP market is often one building, whose vacancy is that building's. The
// market snapshot and every period of market history carry the count and this mark.

/** Figures from fewer properties than this are marked thin (`thin: true`). */
export const THIN_MARKET_PROPERTIES = 5;

/** Whether figures from `propertyCount` properties are thin. */
export function isThin(propertyCount: number | null): boolean {
  return propertyCount === null || propertyCount < THIN_MARKET_PROPERTIES;
}
