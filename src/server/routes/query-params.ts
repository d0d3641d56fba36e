// Query parameter schemas shared by several endpoints, so one concept has one name, one
// unit and one description everywhere.
import { Type, type TProperties } from "@sinclair/typebox";
import { StringEnum } from "../../shared/contract/schema-helpers";
import { ASSET_TYPES } from "../../shared/contract/vocabulary";

export const q = {
  state_code: Type.String({ pattern: "^[A-Za-z]{2}$", description: "Two-letter state code, e.g. TX." }),
  city: Type.String({
    minLength: 1,
    maxLength: 80,
    description: 'City name, e.g. "Austin", or "Austin, TX" to name the state too. Case-insensitive.',
  }),
  zip: Type.String({ pattern: "^[0-9]{5}$", description: "Five-digit ZIP code." }),
  metro_id: Type.String({ pattern: "^metro-[a-z0-9-]+$", description: "Metro area id, e.g. metro-austin-tx (see the catalog)." }),
  asset_type: StringEnum(ASSET_TYPES, { description: "Asset type." }),
  text: Type.String({ minLength: 1, maxLength: 200, description: "Free text: whole words of the name, address, city, owner, subtype or asset type; all must match; end a word with * to match its start." }),
  subtype: Type.String({ minLength: 1, maxLength: 60, description: "Property subtype, e.g. warehouse (see the catalog)." }),
  min_building_area_sqft: Type.Number({ minimum: 0, description: "Minimum building area, square feet." }),
  min_land_area_acres: Type.Number({ minimum: 0, description: "Minimum land area, acres." }),
  min_units: Type.Integer({ minimum: 0, description: "Minimum units (apartments, beds or keys)." }),
  owner_id: Type.String({ pattern: "^co_[A-Za-z0-9-]+$", description: "Owner company id." }),
  owner_name: Type.String({ minLength: 2, maxLength: 120, description: "Owner name or the start of it (case-insensitive)." }),
  date: (description: string) => Type.String({ format: "date", description }),
};

/** Splits "Austin, TX" into city and state; a plain "Austin" keeps the given state, if any. */
export function splitCity(city: string | undefined, state?: string): { city?: string; state?: string } {
  if (!city) return { state: state?.toUpperCase() };
  const m = /^(.*\S)\s*,\s*([A-Za-z]{2})$/.exec(city.trim());
  if (m) return { city: m[1], state: m[2].toUpperCase() };
  return { city: city.trim(), state: state?.toUpperCase() };
}

/**
 * Turns free text into a safe FTS5 query: every word must match, as a whole word; a word the
 * user ends with `*` matches as a prefix ("glen*"). Prefixes are opt-in because a prefix of a
 * common word expands to a huge posting list and makes a search 10x slower.
 */
export function ftsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+\*?/gu);
  if (!words || words.length === 0) return null;
  return words
    .map((w) => (w.endsWith("*") && w.length > 2 ? `"${w.slice(0, -1)}"*` : `"${w.replace(/\*$/, "")}"`))
    .join(" ");
}

/**
 * A query-string schema: every parameter optional unless named in `required`, and unknown
 * parameters refused (a misspelt filter must not silently match everything).
 */
export function QueryObject(props: TProperties, required: string[] = []) {
  const out: TProperties = {};
  for (const [name, schema] of Object.entries(props)) {
    out[name] = required.includes(name) ? schema : Type.Optional(schema);
  }
  return Type.Object(out, { additionalProperties: false });
}
