// The shared records are registered once each by `$id` (contract/shared-schemas.ts) and the
// operations refer to them with Ref: a record written inline in an operation's schema would be
// a second definition of its `$id`, which Fastify's validator refuses and the OpenAPI document
// would list apart from its component.
import { OPERATION_LIST } from "../../src/contract/operations";
import { SHARED_SCHEMAS } from "../../src/contract/shared-schemas";
import { Parcel } from "../../src/contract/records";
import { Ref } from "../../src/contract/schema-helpers";
import { Type } from "@sinclair/typebox";

/** Every value of `key` anywhere in `schema`. */
function valuesOf(schema: unknown, key: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(schema)) for (const s of schema) valuesOf(s, key, found);
  else if (schema && typeof schema === "object") {
    for (const [k, v] of Object.entries(schema)) {
      if (k === key) found.push(v);
      valuesOf(v, key, found);
    }
  }
  return found;
}

const partsOf = OPERATION_LIST.flatMap((o) => [o.params, o.query, o.body, o.response].filter(Boolean));

test("each shared record is registered once, by its $id", () => {
  const ids = SHARED_SCHEMAS.map((s) => s.$id);
  expect(ids.every((id) => typeof id === "string")).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
});

test("no operation's schema holds a record inline: each is a reference to a shared record", () => {
  expect(partsOf.flatMap((part) => valuesOf(part, "$id"))).toEqual([]);
});

test("every reference, in the operations and the shared records, names a shared record", () => {
  const ids = new Set(SHARED_SCHEMAS.map((s) => s.$id));
  const refs = [...partsOf, ...SHARED_SCHEMAS].flatMap((part) => valuesOf(part, "$ref"));
  expect(refs.length).toBeGreaterThan(0);
  expect(refs.filter((r) => !ids.has(r as string))).toEqual([]);
});

test("Ref refers to a record by its $id, and refuses a schema without one", () => {
  expect(JSON.parse(JSON.stringify(Ref(Parcel)))).toEqual({ $ref: "Parcel" });
  expect(() => Ref(Type.Object({}))).toThrow("Ref needs a schema with an $id");
});
