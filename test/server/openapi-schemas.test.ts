// Every schema in the published OpenAPI document can be met as written: its examples and its
// default validate against it, and its `enum` or `const` agrees with its `type` both ways (no
// value of a type it does not list, and no listed type that no value has: a nullable enum that
// leaves out null could never validate a null). A schema that fails this rejects answers the
// service is allowed to give.
import { type JsonSchema, type OpenApiDoc, SchemaValidator, schemasOf } from "../helpers/openapi-document";
import { startService, type TestService } from "../helpers/service";

let svc: TestService;
let doc: OpenApiDoc;
let validator: SchemaValidator;
let schemas: { pointer: string; schema: JsonSchema }[];

beforeAll(async () => {
  svc = await startService();
  doc = (await svc.app.inject({ method: "GET", url: "/v1/openapi.json" })).json();
  validator = new SchemaValidator(doc);
  schemas = [...schemasOf(doc)];
});
afterAll(() => svc.app.close());

/** Whether `value` is of the JSON Schema type `type` ("integer" is a number with no fraction). */
function isOfType(value: unknown, type: string): boolean {
  if (type === "null") return value === null;
  if (type === "integer") return Number.isInteger(value);
  if (type === "array") return Array.isArray(value);
  if (type === "object") return typeof value === "object" && value !== null && !Array.isArray(value);
  return typeof value === type; // string, number, boolean
}

function typesOf(schema: JsonSchema): string[] | undefined {
  const t = schema.type;
  return typeof t === "string" ? [t] : Array.isArray(t) ? (t as string[]) : undefined;
}

/** The values a schema is restricted to (its `enum`, or its `const` alone), if it is. */
function allowedValues(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ("const" in schema) return [schema.const];
  return undefined;
}

test("the walk reaches the schemas this test is about", () => {
  const count = (has: (s: JsonSchema) => boolean) => schemas.filter(({ schema }) => has(schema)).length;
  expect(count((s) => Array.isArray(s.examples))).toBeGreaterThan(0);
  expect(count((s) => s.default !== undefined)).toBeGreaterThan(0);
  expect(count((s) => Array.isArray(s.enum) && typesOf(s)?.includes("null") === true)).toBeGreaterThan(0);
  expect(count((s) => "const" in s)).toBeGreaterThan(0);
  // Named records and the parts of every operation are all walked.
  expect(schemas.some((s) => s.pointer === "#/components/schemas/CommercialProperty/properties/building_class")).toBe(true);
  expect(schemas.some((s) => s.pointer.includes("/responses/200/content/application~1json/schema/properties/properties/items"))).toBe(true);
});

test("every example and every default validates against its own schema", () => {
  const failures: string[] = [];
  for (const { pointer, schema } of schemas) {
    const samples = [...(Array.isArray(schema.examples) ? schema.examples : []), ...(schema.default !== undefined ? [schema.default] : [])];
    for (const sample of samples) {
      const errors = validator.errors(pointer, sample);
      if (errors.length) failures.push(`${pointer}: ${JSON.stringify(sample)}: ${errors.join("; ")}`);
    }
  }
  expect(failures).toEqual([]);
});

test("every enum or const value is of a type its schema lists", () => {
  const failures: string[] = [];
  for (const { pointer, schema } of schemas) {
    const types = typesOf(schema);
    const values = allowedValues(schema);
    if (!types || !values) continue;
    for (const v of values)
      if (!types.some((t) => isOfType(v, t))) failures.push(`${pointer}: ${JSON.stringify(v)} is not ${types.join(" or ")}`);
  }
  expect(failures).toEqual([]);
});

test("every type a schema lists beside an enum or const has a value in it (a nullable enum lists null)", () => {
  const failures: string[] = [];
  for (const { pointer, schema } of schemas) {
    const types = typesOf(schema);
    const values = allowedValues(schema);
    if (!types || !values) continue;
    for (const t of types)
      if (!values.some((v) => isOfType(v, t))) failures.push(`${pointer}: type ${t} but no such value in ${JSON.stringify(values)}`);
  }
  expect(failures).toEqual([]);
});
