// The contract's schema builders, checked with a JSON Schema 2020-12 validator (what OpenAPI
// 3.1 clients use): a nullable schema must accept null and whatever the wrapped schema accepts,
// and nothing else.
import Ajv2020 from "ajv/dist/2020";
import { Type, type TSchema } from "@sinclair/typebox";
import { Literal, Nullable, StringEnum } from "../../src/contract/schema-helpers";

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
const accepts = (schema: TSchema, value: unknown) => ajv.validate(schema, value);

describe("Nullable", () => {
  test("a nullable enum accepts null and its values, and lists null among them", () => {
    const schema = Nullable(StringEnum(["A", "B", "C"] as const, { description: "Building class." }));
    expect(schema).toMatchObject({ type: ["string", "null"], enum: ["A", "B", "C", null], description: "Building class." });
    for (const v of ["A", "C", null]) expect([v, accepts(schema, v)]).toEqual([v, true]);
    for (const v of ["D", "", 1]) expect([v, accepts(schema, v)]).toEqual([v, false]);
  });

  test("a nullable constant accepts null and the constant only", () => {
    const schema = Nullable(Literal("list", "Resource type."));
    expect(schema).toMatchObject({ type: ["string", "null"], enum: ["list", null] });
    expect(schema).not.toHaveProperty("const");
    expect([accepts(schema, "list"), accepts(schema, null), accepts(schema, "lists")]).toEqual([true, true, false]);
  });

  test("a nullable plain type keeps its bounds and options", () => {
    const schema = Nullable(Type.Integer({ minimum: 1700 }), { description: "Year built." });
    expect(schema).toMatchObject({ type: ["integer", "null"], minimum: 1700, description: "Year built." });
    expect(schema).not.toHaveProperty("enum");
    expect([accepts(schema, 1990), accepts(schema, null), accepts(schema, 1600), accepts(schema, "1990")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  test("only a schema of one type can be made nullable", () => {
    expect(() => Nullable(Type.Union([Type.String(), Type.Number()]))).toThrow(/one type/);
    expect(() => Nullable(Nullable(Type.String()))).toThrow(/one type/);
  });
});
