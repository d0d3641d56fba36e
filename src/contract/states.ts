// The 50 states and DC by their USPS codes: the place grammar reads both forms ("TX",
// "Texas"), the service names state markets with them, and the snapshot generator uses only
// these states.

export const STATE_NAMES = {
  AK: "Alaska",
  AL: "Alabama",
  AR: "Arkansas",
  AZ: "Arizona",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DC: "District of Columbia",
  DE: "Delaware",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  IA: "Iowa",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  MA: "Massachusetts",
  MD: "Maryland",
  ME: "Maine",
  MI: "Michigan",
  MN: "Minnesota",
  MO: "Missouri",
  MS: "Mississippi",
  MT: "Montana",
  NC: "North Carolina",
  ND: "North Dakota",
  NE: "Nebraska",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NV: "Nevada",
  NY: "New York",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VA: "Virginia",
  VT: "Vermont",
  WA: "Washington",
  WI: "Wisconsin",
  WV: "West Virginia",
  WY: "Wyoming",
} as const;

export type StateCode = keyof typeof STATE_NAMES;

export const STATE_CODES = Object.keys(STATE_NAMES).sort() as StateCode[];

const BY_NAME = new Map<string, StateCode>(
  (Object.entries(STATE_NAMES) as [StateCode, string][]).map(([code, name]) => [name.toLowerCase(), code]),
);
// "D.C." for DC. ("Washington, DC" and "Washington DC" are the city: a state code after a
// name makes a city, as everywhere else.)
BY_NAME.set("d.c.", "DC");

export function isStateCode(text: string): text is StateCode {
  return Object.prototype.hasOwnProperty.call(STATE_NAMES, text);
}

/** "TX", "tx", "Texas" or "texas" as "TX"; null for anything else. */
export function stateCodeOf(text: string): StateCode | null {
  const t = text.trim().replace(/\s+/g, " ");
  const upper = t.toUpperCase();
  if (isStateCode(upper)) return upper;
  return BY_NAME.get(t.toLowerCase()) ?? null;
}

/** The state's name ("Texas"), or the code itself for a code outside the list. */
export function stateName(code: string): string {
  return isStateCode(code) ? STATE_NAMES[code] : code;
}

/** Every state name, longest first (so "West Virginia" is tried before "Virginia"). */
export const STATE_NAMES_LONGEST_FIRST: readonly string[] = [...BY_NAME.keys()].sort((a, b) => b.length - a.length);
