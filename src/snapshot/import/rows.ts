// Turning one captured line into a checked record: CSV cells are coerced by the schema's field
// types (an empty cell is null for a nullable field; numbers and integers are parsed), NDJSON
// lines are parsed as JSON objects. `object` may be omitted (it is fixed per resource). A field
// under the name it had before (a parcel's `fips`, now `county_fips`) is read under its name now.
// The record is then checked against the resource's schema (record-validator.ts).
import type { TSchema } from "@sinclair/typebox";
import { validatorFor, type RowError } from "../record-validator";
import { OLD_FIELD_NAMES } from "../../contract/vocabulary";
import { TABLES } from "../tables";
import type { ImportedTable } from "./tables-imported";

export type RowResult = { ok: true; row: Record<string, unknown> } | { ok: false; reason: string };

type Kind = "string" | "integer" | "number" | "other";

interface Field {
  kind: Kind;
  nullable: boolean;
}

const fieldsByResource = new Map<ImportedTable, Map<string, Field>>();

function fieldsOf(resource: ImportedTable): Map<string, Field> {
  const known = fieldsByResource.get(resource);
  if (known) return known;
  const out = new Map<string, Field>();
  fieldsByResource.set(resource, out);
  for (const [name, s] of Object.entries(TABLES[resource].properties) as [string, TSchema][]) {
    const types = ([] as string[]).concat(s.type ?? "other");
    const kind = (["integer", "number", "string"].find((t) => types.includes(t)) ?? "other") as Kind;
    out.set(name, { kind, nullable: types.includes("null") });
  }
  return out;
}

/** The fixed `object` of a resource's records (captured history has none). */
function objectLiteral(resource: ImportedTable): string | undefined {
  const object = (TABLES[resource].properties as Record<string, TSchema>).object;
  return object?.const as string | undefined;
}

function describe(errors: RowError[], row: Record<string, unknown>): string {
  return errors
    .map(({ field, message }) => {
      const value = row[field];
      const shown =
        typeof value === "string" && value.length <= 40 ? ` (got "${value}")` : typeof value === "number" ? ` (got ${value})` : "";
      return `${field}: ${message}${shown}`;
    })
    .join("; ");
}

/** A column's name now: its own, or the field's present name when it is a name the field had before. */
function currentName(fields: ReadonlyMap<string, Field>, name: string): string {
  const renamed = OLD_FIELD_NAMES[name];
  return renamed !== undefined && !fields.has(name) && fields.has(renamed) ? renamed : name;
}

function check(resource: ImportedTable, row: Record<string, unknown>): RowResult {
  const object = objectLiteral(resource);
  if (object !== undefined && !("object" in row)) row.object = object;
  const errors = validatorFor(resource)(row);
  return errors.length ? { ok: false, reason: describe(errors, row) } : { ok: true, row };
}

export function ndjsonRow(resource: ImportedTable, text: string): RowResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, reason: "each line must be one JSON object" };
  const fields = fieldsOf(resource);
  const row: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    const now = currentName(fields, name);
    if (now !== name && now in value) return { ok: false, reason: `${name} is the older name of ${now}: give one of the two` };
    row[now] = v;
  }
  return check(resource, row);
}

/** Checks a CSV header and returns a function that turns a record's cells into a checked row. */
export function csvRows(resource: ImportedTable, header: string[]): { error: string } | { toRow: (cells: string[]) => RowResult } {
  const fields = fieldsOf(resource);
  const names = header.map((h, i) => currentName(fields, (i === 0 ? h.replace(/^\uFEFF/, "") : h).trim()));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const n of names) {
    if (!fields.has(n)) problems.push(`unknown column "${n}"`);
    if (seen.has(n)) problems.push(`column "${n}" appears twice`);
    seen.add(n);
  }
  for (const [name, f] of fields) if (!seen.has(name) && !f.nullable && name !== "object") problems.push(`missing column "${name}"`);
  if (problems.length) return { error: `header: ${problems.join("; ")}` };
  const kinds = names.map((n) => fields.get(n)!);
  return {
    toRow(cells) {
      if (cells.length !== names.length) return { ok: false, reason: `expected ${names.length} cells, found ${cells.length}` };
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i]] = coerce(cells[i], kinds[i]);
      return check(resource, row);
    },
  };
}

function coerce(cell: string, f: Field): unknown {
  if (cell === "" && f.nullable) return null;
  if (f.kind === "integer" && /^\s*[+-]?\d+\s*$/.test(cell)) return Number(cell);
  if (f.kind === "number" && cell.trim() !== "" && Number.isFinite(Number(cell))) return Number(cell);
  return cell; // left as text: the schema check says what was expected
}
