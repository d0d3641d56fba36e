// The service reads names as the add-in does: an enum input (asset_type, property_type,
// land_use, sort, ...) in any case and spacing, an asset type in any of its industry
// spellings ("Multi-Family", "MF", "Hotel"), and a ZIP+4 code as its ZIP code. The words are put
// in their canonical form before the request is validated, so the schemas (and the OpenAPI
// document) keep naming one value per concept. The vocabulary is src/contract/vocabulary.ts.
import type { TObject, TSchema } from "@sinclair/typebox";
import { assetTypeOf, vocabularyValue } from "../../contract/vocabulary";

/** A ZIP+4 code ("78704-1234") names its ZIP code. */
const ZIP4 = /^\s*(\d{5})-\d{4}\s*$/;

/** One input's value in its canonical form, or the value as given (validation then refuses it). */
export function canonicalInput(name: string, schema: TSchema | undefined, value: string): string {
  if (name === "asset_type") return assetTypeOf(value) ?? value;
  if (name === "zip") return ZIP4.exec(value)?.[1] ?? value;
  const values = schema?.enum as string[] | undefined;
  if (values) return vocabularyValue(values, value) ?? value;
  return value;
}

/** Puts the names of a query (or path parameters) in their canonical form, in place. */
export function canonicalNames(schema: TObject | undefined, input: unknown): void {
  if (!input || typeof input !== "object") return;
  const values = input as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "string") values[name] = canonicalInput(name, schema?.properties[name], value);
  }
}

/** Whether a query (or path parameters) holds an input whose names canonicalInput reads: only those routes need the step. */
export function hasNameInputs(schema: TObject | undefined): boolean {
  if (!schema) return false;
  return Object.entries(schema.properties).some(([name, input]) => name === "asset_type" || name === "zip" || Array.isArray(input.enum));
}
