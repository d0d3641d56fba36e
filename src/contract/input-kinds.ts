// The spreadsheet kind of an operation's input, written on the input's schema as an annotation
// (`x-input`, an OpenAPI extension keyword), so a client reads how to check and convert a cell
// from the schema itself: a place in the place grammar, a ZIP code, a date in the date
// grammar, a comma-separated list of names. Inputs with no annotation are read by their type
// (text, number, enum).
import type { TObject, TSchema } from "@sinclair/typebox";
import type { PlaceKind } from "./places";
import type { DateBound } from "./dates";

export type InputKind = "place" | "city" | "state" | "zip" | "fips" | "metro" | "company_id" | "property_id" | "date" | "name_list";

/** What an input's annotations say beside its kind. */
export interface InputAnnotations {
  /** A place input: the kinds of place it takes. */
  "x-places"?: readonly PlaceKind[];
  /** A date input: which end of a year, quarter or month it stands for. */
  "x-date-bound"?: DateBound;
  /** A name list: the names each item may be. */
  "x-values"?: readonly string[];
}

/** The annotation keywords, which the service's validator is told are annotations only. */
export const INPUT_KEYWORDS = ["x-input", "x-places", "x-date-bound", "x-values"] as const;

/** `schema`, annotated as an input of `kind`. */
export function Input<T extends TSchema>(kind: InputKind, schema: T, annotations: InputAnnotations = {}): T {
  return { ...schema, "x-input": kind, ...annotations };
}

/** The kind an input's schema is annotated with, and its annotations; undefined for a plain input. */
export function inputKindOf(schema: TSchema): (InputAnnotations & { kind: InputKind }) | undefined {
  const kind = schema["x-input"] as InputKind | undefined;
  if (kind === undefined) return undefined;
  return {
    kind,
    "x-places": schema["x-places"] as readonly PlaceKind[] | undefined,
    "x-date-bound": schema["x-date-bound"] as DateBound | undefined,
    "x-values": schema["x-values"] as readonly string[] | undefined,
  };
}

/** The kinds of place an operation's `geography` input takes (from its annotation); none without one. */
export function placeKindsOf(inputs: TObject): readonly PlaceKind[] {
  const geography = inputs.properties.geography as TSchema | undefined;
  return geography ? (inputKindOf(geography)?.["x-places"] ?? []) : [];
}
