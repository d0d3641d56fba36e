// The generator's geography as data: cities with their ZIP codes, and the metro areas grown
// around principal cities. Loading it is geography.ts; growing the metros, metros.ts.

export interface ZipInfo {
  zip: string;
  lat: number;
  lon: number;
  county: string;
  fips: string;
}

export interface City {
  index: number;
  geonameId: number;
  name: string;
  state: string;
  lat: number;
  lon: number;
  population: number;
  /** Nearest ZIP in the state: the city's county and default ZIP. */
  zip: ZipInfo;
  /** ZIPs within the city's radius, nearest first (always includes `zip`). */
  zips: ZipInfo[];
  /** Rough radius of the built-up area, km: where the generator scatters properties. */
  radiusKm: number;
  metro: Metro | null;
}

export interface Metro {
  index: number;
  id: string;
  name: string;
  state: string;
  principal: City;
  reachKm: number;
  population: number;
  /** Relative price level: 1.0 is a typical large metro; gateway coastal metros are higher. */
  priceIndex: number;
}
