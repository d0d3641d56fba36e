// One wording of schema errors for the service's 400 answers and the importer's row errors.
import type { FastifyError } from "fastify";
import { fieldFault, type SchemaError } from "../../src/contract/schema-errors";
import { toProblem } from "../../src/server/http/problem";

const words = { unknown: "is unknown", required: "is missing" };
const error = (keyword: string, instancePath: string, params: Record<string, unknown>, message?: string): SchemaError => ({
  keyword,
  instancePath,
  params,
  message,
});

describe("fieldFault", () => {
  test("an unknown or a missing member is placed on that member, in the caller's words", () => {
    expect(fieldFault(error("additionalProperties", "", { additionalProperty: "colour" }), words)).toEqual({
      pointer: "/colour",
      field: "colour",
      detail: "is unknown",
    });
    expect(fieldFault(error("required", "", { missingProperty: "id" }), words)).toEqual({
      pointer: "/id",
      field: "id",
      detail: "is missing",
    });
  });

  test("an enum lists its values without null", () => {
    expect(fieldFault(error("enum", "/sort", { allowedValues: ["price", "size", null] }), words).detail).toBe(
      "must be one of: price, size",
    );
  });

  test("a type error on a null member says it must not be null; elsewhere Ajv's message stands", () => {
    const e = error("type", "/year_built", { type: "integer" }, "must be integer");
    expect(fieldFault(e, words, { year_built: null }).detail).toBe("must not be null");
    expect(fieldFault(e, words, { year_built: "1990" }).detail).toBe("must be integer");
    expect(fieldFault(e, words).detail).toBe("must be integer");
  });

  test("a nested error is placed on its top-level member", () => {
    expect(fieldFault(error("minimum", "/ids/3", { limit: 1 }, "must be >= 1"), words)).toEqual({
      pointer: "/ids/3",
      field: "ids",
      detail: "must be >= 1",
    });
  });
});

test("a 400 for a nullable enum lists its values without a trailing empty one", () => {
  const err = Object.assign(new Error("bad"), {
    validation: [error("enum", "/status", { allowedValues: ["active", "closed", null] }, "must be equal to one of the allowed values")],
    validationContext: "body",
  }) as unknown as FastifyError;
  expect(toProblem(err).detail).toBe("status must be one of: active, closed");
});
