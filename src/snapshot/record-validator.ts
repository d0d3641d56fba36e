// Rows checked against the record schemas, by the importer and by the tests that check
// generated rows. The validator is Ajv with ajv-formats, as Fastify's own schema compiler
// builds it for the service's requests, so a date the service refuses in a query is refused
// in an imported file too. Each message names the field and what it must be.
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { TObject, TSchema } from "@sinclair/typebox";
import { fieldFault } from "../contract/schema-errors";
import { TABLES, type TableName } from "./tables";

export interface RowError {
  field: string;
  message: string;
}

export type RowValidator = (row: Record<string, unknown>) => RowError[];

// Every error of a row, not only the first: an import reports all that is wrong with a line.
const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
addFormats(ajv);
// The records' annotation for rates (schema-helpers.ts): read by clients, nothing to check.
ajv.addKeyword({ keyword: "x-unit", schemaType: "string" });

function isNullable(s: TSchema): boolean {
  return Array.isArray(s.type) && s.type.includes("null");
}

/**
 * The record schema as rows are checked: an absent nullable field is null (a CSV file may
 * leave its column out), and a field the record does not have is an error (a misspelt column).
 */
function rowSchema(schema: TObject): object {
  const { $id: _id, ...rest } = schema;
  const required = (schema.required ?? []).filter((name) => !isNullable(schema.properties[name]));
  return { ...rest, required, additionalProperties: false };
}

/** What one Ajv error says about one field of a row. */
function rowError(e: ErrorObject, row: Record<string, unknown>): RowError {
  const fault = fieldFault(e, { unknown: "unknown field", required: "required field is missing" }, row);
  return { field: fault.field, message: fault.detail };
}

const cache = new Map<TableName, RowValidator>();

/** The check of one table's rows: every field that is wrong, once, in the order found. */
export function validatorFor(table: TableName): RowValidator {
  const hit = cache.get(table);
  if (hit) return hit;
  const validate: ValidateFunction = ajv.compile(rowSchema(TABLES[table]));
  const check: RowValidator = (row) => {
    if (validate(row)) return [];
    const seen = new Set<string>();
    const errors: RowError[] = [];
    for (const e of validate.errors ?? []) {
      const error = rowError(e, row);
      if (seen.has(error.field)) continue;
      seen.add(error.field);
      errors.push(error);
    }
    return errors;
  };
  cache.set(table, check);
  return check;
}
