// Synthetic street addresses and locations inside a real city: a point scattered around the
// city centre (normal, within its radius), the nearest of the city's ZIP codes, and a street
// address. Addresses are made up; the city, ZIP, county and FIPS are real.
import { offsetKm } from "./distance";
import type { City, ZipInfo } from "./geography";
import type { Random } from "./random";
import { FIRST_NAMES, LAST_NAMES, STREET_SUFFIXES, STREET_WORDS } from "./words";

export interface Location {
  address: string;
  street: string;
  latitude: number;
  longitude: number;
  zip: ZipInfo;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function streetName(rng: Random): string {
  return `${rng.pick(STREET_WORDS)} ${rng.weighted(STREET_SUFFIXES)}`;
}

export function locate(rng: Random, city: City): Location {
  const r = city.radiusKm * 0.5;
  const [lat, lon] = offsetKm(city.lat, city.lon, rng.normal(0, r), rng.normal(0, r));
  let zip = city.zip;
  if (city.zips.length > 1) {
    // Nearest ZIP centroid; within one city a flat-earth squared distance ranks them correctly.
    const k = Math.cos(lat * (Math.PI / 180));
    let best = Infinity;
    for (const z of city.zips) {
      const dy = z.lat - lat;
      const dx = (z.lon - lon) * k;
      const d = dx * dx + dy * dy;
      if (d < best) {
        best = d;
        zip = z;
      }
    }
  }
  const street = streetName(rng);
  // House numbers: mostly 3-4 digits, like most US street addresses.
  const number = Math.floor(rng.lognormal(1400, 0.9)) + 1;
  return { address: `${Math.min(number, 29999)} ${street}`, street, latitude: round6(lat), longitude: round6(lon), zip };
}

export function personName(rng: Random): { first: string; last: string } {
  return { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
}
