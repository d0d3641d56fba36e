// A match row as the matcher reads it (property-match.ts): the house number and the words after
// it, the ZIP code and state the row states, the keys that find its candidates in the match index,
// and its parcel number. A row's address fields (street line, city, state, ZIP code) are first
// written as the one line an analyst would type ("623 Main St, Austin, TX 78721") and read as a
// line, so a row gives the same answer in one column or in four. What cannot be read is a refusal
// that says why; what the words after the number mean (street, unit, city) is decided against
// each candidate, whose address is known.
import { coveredCities } from "../../contract/place-aliases";
import type { MatchFields } from "../../contract/property-match";
import type { StateCode } from "../../contract/states";
import {
  apnKey,
  cityKey,
  countyKey,
  directionOf,
  houseNumber,
  isBareUnitWord,
  isHouseNumber,
  isUnitWord,
  isZip,
  nameWord,
  isCountryWord,
  segments,
  stateEndingAt,
  stateOf,
  suffixOf,
  tokens,
} from "../../contract/street-address";
import { STATE_NAMES } from "../../contract/states";
import { cityNumberKey, parcelKey, streetKey, zipKey } from "../../snapshot/match-keys";

/** An address row as read. */
export interface AddressQuery {
  /** "" when the line has no house number. */
  number: string;
  /** The street line's tokens after the number, then the tokens of the parts after it. */
  rest: string[];
  /** How many of `rest` belong to the street line's own part (before its first comma). */
  streetLength: number;
  /** The line as typed from its number on, for telling an exact match. */
  typed: string[];
  zip: string | null;
  /** Stated in a field, before a ZIP code or in a part of its own: a candidate in another state is no match. */
  state: StateCode | null;
  /** A state read only from the line's last words (it may be a suffix: "Oak Ct"). */
  stateGuess: StateCode | null;
  /** The match index keys that find the row's candidates in the ZIP code or city it gives. */
  keys: string[];
  /**
   * The keys of its street, anywhere: they find the row's candidates when it gives no ZIP code
   * or state, and otherwise the near ones to list when none in its place is surely it (a city
   * misspelt, say).
   */
  streetKeys: string[];
}

export interface ParcelQuery {
  apn: string;
  /** A five-digit FIPS code, or a county name as countyKey reads it. */
  county: { fips: string } | { name: string } | null;
  state: StateCode | null;
}

export interface ReadRow {
  address: AddressQuery | null;
  parcel: ParcelQuery | null;
}

/** Why a row cannot be read: its detail. */
export class RowRefusal {
  constructor(readonly detail: string) {}
}

/** Reads a row's fields, or says why they cannot be read. */
export function readRow(fields: MatchFields): ReadRow | RowRefusal {
  const state = fields.state?.trim() ? stateOf(fields.state) : null;
  if (state === undefined) return new RowRefusal(`"${fields.state}" is not a US state's code or name.`);
  let zip: string | null = null;
  if (fields.zip?.trim()) {
    const digits = fields.zip.trim().replace(/[\s-]/g, "");
    // Four digits beside a state are a ZIP code that lost its leading zero, as at the end of a line.
    if (/^\d{4}$/.test(digits) && state) zip = `0${digits}`;
    else if (!/^\d{5}(\d{4})?$/.test(digits)) {
      const hint = /^\d{4}$/.test(digits) ? `: if a spreadsheet dropped its leading zero, give the state or write it as 0${digits}` : "";
      return new RowRefusal(`"${fields.zip}" is not a ZIP code (five digits, or ZIP+4)${hint}.`);
    } else zip = digits.slice(0, 5);
  }
  const line = fields.address?.trim() ? segments(fields.address) : [];
  const apn = fields.apn?.trim() ? apnKey(fields.apn) : "";
  if (fields.apn?.trim() && !apn) return new RowRefusal(`"${fields.apn}" has no letter or digit of a parcel number.`);
  if (!line.length && !apn) return new RowRefusal("Give an address, or a parcel number (APN) with its county or state.");
  let parcel: ParcelQuery | null = null;
  if (apn) {
    const county = fields.county?.trim() ? fields.county.trim() : "";
    if (!county && !state) return new RowRefusal("A parcel number needs its county (name or FIPS code) or its state.");
    const name = /^\d{5}$/.test(county) ? null : countyKey(county);
    if (county && name === "") return new RowRefusal(`"${fields.county}" is not a county's name or FIPS code.`);
    parcel = { apn, county: county ? (name === null ? { fips: county } : { name }) : null, state };
  }
  const address = line.length ? readLine(restoredZip(segments(lineOf(fields.address!, fields.city, state, zip)))) : null;
  return { address, parcel };
}

/**
 * The one line a row's address fields make: the street line (which may hold more of the address),
 * then the city, the state and the ZIP code given in their fields, each unless the line already
 * names it after its street line.
 */
export function lineOf(address: string, city: string | undefined, state: StateCode | null, zip: string | null): string {
  const later = segments(address).slice(1).flat().join(" ");
  const has = (words: string[]) => words.length > 0 && ` ${later} `.includes(` ${words.join(" ")} `);
  const parts = [address.trim()];
  if (city?.trim() && !has(tokens(city))) parts.push(city.trim());
  const tail = [state && !has([state]) && !has(tokens(STATE_NAMES[state])) ? state : "", zip && !has([zip]) ? zip : ""];
  if (tail.some(Boolean)) parts.push(tail.filter(Boolean).join(" "));
  return parts.join(", ");
}

/**
 * A line ending in a state and four digits ends in a ZIP code that lost its leading zero (a
 * spreadsheet reads 02134 as the number 2134): "Boston, MA 2134" is in 02134.
 */
function restoredZip(line: string[][]): string[][] {
  const last = line[line.length - 1];
  const words = line.flat();
  if (!last || !/^\d{4}$/.test(last[last.length - 1]) || !stateEndingAt(words, 1, words.length - 1)) return line;
  return [...line.slice(0, -1), [...last.slice(0, -1), `0${last[last.length - 1]}`]];
}

/** The parts of the line from the street on: leading parts without a house number (a building's name) and a leading unit are skipped. */
function streetStart(line: string[][]): { street: string[]; after: string[][] } {
  for (let i = 0; i < line.length; i++) {
    let part = line[i];
    if (part.length > 1 && isUnitWord(part[0])) part = part.slice(isBareUnitWord(part[0]) ? 1 : 2);
    if (part.length && isHouseNumber(part[0])) return { street: part, after: line.slice(i + 1) };
  }
  return { street: line[0], after: line.slice(1) };
}

function readLine(line: string[][]): AddressQuery {
  const { street, after } = streetStart(line);
  const number = street.length && isHouseNumber(street[0]) ? houseNumber(street[0]) : "";
  let streetRest = number ? street.slice(1) : street;
  // 623 1/2 or 623-625: the rest of the number is not the street's.
  while (number && streetRest.length > 1 && /^\d+$/.test(streetRest[0])) streetRest = streetRest.slice(1);
  const rest = [...streetRest, ...after.flat()];
  // The locality at the end of the line: a ZIP code, the country, then a state's code or name.
  let end = rest.length;
  while (end > 0 && isCountryWord(rest[end - 1])) end--;
  let zip: string | null = null;
  if (end > 1 && isZip(rest[end - 1])) {
    zip = rest[end - 1];
    end--;
  }
  const zipAfter = end < rest.length && isZip(rest[end]);
  let state: StateCode | null = null;
  let stateGuess: StateCode | null = null;
  let stateStart = end;
  // At least one word before it: the street's.
  const found = stateEndingAt(rest, 1, end);
  if (found) {
    stateStart = end - found.length;
    // Stated when it cannot be the street's own word: in a part after the street line's, written
    // out (Texas), or a code before a ZIP code that is no suffix or directional (Ct, NE).
    const word = rest[stateStart];
    const stated =
      stateStart >= streetRest.length || found.length > 1 || word.length > 2 || (zipAfter && !suffixOf(word) && !directionOf(word));
    if (stated) state = found.code;
    stateGuess = found.code;
  }
  const cities = cityGuesses(rest, streetRest.length, after, stateStart);
  const keys = new Set<string>();
  if (zip) keys.add(zipKey(zip, number));
  // The city's keys, and those of the places its name covers (New York: Manhattan, Brooklyn ...).
  for (const s of new Set([state, stateGuess])) {
    if (s) for (const city of cities) for (const name of coveredCities(s, city)) keys.add(cityNumberKey(s, name, number));
  }
  const streetKeys = nameGuesses(streetRest).map((name) => streetKey(name, number));
  return {
    number,
    rest,
    streetLength: streetRest.length,
    typed: street,
    zip,
    state,
    stateGuess,
    keys: [...keys],
    streetKeys,
  };
}

/**
 * The city the row may name, as cityKey reads it: the part after the street line (without a
 * state and ZIP code at its end); or, in a line without commas, the last one to three words
 * before the state.
 */
function cityGuesses(rest: string[], streetLength: number, after: string[][], stateStart: number): string[] {
  const key = (words: string[]) => cityKey(words.join(" "));
  if (after.length) {
    const start = Math.min(streetLength, stateStart);
    const words = rest.slice(start, stateStart);
    // The part right after the street line, which may hold a unit first.
    const part = after[0].filter((w, i) => !(isUnitWord(w) || (i > 0 && isUnitWord(after[0][i - 1]))));
    const guesses = [key(part.length ? part : words)];
    if (part.length && words.length && key(words) !== guesses[0]) guesses.push(key(words));
    return guesses.filter((g) => g);
  }
  const out: string[] = [];
  for (let n = 1; n <= 3 && stateStart - n >= 1; n++) out.push(key(rest.slice(stateStart - n, stateStart)));
  return out;
}

/** The street names the words after the number may begin with: one to three words, before a suffix, after a directional or not. */
function nameGuesses(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const start of directionOf(words[0] ?? "") && words.length > 1 ? [0, 1] : [0]) {
    const name: string[] = [];
    for (let i = start; i < words.length && name.length < 3; i++) {
      if (i > start && (suffixOf(words[i]) || isUnitWord(words[i]))) break;
      name.push(nameWord(words[i]));
      out.push(name.join(" "));
    }
  }
  return out;
}

/** The key of a parcel number in the match index. */
export function parcelKeyOf(query: ParcelQuery): string {
  return parcelKey(query.apn);
}
