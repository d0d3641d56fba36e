// The place grammar: how a person may name a place, in a cell or a query parameter, and its
// one canonical spelling. The service resolves places written this way against the snapshot;
// the add-in checks and canonicalises them before any request, so "austin,tx", "AUSTIN, TX"
// and "Austin TX" are one request (and one cache entry) for "Austin, TX".
//
// Forms, by kind:
//   state   "TX", "tx", "Texas"
//   county  "Travis County, TX", "Travis County, Texas", "Orleans Parish, LA" (the state is required)
//   city    "Austin, TX", "Austin,TX", "austin tx", "Austin, Texas"; "Austin" alone names the
//           city in whichever states have one
//   zip     "78704", "78704-1234", or the number 78704 (a cell holding 2134 means "02134")
//   metro   "Austin, TX metro", "Austin MSA", "Austin metro area", or its id "metro-austin-tx"
//           (without the state it names the metro of that name, if only one state has one)
// A state name alone is the state ("Washington"); add the state for the city ("Washington, DC").
// The whole country ("US", "USA", "United States", "national") is no place of the grammar: the
// endpoints with national figures read it before the grammar (isNational; the markets and their
// history answer the national market, canonically "US", and the asset-type analysis takes it as
// no place), and elsewhere it is refused with a message saying so (NationalPlaceError).
import { STATE_NAMES_LONGEST_FIRST, type StateCode, isStateCode, stateCodeOf } from "./states";

export const PLACE_KINDS = ["state", "county", "city", "zip", "metro"] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

export type Place =
  | { kind: "state"; state: StateCode }
  | { kind: "county"; name: string; state: StateCode }
  | { kind: "city"; name: string; state: StateCode | null }
  | { kind: "zip"; zip: string }
  | { kind: "metro"; id: string }
  | { kind: "metro"; name: string; state: StateCode | null };

/** One example of each kind, as messages and docs show them. */
export const PLACE_EXAMPLES: Record<PlaceKind, string> = {
  state: 'a state ("TX" or "Texas")',
  county: 'a county ("Travis County, TX")',
  city: 'a city ("Austin, TX")',
  zip: 'a ZIP code ("78704")',
  metro: 'a metro ("Austin, TX metro" or "metro-austin-tx")',
};

/** "a state ("TX" or "Texas"), a city ("Austin, TX") or a ZIP code ("78704")". */
export function describeKinds(kinds: readonly PlaceKind[]): string {
  const parts = PLACE_KINDS.filter((k) => kinds.includes(k)).map((k) => PLACE_EXAMPLES[k]);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} or ${parts[parts.length - 1]}` : (parts[0] ?? "");
}

/** A place that cannot be read: the message says what was wrong and which forms work. */
export class PlaceSyntaxError extends Error {
  override readonly name = "PlaceSyntaxError";
}

const MAX_NAME = 80;
/** Letters, digits, spaces and the punctuation of real place names ("St. Louis", "Coeur d'Alene", "Winston-Salem", "'Ewa Beach"). */
const NAME = /^'?[\p{L}\p{N}][\p{L}\p{N} .'&-]*$/u;
const COUNTY_WORDS = /^(.*\S)\s+(county|parish|borough|census area|municipality|co\.?)$/i;

/** The word a state uses for its counties in names ("Orleans Parish, LA"). */
export function countyWord(state: string): string {
  return state === "LA" ? "Parish" : state === "AK" ? "Borough" : "County";
}

/** The canonical text of the whole country, where national figures are asked for by place (the national market). */
export const NATIONAL_PLACE = "US";

/** The whole country named where a place is asked for: no place of the grammar, refused saying what to do instead. */
export class NationalPlaceError extends PlaceSyntaxError {}

const NATIONAL_KEYS = new Set(["us", "usa", "unitedstates", "unitedstatesofamerica", "national", "nationwide", "nation"]);

/** Whether a text names the whole country ("US", "U.S.", "USA", "United States", "national"). */
export function isNational(raw: unknown): boolean {
  return typeof raw === "string" && NATIONAL_KEYS.has(raw.toLowerCase().replace(/[^a-z]+/g, ""));
}

/** Words after a metro's name that say it is the metro ("Austin MSA", "Austin metro area"). */
const METRO_WORDS = /^(.*?)[\s,]+(metro|metro area|metropolitan area|metropolitan statistical area|msa|cbsa)$/i;

/** Reads a place written in any of the forms above. Throws PlaceSyntaxError. */
export function parsePlace(raw: unknown): Place {
  if (typeof raw === "number") {
    if (Number.isInteger(raw) && raw >= 0 && raw <= 99_999) return { kind: "zip", zip: String(raw).padStart(5, "0") };
    throw new PlaceSyntaxError(`${raw} is not a ZIP code; ZIP codes have five digits, such as 78704.`);
  }
  if (typeof raw !== "string") throw new PlaceSyntaxError(`give a place as text, such as "Austin, TX".`);
  const text = raw
    .normalize("NFC")
    .replace(/[\u2018\u2019]/g, "'")
    .trim()
    .replace(/\s+/g, " ");
  if (text === "") throw new PlaceSyntaxError("the place is empty.");
  if (text.length > 120) throw new PlaceSyntaxError("the place is too long (at most 120 characters).");
  const zip = /^(\d{5})(-\d{4})?$/.exec(text);
  if (zip) return { kind: "zip", zip: zip[1] };
  if (isNational(text)) {
    throw new NationalPlaceError(
      `"${text}" is the whole country: national figures are the markets' ("US" in PROP.MARKET and PROP.MARKETHISTORY) ` +
        `and the asset-type analysis's (PROP.ANALYSIS with no geography); here name ${describeKinds(PLACE_KINDS)}.`,
    );
  }
  if (/^\d+(-\d*)?$/.test(text)) throw new PlaceSyntaxError(`"${text}" is not a ZIP code; ZIP codes have five digits, such as 78704.`);
  if (/^metro-[a-z0-9-]+$/i.test(text)) return { kind: "metro", id: text.toLowerCase() };
  const state = stateCodeOf(text);
  if (state) return { kind: "state", state };
  if (/^[A-Za-z]{2}$/.test(text)) throw new PlaceSyntaxError(`"${text}" is not a US state code; use one such as TX (or the name, Texas).`);

  const metro = METRO_WORDS.exec(text);
  if (metro) {
    const { name, state: metroState } = splitState(metro[1], text);
    return { kind: "metro", name: checkName(name, text), state: metroState };
  }
  const { name, state: cityState } = splitState(text, text);
  const county = COUNTY_WORDS.exec(name);
  if (county) {
    if (!cityState) throw new PlaceSyntaxError(`"${text}": give the county's state, such as "Travis County, TX".`);
    return { kind: "county", name: checkName(county[1], text), state: cityState };
  }
  return { kind: "city", name: checkName(name, text), state: cityState };
}

/** Splits "Austin, TX", "Austin TX" or "Austin, Texas" into the name and the state code. */
function splitState(text: string, whole: string): { name: string; state: StateCode | null } {
  const comma = text.lastIndexOf(",");
  if (comma >= 0) {
    const name = text.slice(0, comma).trim();
    const statePart = text.slice(comma + 1).trim();
    const state = stateCodeOf(statePart);
    if (!state) throw new PlaceSyntaxError(`"${whole}": "${statePart}" is not a US state; write "City, ST", such as "Austin, TX".`);
    return { name, state };
  }
  const lower = text.toLowerCase();
  for (const stateName of STATE_NAMES_LONGEST_FIRST) {
    if (lower.endsWith(` ${stateName}`)) return { name: text.slice(0, -stateName.length - 1), state: stateCodeOf(stateName) };
  }
  const last = /^(.*\S) ([A-Za-z]{2})$/.exec(text);
  if (last && isStateCode(last[2].toUpperCase())) return { name: last[1], state: last[2].toUpperCase() as StateCode };
  return { name: text, state: null };
}

function checkName(name: string, whole: string): string {
  const n = name.trim().replace(/,+$/, "").trim();
  if (n === "") throw new PlaceSyntaxError(`"${whole}" names no place before the state.`);
  if (n.length > MAX_NAME) throw new PlaceSyntaxError(`"${whole}": a place name has at most ${MAX_NAME} characters.`);
  if (!NAME.test(n)) {
    throw new PlaceSyntaxError(`"${whole}" is not a place: use ${describeKinds(PLACE_KINDS)}.`);
  }
  return n;
}

/** "new york" -> "New York", "winston-salem" -> "Winston-Salem", "o'fallon" -> "O'Fallon". */
function titleCase(name: string): string {
  const upper = (_m: string, before: string, letter: string) => before + letter.toUpperCase();
  return name
    .toLowerCase()
    .replace(/(^'?|[\s-]'?)(\p{L})/gu, upper)
    .replace(/(\b\p{L}')(\p{L})/gu, upper);
}

/** The canonical text of a place: one spelling per place, used in requests and cache keys. */
export function placeText(place: Place): string {
  switch (place.kind) {
    case "state":
      return place.state;
    case "zip":
      return place.zip;
    case "county":
      return `${titleCase(place.name)} ${countyWord(place.state)}, ${place.state}`;
    case "city":
      return place.state ? `${titleCase(place.name)}, ${place.state}` : titleCase(place.name);
    case "metro":
      if ("id" in place) return place.id;
      return place.state ? `${titleCase(place.name)}, ${place.state} metro` : `${titleCase(place.name)} metro`;
  }
}

/** parsePlace then placeText: "austin,tx" -> "Austin, TX". Throws PlaceSyntaxError. */
export function canonicalPlace(raw: unknown): string {
  return placeText(parsePlace(raw));
}

// A Map, not an object: a word such as "constructor" must not find an object's own properties.
const WORD_ALIASES = new Map([
  ["st", "saint"],
  ["ste", "sainte"],
  ["ft", "fort"],
  ["mt", "mount"],
]);

/**
 * The key places are matched by: case, accents, punctuation and the usual abbreviations do not
 * matter ("St. Louis" and "Saint Louis" are one key). The snapshot stores it for every place.
 */
export function placeKey(name: string): string {
  return placeSpelling(name)
    .split(" ")
    .map((w) => WORD_ALIASES.get(w) ?? w)
    .join(" ");
}

/**
 * A name as it is spelt, with case, accents and punctuation set aside but its abbreviations kept
 * ("St. Charles" and "St Charles" are one spelling, "Saint Charles" another): what tells apart
 * two places of one key, kind and state.
 */
export function placeSpelling(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}
