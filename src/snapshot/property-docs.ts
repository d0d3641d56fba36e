// Each property's detail answer, rendered once when the snapshot is built.
//
// Why: property detail is the hottest authenticated call. Rendering 32 fields with SQLite's
// json_object on every request, after a seek in the id index and another in the table, was
// the largest part of its cost under load. A snapshot never changes once built, so the builder
// (and the importer) render every property once into `property_docs`, keyed by id, and a
// detail request is one seek that returns finished JSON text (docs/benchmarks.md has figures).
//
// The SQL is derived from the same record schema the OpenAPI document publishes (field order
// included), and a test holds every stored document equal to the schema serialiser's output.
import type { TObject, TSchema } from "@sinclair/typebox";
import { CommercialProperty } from "../shared/contract/records";

/** The JSON value of one column, in the form the schema serialiser would write it. */
function columnJson(column: string, field: TSchema): string {
  const types = ([] as string[]).concat(field.type ?? "string");
  // A REAL holding a whole number would print as 404121.0; JavaScript writes 404121.
  if (types.includes("number")) {
    return `IIF(${column} = CAST(${column} AS INTEGER), CAST(${column} AS INTEGER), ${column})`;
  }
  if (types.includes("array")) return `json(${column})`; // stored as JSON text
  if (types.includes("string") || types.includes("integer")) return column;
  throw new Error(`property-docs: field '${column}' has a type json_object cannot render (${types.join(", ")})`);
}

/** `json_object('id', id, ...)` over every field of `schema`, in the schema's order. */
export function jsonObjectSql(schema: TObject): string {
  const parts = Object.entries(schema.properties).map(
    ([column, field]) => `'${column}', ${columnJson(column, field as TSchema)}`,
  );
  return `json_object(${parts.join(", ")})`;
}

/** Keyed by id without a rowid: the lookup is one b-tree seek that lands on the text. */
export const PROPERTY_DOCS_DDL =
  "CREATE TABLE property_docs (id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL) WITHOUT ROWID";

/** Fills property_docs from properties (in id order, so the b-tree is written sequentially). */
export const PROPERTY_DOCS_FILL = `INSERT INTO property_docs (id, json) SELECT id, ${jsonObjectSql(CommercialProperty)} FROM properties ORDER BY id`;

/** The detail answer of one property: its stored document. */
export const PROPERTY_DOC_BY_ID = "SELECT json FROM property_docs WHERE id = ?";
