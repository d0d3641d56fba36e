// Labels people read for the fields of the contract's records: "vacancy_rate" is "Vacancy
// rate", "asking_rent_sqft_year" is "Asking rent ($/sq ft/yr)", "sales_volume_12m" is "Sales
// volume (12 months, $)". They are derived here, and only here, from each field's name, type
// and description (record-fields.ts reads them from the contract's schemas), so a field added
// to the contract gets a label with no change to this file; the tables below hold words and
// units, not fields. The pane shows them, =PROP.FIELDS lists them, and every function accepts
// them wherever it accepts a field's name (field-names.ts); cells keep the field names the PROP
// formulas spill, so a table and its formula hold the same text.
import type { FieldInfo } from "./record-fields";

/**
 * Name endings that are a unit or a period, shown in brackets after the label. Longest first:
 * "_sqft_year" before "_sqft". An ending after "per" stays in the words ("price per sq ft").
 */
const UNIT_ENDINGS: ReadonlyArray<readonly [string, string]> = [
  ["_sqft_year", "$/sq ft/yr"],
  ["_unit_month", "$/unit/mo"],
  ["_12m", "12 months"],
  ["_24m", "24 months"],
  ["_yoy", "year over year"],
  ["_sqft", "sq ft"],
  ["_acres", "acres"],
  ["_miles", "miles"],
];

/** Words written otherwise than the name spells them. */
const WORDS: Record<string, string> = {
  id: "ID",
  apn: "APN",
  fips: "FIPS",
  mls: "MLS",
  zip: "ZIP",
  usd: "USD",
  sqft: "sq ft",
  yoy: "year over year",
  "12m": "12-month",
  "24m": "24-month",
  thin: "thin market",
};

/** Words that make a plain number an amount of dollars (descriptions of others say "USD"). */
const MONEY_WORDS = new Set(["price", "rent"]);

/** The label of one field; `field` as record-fields.ts describes it. */
export function fieldLabel(field: Pick<FieldInfo, "name" | "type" | "description" | "format">): string {
  let base = field.name;
  const units: string[] = [];
  for (let stripped = true; stripped;) {
    stripped = false;
    for (const [ending, unit] of UNIT_ENDINGS) {
      const rest = base.slice(0, -ending.length);
      if (base.endsWith(ending) && rest !== "" && !rest.endsWith("_per")) {
        units.unshift(unit);
        base = rest;
        stripped = true;
        break;
      }
    }
  }
  const words = base.split("_").filter(Boolean);
  // An amount: a plain number (not a rate, a date or a count) priced in dollars.
  const amount =
    field.format === undefined &&
    field.type.startsWith("number") &&
    (/\bUSD\b/.test(field.description) || words.some((w) => MONEY_WORDS.has(w))) &&
    !units.some((u) => u.includes("$"));
  if (amount) units.push("$");
  const text = words.map((w) => WORDS[w] ?? w).join(" ");
  const label = text.charAt(0).toUpperCase() + text.slice(1);
  return units.length > 0 ? `${label} (${units.join(", ")})` : label;
}

/**
 * Whether a field is one of a record's figures (a count, an amount, a rate, or a flag about
 * them such as a market's `thin`) rather than what the record is about (its id, names, kinds,
 * codes and dates): the numbers, rates and flags.
 */
export function isFigure(field: Pick<FieldInfo, "type" | "format">): boolean {
  return field.format === "fraction" || /^(number|integer|boolean)\b/.test(field.type);
}
