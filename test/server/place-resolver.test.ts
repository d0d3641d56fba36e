// Resolving a place where one is needed (a market): two places of one key in one state, spelt
// differently ("Saint Charles, MD" and "St. Charles, MD"), are each found by their own spelling,
// so neither is left that no text can name. Places of one spelling in one state, and a name
// without its state, are refused as ambiguous; a search takes every place of the name.
import { parsePlace, type PlaceKind } from "../../src/contract/places";
import { resolvePlace } from "../../src/server/data/place-resolver";
import { ApiProblem } from "../../src/server/http/problem";
import { placeIndexOf } from "../helpers/place-index";

const places = placeIndexOf([
  ["city", "city-saint-charles-md", "Saint Charles, MD", "Saint Charles", "MD", 120],
  ["city", "city-st-charles-md", "St. Charles, MD", "St. Charles", "MD", 80],
  ["city", "city-st-charles-mo", "St. Charles, MO", "St. Charles", "MO", 300],
  ["city", "city-franklin-pa-1", "Franklin, PA", "Franklin", "PA", 50],
  ["city", "city-franklin-pa-2", "Franklin, PA", "Franklin", "PA", 40],
]);
const KINDS: readonly PlaceKind[] = ["state", "county", "metro", "city", "zip"];

function resolve(given: string, single = true) {
  return resolvePlace(places, parsePlace(given), { accepted: KINDS, parameter: "geography", given, single });
}

function refusal(given: string): ApiProblem {
  try {
    resolve(given);
  } catch (err) {
    if (err instanceof ApiProblem) return err;
    throw err;
  }
  throw new Error(`"${given}" resolved`);
}

const codes = (given: string, single = true) => resolve(given, single).entries.map((e) => e.code);

test("each of two places of one key in one state is found by its own spelling, in any case and punctuation", () => {
  for (const given of ["Saint Charles, MD", "saint charles md", "SAINT CHARLES, Maryland"]) {
    expect(codes(given)).toEqual(["city-saint-charles-md"]);
  }
  for (const given of ["St. Charles, MD", "St Charles, MD", "st.charles , md"]) expect(codes(given)).toEqual(["city-st-charles-md"]);
  expect(resolve("Saint Charles, MD").name).toBe("Saint Charles, MD");
  // A search by either spelling takes both, as before.
  expect(codes("St Charles, MD", false).sort()).toEqual(["city-saint-charles-md", "city-st-charles-md"]);
});

test("places of one spelling in one state are ambiguous, pointing to the county or a ZIP code; a search takes both", () => {
  const problem = refusal("Franklin, PA");
  expect([problem.status, problem.code, problem.extra.match_count]).toEqual([400, "ambiguous_place", 2]);
  expect(problem.detail).toMatch(/share their name and state, so ask for the county or a ZIP code instead\.$/);
  expect(codes("Franklin, PA", false).sort()).toEqual(["city-franklin-pa-1", "city-franklin-pa-2"]);
});

test("a name without its state is not narrowed by its spelling: it is ambiguous across states", () => {
  const problem = refusal("St. Charles");
  expect([problem.code, problem.extra.match_count]).toEqual(["ambiguous_place", 3]);
  expect(problem.detail).toMatch(/add the state, such as "St. Charles, MO"\.$/);
});
