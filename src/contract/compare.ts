// What POST /v1/commercial/properties/compare takes: 2 to COMPARE_MAX_IDS property ids, the
// fields to compare, and the ETags already held. The add-in batches detail lookups into
// compare calls of at most COMPARE_MAX_IDS ids.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { CommercialProperty } from "./records";
import { StringEnum } from "./schema-helpers";

/** Most property ids one comparison takes. */
export const COMPARE_MAX_IDS = 25;
/** Fewest: one property is its detail, not a comparison. */
export const COMPARE_MIN_IDS = 2;

export type PropertyField = keyof CommercialProperty;

/** Every field of a property, in the record's order (Object.keys cannot say they are its keys). */
export const PROPERTY_FIELDS = Object.keys(CommercialProperty.properties) as PropertyField[];

/** The numeric fields, which a comparison gives the minimum, median and maximum of. */
export const NUMERIC_PROPERTY_FIELDS = PROPERTY_FIELDS.filter((f) => {
  const t = ([] as string[]).concat((CommercialProperty.properties[f] as TSchema).type);
  return t.includes("number") || t.includes("integer");
});

export const CompareRequest = Type.Object(
  {
    property_ids: Type.Array(Type.String({ maxLength: 64 }), {
      minItems: COMPARE_MIN_IDS,
      maxItems: COMPARE_MAX_IDS,
      uniqueItems: true,
      description: `${COMPARE_MIN_IDS} to ${COMPARE_MAX_IDS} distinct property ids.`,
    }),
    fields: Type.Optional(Type.Array(StringEnum(PROPERTY_FIELDS), { minItems: 1, maxItems: PROPERTY_FIELDS.length, uniqueItems: true })),
    if_none_match: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ minLength: 1, maxLength: 200 }), {
        description:
          "The ETags already held for some of the properties, by id (from `etags` or property detail). A property still " +
          "as held comes back as its id only (`not_modified` lists it); when every id asked is, the comparison costs " +
          'nothing and carries no statistics. `"*"` is refused: it names no held copy.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CompareRequest = Static<typeof CompareRequest>;
