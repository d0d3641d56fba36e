// The OpenAPI document as a JSON Schema 2020-12 validator reads it. The whole document is added
// to Ajv under one id, so any schema in it is compiled by its JSON pointer and its
// `#/components/schemas/...` references resolve as they do for a client of the document.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

export type JsonSchema = { [keyword: string]: unknown };

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OperationObject {
  operationId: string;
  "x-credit-cost": number;
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
  [member: string]: unknown;
}

export interface Operation {
  method: string;
  path: string;
  op: OperationObject;
  /** Where the operation is in the document (`["paths", "/v1/parcels", "get"]`), for `pointer`. */
  at: string[];
}

const DOC_ID = "https://propintel.test/openapi.json";

/** A JSON pointer fragment from its segments (RFC 6901 escaping). */
export function pointer(...segments: (string | number)[]): string {
  return "#" + segments.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op, at: ["paths", path, method] })),
  );
}

/** Every `x-` member anywhere in the document. */
function extensionKeywords(value: unknown, found = new Set<string>()): string[] {
  if (Array.isArray(value)) for (const v of value) extensionKeywords(v, found);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith("x-")) found.add(k);
      extensionKeywords(v, found);
    }
  }
  return [...found];
}

export class SchemaValidator {
  private readonly ajv: Ajv2020;

  constructor(doc: OpenApiDoc) {
    // Strict: an unknown keyword or an ambiguous type inside a schema is an error, not ignored.
    // The document's own top-level members are not schema keywords, so they are declared as
    // such to let the document itself be added as a schema.
    this.ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addVocabulary(Object.keys(doc));
    // OpenAPI 3.1 lets a schema carry specification extensions (`x-unit`): annotations, not checks.
    this.ajv.addVocabulary(extensionKeywords(doc));
    this.ajv.addSchema(doc, DOC_ID);
  }

  /** The compiled schema at `fragment` (a JSON pointer into the document). */
  at(fragment: string): ValidateFunction {
    const validate = this.ajv.getSchema(DOC_ID + fragment);
    if (!validate) throw new Error(`no schema at ${fragment}`);
    return validate;
  }

  /** Why `value` fails the schema at `fragment`, or [] when it validates. */
  errors(fragment: string, value: unknown): string[] {
    const validate = this.at(fragment);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword} (${e.schemaPath})`);
  }
}

/** Keywords whose value is a schema, and those whose value is a list or a map of schemas. */
const SCHEMA_KEYWORDS = [
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];

/** Every schema in `schema` (itself included), with its JSON pointer. */
function* subschemas(schema: JsonSchema, at: (string | number)[]): Generator<{ at: (string | number)[]; schema: JsonSchema }> {
  yield { at, schema };
  const isSchema = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
  for (const k of SCHEMA_KEYWORDS) if (isSchema(schema[k])) yield* subschemas(schema[k], [...at, k]);
  for (const k of SCHEMA_LISTS) {
    const list = schema[k];
    if (Array.isArray(list)) for (const [i, s] of list.entries()) if (isSchema(s)) yield* subschemas(s, [...at, k, i]);
  }
  for (const k of SCHEMA_MAPS) {
    const map = schema[k];
    if (isSchema(map)) for (const [name, s] of Object.entries(map)) if (isSchema(s)) yield* subschemas(s, [...at, k, name]);
  }
}

/**
 * Every schema the document holds, with its JSON pointer: the components, and each
 * operation's parameters, request body, responses and response headers, down to their
 * innermost properties and items.
 */
export function* schemasOf(doc: OpenApiDoc): Generator<{ pointer: string; schema: JsonSchema }> {
  const roots: { at: (string | number)[]; schema: JsonSchema }[] = [];
  for (const [name, s] of Object.entries(doc.components.schemas)) roots.push({ at: ["components", "schemas", name], schema: s });
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const base = ["paths", path, method];
      for (const [i, p] of (op.parameters ?? []).entries()) roots.push({ at: [...base, "parameters", i, "schema"], schema: p.schema });
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        roots.push({ at: [...base, "requestBody", "content", type, "schema"], schema: media.schema });
      }
      for (const [status, r] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(r.content ?? {})) {
          roots.push({ at: [...base, "responses", status, "content", type, "schema"], schema: media.schema });
        }
        for (const [name, h] of Object.entries(r.headers ?? {})) {
          roots.push({ at: [...base, "responses", status, "headers", name, "schema"], schema: h.schema });
        }
      }
    }
  }
  for (const root of roots) {
    for (const { at, schema } of subschemas(root.schema, root.at)) yield { pointer: pointer(...at), schema };
  }
}
