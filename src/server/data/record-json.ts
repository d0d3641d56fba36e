// One record as JSON text, written by SQLite's json_object() straight from the row.
//
// Why: a detail lookup is the hottest authenticated call, and building a 32-field JavaScript
// object from the row and serialising it again cost more than the lookup itself. The SQL is
// derived from the same record schema the OpenAPI document publishes (field order included),
// and a test holds its output equal to the schema serialiser's for every row of a snapshot.
import type { TObject, TSchema } from "@sinclair/typebox";

/** The JSON value of one column, in the form the schema serialiser would write it. */
function columnJson(column: string, field: TSchema): string {
  const types = ([] as string[]).concat(field.type ?? "string");
  // A REAL holding a whole number would print as 404121.0; JavaScript writes 404121.
  if (types.includes("number")) {
    return `IIF(${column} = CAST(${column} AS INTEGER), CAST(${column} AS INTEGER), ${column})`;
  }
  if (types.includes("array")) return `json(${column})`; // stored as JSON text
  if (types.includes("string") || types.includes("integer")) return column;
  throw new Error(`record-json: field '${column}' has a type json_object cannot render (${types.join(", ")})`);
}

/** `json_object('id', id, ...)` over every field of `schema`, in the schema's order. */
export function jsonObjectSql(schema: TObject): string {
  const parts = Object.entries(schema.properties).map(
    ([column, field]) => `'${column}', ${columnJson(column, field as TSchema)}`,
  );
  return `json_object(${parts.join(", ")})`;
}

/** A response body that is already JSON text: the route sends it without serialising again. */
export class JsonText {
  constructor(readonly text: string) {}
}
