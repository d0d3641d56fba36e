// The 50 states and DC: names for market geography names, and approximate effective
// property-tax rates (share of market value a year; Tax Foundation-style figures, rounded) that
// give parcels plausible tax bills. The generator only uses states in this table.

export const STATES: Record<string, { name: string; taxRate: number }> = {
  AK: { name: "Alaska", taxRate: 0.0104 },
  AL: { name: "Alabama", taxRate: 0.0040 },
  AR: { name: "Arkansas", taxRate: 0.0057 },
  AZ: { name: "Arizona", taxRate: 0.0051 },
  CA: { name: "California", taxRate: 0.0071 },
  CO: { name: "Colorado", taxRate: 0.0049 },
  CT: { name: "Connecticut", taxRate: 0.0170 },
  DC: { name: "District of Columbia", taxRate: 0.0057 },
  DE: { name: "Delaware", taxRate: 0.0050 },
  FL: { name: "Florida", taxRate: 0.0082 },
  GA: { name: "Georgia", taxRate: 0.0083 },
  HI: { name: "Hawaii", taxRate: 0.0027 },
  IA: { name: "Iowa", taxRate: 0.0143 },
  ID: { name: "Idaho", taxRate: 0.0047 },
  IL: { name: "Illinois", taxRate: 0.0195 },
  IN: { name: "Indiana", taxRate: 0.0075 },
  KS: { name: "Kansas", taxRate: 0.0134 },
  KY: { name: "Kentucky", taxRate: 0.0077 },
  LA: { name: "Louisiana", taxRate: 0.0055 },
  MA: { name: "Massachusetts", taxRate: 0.0104 },
  MD: { name: "Maryland", taxRate: 0.0099 },
  ME: { name: "Maine", taxRate: 0.0109 },
  MI: { name: "Michigan", taxRate: 0.0128 },
  MN: { name: "Minnesota", taxRate: 0.0102 },
  MO: { name: "Missouri", taxRate: 0.0088 },
  MS: { name: "Mississippi", taxRate: 0.0067 },
  MT: { name: "Montana", taxRate: 0.0068 },
  NC: { name: "North Carolina", taxRate: 0.0070 },
  ND: { name: "North Dakota", taxRate: 0.0098 },
  NE: { name: "Nebraska", taxRate: 0.0150 },
  NH: { name: "New Hampshire", taxRate: 0.0161 },
  NJ: { name: "New Jersey", taxRate: 0.0208 },
  NM: { name: "New Mexico", taxRate: 0.0067 },
  NV: { name: "Nevada", taxRate: 0.0048 },
  NY: { name: "New York", taxRate: 0.0140 },
  OH: { name: "Ohio", taxRate: 0.0136 },
  OK: { name: "Oklahoma", taxRate: 0.0082 },
  OR: { name: "Oregon", taxRate: 0.0086 },
  PA: { name: "Pennsylvania", taxRate: 0.0135 },
  RI: { name: "Rhode Island", taxRate: 0.0132 },
  SC: { name: "South Carolina", taxRate: 0.0051 },
  SD: { name: "South Dakota", taxRate: 0.0109 },
  TN: { name: "Tennessee", taxRate: 0.0056 },
  TX: { name: "Texas", taxRate: 0.0158 },
  UT: { name: "Utah", taxRate: 0.0052 },
  VA: { name: "Virginia", taxRate: 0.0080 },
  VT: { name: "Vermont", taxRate: 0.0171 },
  WA: { name: "Washington", taxRate: 0.0084 },
  WI: { name: "Wisconsin", taxRate: 0.0151 },
  WV: { name: "West Virginia", taxRate: 0.0055 },
  WY: { name: "Wyoming", taxRate: 0.0055 },
};

export const STATE_CODES: readonly string[] = Object.keys(STATES).sort();

export function stateName(code: string): string {
  return STATES[code]?.name ?? code;
}
