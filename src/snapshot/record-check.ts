// Row validation against the record schemas, used by the importer and by the tests that check
// generated rows. The schemas spell a nullable field as `type: ["x", "null"]` (for JSON Schema
// and OpenAPI) and enums as `enum`, which TypeBox's own checker does not evaluate; so each
// schema is compiled in an equivalent form: nullable fields become optional and a null value is
// dropped before checking (an absent nullable field counts as null), enums become unions of
// literals (of their values other than null). Unknown fields are errors, to catch misspelt column names. Errors name the field.
import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { registerFormats } from "./formats";
import { TABLES, arrayFields, type TableName } from "./tables";

export interface FieldError {
  path: string;
  message: string;
}

export type RowChecker = (row: Record<string, unknown>) => FieldError[];

function isNullable(s: TSchema): boolean {
  return Array.isArray(s.type) && s.type.includes("null");
}

/** An enum's values other than null (a nullable enum lists null; nulls never reach the check). */
function enumValues(s: TSchema): string[] | undefined {
  return Array.isArray(s.enum) ? (s.enum as (string | null)[]).filter((v): v is string => v !== null) : undefined;
}

function checkable(s: TSchema): TSchema {
  const base = isNullable(s) ? { ...s, type: (s.type as string[]).find((t) => t !== "null") } : s;
  const values = enumValues(base as TSchema);
  if (values) return Type.Union(values.map((v) => Type.Literal(v)), { description: base.description });
  return base as TSchema;
}

function describe(s: TSchema): string {
  const values = enumValues(s);
  if (values) return `must be one of: ${values.join(", ")}`;
  return "invalid value";
}

const cache = new Map<TableName, RowChecker>();

export function checkerFor(table: TableName): RowChecker {
  const hit = cache.get(table);
  if (hit) return hit;
  registerFormats();
  const schema: TObject = TABLES[table];
  const props: Record<string, TSchema> = {};
  const nullable = new Set<string>();
  for (const [key, s] of Object.entries(schema.properties) as [string, TSchema][]) {
    const c = checkable(s);
    if (isNullable(s)) nullable.add(key);
    props[key] = isNullable(s) ? Type.Optional(c) : c;
  }
  const compiled = TypeCompiler.Compile(Type.Object(props));
  const known = new Set(Object.keys(schema.properties));
  const check: RowChecker = (row) => {
    const errors: FieldError[] = [];
    for (const key of Object.keys(row)) if (!known.has(key)) errors.push({ path: `/${key}`, message: "unknown field" });
    const value: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) if (known.has(k) && !(v === null && nullable.has(k))) value[k] = v;
    if (!compiled.Check(value)) {
      const seen = new Set<string>();
      for (const e of compiled.Errors(value)) {
        if (seen.has(e.path)) continue;
        seen.add(e.path);
        const original = schema.properties[e.path.slice(1)] as TSchema | undefined;
        const message = e.value === undefined ? "required field is missing"
          : e.value === null ? "must not be null"
          : e.schema.anyOf && original ? describe(original) : e.message;
        errors.push({ path: e.path, message });
      }
    }
    return errors;
  };
  cache.set(table, check);
  return check;
}

/** A row as stored in SQLite back to its record form (array fields are JSON text). */
export function decodeRow(table: TableName, row: Record<string, unknown>): Record<string, unknown> {
  const arrays = arrayFields(table);
  if (!arrays.size) return row;
  const out = { ...row };
  for (const k of arrays) if (typeof out[k] === "string") out[k] = JSON.parse(out[k] as string);
  return out;
}
