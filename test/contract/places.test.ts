// The place grammar: every spelling in the shared table reads as its kind and canonical form,
// canonical forms read back as themselves, and what is no place says why.
import { PlaceSyntaxError, canonicalPlace, describeKinds, parsePlace, placeKey } from "../../src/contract/places";
import { NOT_PLACES, PLACE_FORMS } from "./place-forms";

test.each(PLACE_FORMS)("$input is the $kind $canonical", ({ input, canonical, kind }) => {
  expect(parsePlace(input).kind).toBe(kind);
  expect(canonicalPlace(input)).toBe(canonical);
  // The canonical form is a fixed point: it reads back as itself.
  expect(canonicalPlace(canonical)).toBe(canonical);
});

test.each(NOT_PLACES)("%p is not a place", (input, message) => {
  expect(() => parsePlace(input)).toThrow(PlaceSyntaxError);
  expect(() => parsePlace(input)).toThrow(message);
});

test("only text and numbers can be places", () => {
  expect(() => parsePlace(true)).toThrow(/as text/);
  expect(() => parsePlace(null)).toThrow(/as text/);
  expect(() => parsePlace(1.5)).toThrow(/five digits/);
});

test("names match by key: case, accents, punctuation and Saint/St. do not matter", () => {
  expect(placeKey("St. Louis")).toBe(placeKey("saint louis"));
  expect(placeKey("Cañon City")).toBe("canon city");
  expect(placeKey("Fort Worth")).toBe(placeKey("Ft. Worth"));
  expect(placeKey("Winston-Salem")).toBe("winston salem");
  expect(placeKey("Austin")).not.toBe(placeKey("Austintown"));
});

test("a word that names an object's own property (constructor, toString) is its own key", () => {
  expect(placeKey("Constructor")).toBe("constructor");
  expect(placeKey("toString")).toBe("tostring");
  expect(placeKey("Constructor Springs")).toBe("constructor springs");
});

test("the kinds an input takes read as one sentence", () => {
  expect(describeKinds(["state", "zip"])).toBe('a state ("TX" or "Texas") or a ZIP code ("78704")');
  expect(describeKinds(["city"])).toBe('a city ("Austin, TX")');
});
