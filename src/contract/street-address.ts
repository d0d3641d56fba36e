// The grammar of a US street address as analysts type it and as the snapshot holds it: the words
// a postal service reads in more than one spelling (street suffixes, directionals, ordinals, unit
// designators, state names), the tokens of a line, and a street line's parts. Both the match
// index (built with the snapshot) and the matcher (the service) read addresses through this one
// module, so an address is read the same way on both sides.
import { STATE_NAMES, type StateCode } from "./states";

/** Street suffixes by their USPS abbreviation, with the other spellings read as each. */
const SUFFIX_SPELLINGS: Record<string, string[]> = {
  ALY: ["ALLEY", "ALLEE", "ALLY"],
  AVE: ["AVENUE", "AV", "AVEN", "AVENU", "AVN", "AVNUE"],
  BLVD: ["BOULEVARD", "BOUL", "BOULV", "BLV"],
  CIR: ["CIRCLE", "CIRC", "CIRCL", "CRCL", "CRCLE"],
  CT: ["COURT", "CRT"],
  CTR: ["CENTER", "CENTRE", "CEN", "CENT", "CENTR", "CNTER", "CNTR"],
  CV: ["COVE"],
  DR: ["DRIVE", "DRIV", "DRV"],
  EXPY: ["EXPRESSWAY", "EXP", "EXPR", "EXPRESS", "EXPW"],
  FWY: ["FREEWAY", "FREEWY", "FRWAY", "FRWY"],
  HWY: ["HIGHWAY", "HIGHWY", "HIWAY", "HIWY", "HWAY"],
  LN: ["LANE"],
  LOOP: ["LOOPS"],
  PIKE: ["PIKES"],
  PKWY: ["PARKWAY", "PARKWY", "PKWAY", "PKY", "PARKWAYS", "PKWYS"],
  PL: ["PLACE"],
  PLZ: ["PLAZA", "PLZA"],
  RD: ["ROAD"],
  SQ: ["SQUARE", "SQR", "SQRE", "SQU"],
  ST: ["STREET", "STRT", "STR"],
  TER: ["TERRACE", "TERR"],
  TPKE: ["TURNPIKE", "TRNPK", "TURNPK"],
  TRL: ["TRAIL", "TRAILS", "TRLS"],
  WAY: ["WY"],
  XING: ["CROSSING", "CRSSNG"],
};

const DIRECTION_SPELLINGS: Record<string, string[]> = {
  N: ["NORTH"],
  S: ["SOUTH"],
  E: ["EAST"],
  W: ["WEST"],
  NE: ["NORTHEAST"],
  NW: ["NORTHWEST"],
  SE: ["SOUTHEAST"],
  SW: ["SOUTHWEST"],
};

/** Words that begin a unit (suite, floor, apartment): the unit is not part of the street. */
const UNIT_WORDS = new Set(
  "APT APARTMENT STE SUITE UNIT FL FLR FLOOR RM ROOM BLDG BUILDING DEPT OFC OFFICE SPC SPACE LOT TRLR PH PENTHOUSE BSMT BASEMENT LOWR UPPR REAR FRNT FRONT HNGR KEY PIER SLIP STOP # NO".split(
    " ",
  ),
);
/** Unit words that stand alone, without a number after them. */
const BARE_UNIT_WORDS = new Set(["BSMT", "BASEMENT", "LOWR", "UPPR", "REAR", "FRNT", "PH", "PENTHOUSE"]);

const ORDINAL_WORDS = [
  "FIRST",
  "SECOND",
  "THIRD",
  "FOURTH",
  "FIFTH",
  "SIXTH",
  "SEVENTH",
  "EIGHTH",
  "NINTH",
  "TENTH",
  "ELEVENTH",
  "TWELFTH",
  "THIRTEENTH",
  "FOURTEENTH",
  "FIFTEENTH",
  "SIXTEENTH",
  "SEVENTEENTH",
  "EIGHTEENTH",
  "NINETEENTH",
  "TWENTIETH",
];

function spellings(table: Record<string, string[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [abbr, others] of Object.entries(table)) {
    out.set(abbr, abbr);
    for (const o of others) out.set(o, abbr);
  }
  return out;
}

const SUFFIXES = spellings(SUFFIX_SPELLINGS);
const DIRECTIONS = spellings(DIRECTION_SPELLINGS);
const ORDINALS = new Map(ORDINAL_WORDS.map((w, i) => [w, ordinalOf(i + 1)]));
/** Words a city's name is written with in two ways (St. Louis, Saint Louis). */
const CITY_WORDS = new Map([
  ["SAINT", "ST"],
  ["FORT", "FT"],
  ["MOUNT", "MT"],
  ["SAINTE", "STE"],
]);

function ordinalOf(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "TH" : (["TH", "ST", "ND", "RD"][n % 10] ?? "TH");
  return `${n}${suffix}`;
}

/** The USPS abbreviation of a street suffix in any of its spellings, or undefined. */
export function suffixOf(token: string): string | undefined {
  return SUFFIXES.get(token);
}

/** The abbreviation of a directional (North, N, Northeast, NE), or undefined. */
export function directionOf(token: string): string | undefined {
  return DIRECTIONS.get(token);
}

/** Whether a token begins a unit (Suite, Ste, #, Unit, Fl, Apt ...). */
export function isUnitWord(token: string): boolean {
  return UNIT_WORDS.has(token);
}

/** Whether a unit word needs no number after it (Rear, Basement). */
export function isBareUnitWord(token: string): boolean {
  return BARE_UNIT_WORDS.has(token);
}

/** A street name's word as compared: an ordinal in figures (Fifth and 5th are 5TH), other words as they are. */
export function nameWord(token: string): string {
  return ORDINALS.get(token) ?? token.replace(/^0+(?=\d)/, "");
}

/** A city's word as compared (Saint and St are ST). */
export function cityWord(token: string): string {
  return CITY_WORDS.get(token) ?? token;
}

const STATE_BY_NAME = new Map<string, StateCode>(
  Object.entries(STATE_NAMES).map(([code, name]) => [name.toUpperCase(), code as StateCode]),
);
/** The most words a state's name has (District of Columbia). */
const STATE_NAME_WORDS = 3;
/** Words that name the country at the end of an address (USA, United States). */
const COUNTRY_WORDS = new Set(["USA", "US", "UNITED", "STATES", "AMERICA"]);

/** The state a code or name (any case, "Texas", "TX", "tx.") stands for, or undefined. */
export function stateOf(text: string): StateCode | undefined {
  const t = tokens(text).join(" ");
  if (t in STATE_NAMES) return t as StateCode;
  return STATE_BY_NAME.get(t);
}

/** Whether a token names the country (an address may end with it). */
export function isCountryWord(token: string): boolean {
  return COUNTRY_WORDS.has(token);
}

/** The state whose code or name is the last words before `end`, none of them before `from` (the longest name first); null for none. */
export function stateEndingAt(words: readonly string[], from: number, end: number): { code: StateCode; length: number } | null {
  for (let n = Math.min(STATE_NAME_WORDS, end - from); n >= 1; n--) {
    const code = stateOf(words.slice(end - n, end).join(" "));
    if (code) return { code, length: n };
  }
  return null;
}

/**
 * The upper-case tokens of a text: letters and digits, with `#` a token of its own; accents,
 * apostrophes (and the okina of Hawaiian names) and periods dropped; every other character separates. A ZIP+4 keeps its first
 * five digits.
 */
export function tokens(text: string): string[] {
  const plain = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .replace(/['`\u00b4\u02bb\u02bc\u2018\u2019.]/g, "")
    .replace(/\b(\d{5})-\d{4}\b/g, "$1");
  return plain.match(/#|[A-Z0-9]+/g) ?? [];
}

/** A text's comma-separated parts, each as its tokens (empty parts left out). */
export function segments(text: string): string[][] {
  return text
    .split(/[,;\n]/)
    .map(tokens)
    .filter((s) => s.length > 0);
}

/** Whether a token is a house number: digits, with at most one letter after them (623, 623A). */
export function isHouseNumber(token: string): boolean {
  return /^\d{1,6}[A-Z]?$/.test(token);
}

/** A house number as compared: leading zeros dropped. */
export function houseNumber(token: string): string {
  return token.replace(/^0+(?=\d)/, "");
}

/** A five-digit ZIP code token. */
export function isZip(token: string): boolean {
  return /^\d{5}$/.test(token);
}

/** The parts of a street line: its house number, directionals, name words and suffix. */
export interface StreetLine {
  /** "" when the line has none. */
  number: string;
  predir: string | null;
  /** The street's name, each word as compared (nameWord). */
  name: string[];
  suffix: string | null;
  postdir: string | null;
}

/**
 * A street line read from its tokens ("623 N Washington Blvd Ste 200"): a leading house number
 * (a range or fraction after it dropped), a unit at its end dropped, then a suffix and
 * directionals where the words around them leave a name: "North St" is the street named North.
 */
export function streetLine(line: string[]): StreetLine {
  let t = line;
  let number = "";
  if (t.length && isHouseNumber(t[0])) {
    number = houseNumber(t[0]);
    t = t.slice(1);
    // 623 1/2 or 623-625: the rest of the number is not the street's.
    while (t.length > 1 && /^\d+$/.test(t[0])) t = t.slice(1);
  }
  const unit = t.findIndex((w, i) => i > 0 && isUnitWord(w));
  if (unit > 0) t = t.slice(0, unit);
  let postdir: string | null = null;
  let suffix: string | null = null;
  let predir: string | null = null;
  if (t.length >= 3 && directionOf(t[t.length - 1]) && suffixOf(t[t.length - 2])) {
    postdir = directionOf(t[t.length - 1])!;
    t = t.slice(0, -1);
  }
  if (t.length >= 2 && suffixOf(t[t.length - 1])) {
    suffix = suffixOf(t[t.length - 1])!;
    t = t.slice(0, -1);
  } else if (t.length >= 2 && directionOf(t[t.length - 1]) && !postdir) {
    postdir = directionOf(t[t.length - 1])!;
    t = t.slice(0, -1);
  }
  if (t.length >= 2 && directionOf(t[0])) {
    predir = directionOf(t[0])!;
    t = t.slice(1);
  }
  return { number, predir, name: t.map(nameWord), suffix, postdir };
}

/** A street's name as one key: its words joined by a space. */
export function nameKey(name: readonly string[]): string {
  return name.join(" ");
}

/** A city's name as compared: its tokens, each as cityWord, joined by a space. */
export function cityKey(city: string): string {
  return tokens(city).map(cityWord).join(" ");
}

/** An APN as compared: its letters and digits only, in upper case (123-456-78 and 12345678 are one). */
export function apnKey(apn: string): string {
  return apn.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** A county's name as compared: without "County", "Parish" or "Borough" ("Travis County" is TRAVIS). */
export function countyKey(county: string): string {
  return tokens(county)
    .filter((w) => !["COUNTY", "CO", "PARISH", "BOROUGH", "CNTY"].includes(w))
    .map(cityWord)
    .join(" ");
}
