// Places as people type them, and the one canonical form each has: the table the grammar's
// unit tests, the service's tests and the add-in's tests all read, so the two sides cannot
// disagree about what a spelling means.
import type { PlaceKind } from "../../src/contract/places";

export interface PlaceForm {
  input: string | number;
  canonical: string;
  kind: PlaceKind;
}

export const PLACE_FORMS: PlaceForm[] = [
  { input: "TX", canonical: "TX", kind: "state" },
  { input: "tx", canonical: "TX", kind: "state" },
  { input: "Texas", canonical: "TX", kind: "state" },
  { input: " texas ", canonical: "TX", kind: "state" },
  { input: "Washington", canonical: "WA", kind: "state" },
  { input: "Austin, TX", canonical: "Austin, TX", kind: "city" },
  { input: "austin, tx", canonical: "Austin, TX", kind: "city" },
  { input: "AUSTIN, TX", canonical: "Austin, TX", kind: "city" },
  { input: "Austin,TX", canonical: "Austin, TX", kind: "city" },
  { input: "Austin TX", canonical: "Austin, TX", kind: "city" },
  { input: "austin   tx", canonical: "Austin, TX", kind: "city" },
  { input: "Austin, Texas", canonical: "Austin, TX", kind: "city" },
  { input: "Austin Texas", canonical: "Austin, TX", kind: "city" },
  { input: "Austin", canonical: "Austin", kind: "city" },
  { input: "St. Louis, MO", canonical: "St. Louis, MO", kind: "city" },
  { input: "new york new york", canonical: "New York, NY", kind: "city" },
  { input: "Washington, DC", canonical: "Washington, DC", kind: "city" },
  { input: "Washington DC", canonical: "Washington, DC", kind: "city" },
  { input: "Washington, D.C.", canonical: "Washington, DC", kind: "city" },
  { input: "District of Columbia", canonical: "DC", kind: "state" },
  { input: "winston-salem nc", canonical: "Winston-Salem, NC", kind: "city" },
  { input: "o'fallon, mo", canonical: "O'Fallon, MO", kind: "city" },
  { input: "Travis County, TX", canonical: "Travis County, TX", kind: "county" },
  { input: "travis county tx", canonical: "Travis County, TX", kind: "county" },
  { input: "Travis County, Texas", canonical: "Travis County, TX", kind: "county" },
  { input: "Travis Co., TX", canonical: "Travis County, TX", kind: "county" },
  { input: "Orleans Parish, LA", canonical: "Orleans Parish, LA", kind: "county" },
  { input: "78704", canonical: "78704", kind: "zip" },
  { input: 78704, canonical: "78704", kind: "zip" },
  { input: "78704-1234", canonical: "78704", kind: "zip" },
  { input: 2134, canonical: "02134", kind: "zip" },
  { input: "Austin, TX metro", canonical: "Austin, TX metro", kind: "metro" },
  { input: "austin tx metro", canonical: "Austin, TX metro", kind: "metro" },
  { input: "Austin, Texas Metro", canonical: "Austin, TX metro", kind: "metro" },
  { input: "metro-austin-tx", canonical: "metro-austin-tx", kind: "metro" },
  { input: "METRO-AUSTIN-TX", canonical: "metro-austin-tx", kind: "metro" },
  { input: "Austin MSA", canonical: "Austin metro", kind: "metro" },
  { input: "Austin metro", canonical: "Austin metro", kind: "metro" },
  { input: "Austin, TX MSA", canonical: "Austin, TX metro", kind: "metro" },
  { input: "austin tx metro area", canonical: "Austin, TX metro", kind: "metro" },
];

/** Inputs that are no place at all, and what the message says. */
export const NOT_PLACES: [string | number, RegExp][] = [
  ["", /empty/],
  ["ZZ", /"ZZ" is not a US state code/],
  ["Austin, ZZ", /"ZZ" is not a US state/],
  ["7870", /five digits/],
  [123456, /five digits/],
  ["Travis County", /give the county's state/],
  ["US", /"US" is the whole country: national figures are the markets'/],
  ["United States", /"United States" is the whole country/],
  ["U.S.A.", /is the whole country/],
  ["=HYPERLINK(1)", /is not a place/],
  ["Austin; TX", /is not a place/],
];
