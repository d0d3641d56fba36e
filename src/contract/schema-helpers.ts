// Small builders on top of TypeBox so every record schema reads the same way.
// The JSON Schema they produce is what the server validates and serialises with,
// what the OpenAPI document publishes, what the importer checks rows against,
// and what the snapshot's table layout is derived from.
import { Type, type Static, type TSchema, type SchemaOptions, type TUnsafe } from "@sinclair/typebox";

/**
 * A nullable field, as JSON Schema 2020-12 / OpenAPI 3.1 spell it: `type: ["x", "null"]`.
 * `enum` and `const` restrict the value whatever `type` allows, so they must admit null as
 * well: a nullable enum lists null among its values, and a nullable constant becomes the enum
 * of the constant and null. Only a schema of one type can be wrapped this way.
 */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}) {
  const { const: constant, ...rest } = schema as TSchema;
  if (typeof rest.type !== "string") {
    throw new Error(`Nullable wraps a schema of one type, not ${JSON.stringify(rest.type ?? rest)}`);
  }
  const nullable: Record<string, unknown> = { ...rest, ...options, type: [rest.type, "null"] };
  if (constant !== undefined) nullable.enum = [constant, null];
  else if (Array.isArray(rest.enum)) nullable.enum = [...rest.enum, null];
  return Type.Unsafe<T["static"] | null>(nullable);
}

export const Id = (prefix: string, description: string) =>
  Type.String({ pattern: `^${prefix}_[A-Za-z0-9-]+$`, description, examples: [`${prefix}_0001a2b3`] });

export const StateCode = (description = "Two-letter US state code (or DC).") =>
  Type.String({ pattern: "^[A-Z]{2}$", description, examples: ["TX"] });

export const IsoDate = (description: string) => Type.String({ format: "date", description, examples: ["2024-06-30"] });

export const Money = (description: string) => Type.Number({ minimum: 0, description });

/**
 * A share or rate, as a fraction (0.065 is 6.5%). `x-unit: fraction` (an OpenAPI extension)
 * tells clients that people read it as a percentage: the add-in shows it formatted as one.
 */
export const Ratio = (description: string) => Type.Number({ minimum: 0, maximum: 1, description, "x-unit": "fraction" });

/** A rate that may be negative or above 1 (a growth rate), as a fraction like Ratio. */
export const Rate = (description: string) => Type.Number({ description, "x-unit": "fraction" });

export const Literal = <T extends string>(value: T, description: string) => Type.Literal(value, { description });

/** A string restricted to a fixed list; published as `enum` so clients can build pickers. */
export function StringEnum<T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/**
 * An input with a default. Fastify fills the default in before the handler runs, so the
 * input's static type is never undefined (QueryObject keeps it out of `required` all the same:
 * a request may leave it out).
 */
export function WithDefault<T extends TSchema>(schema: T, value: Static<T>): T & { default: Static<T> } {
  return { ...schema, default: value };
}

/**
 * A reference to a shared record by its `$id`, typed as the record. The service registers each
 * shared record once (contract/shared-schemas.ts), so a schema that holds one refers to it rather
 * than repeating it: Fastify validates and serialises through the reference, and the OpenAPI
 * document lists the record once under components.schemas.
 */
export function Ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  if (typeof schema.$id !== "string") throw new Error("Ref needs a schema with an $id");
  return Type.Unsafe<Static<T>>({ $ref: schema.$id });
}
