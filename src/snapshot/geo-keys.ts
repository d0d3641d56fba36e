// Geography identifiers shared by the generator and the market derivation, so that imported
// data gets the same city ids as generated data: `city-austin-tx`, `metro-austin-tx`.

/** A URL-safe slug: "St. Louis" -> "st-louis", "Cañon City" -> "canon-city". */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function cityId(city: string, stateCode: string): string {
  return `city-${slugify(city)}-${stateCode.toLowerCase()}`;
}

export function cityName(city: string, stateCode: string): string {
  return `${city}, ${stateCode}`;
}

export function metroId(principal: string, stateCode: string): string {
  return `metro-${slugify(principal)}-${stateCode.toLowerCase()}`;
}

export function metroName(principal: string, stateCode: string): string {
  return `${principal}, ${stateCode} metro`;
}
