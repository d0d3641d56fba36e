// The place names matching takes as one place: New York City's names and boroughs, by city or
// by county, and county names compared without their spaces.
import { compactKey, coveredCities, namesOfPlace, namesPlace } from "../../src/contract/place-aliases";
import { cityKey, countyKey } from "../../src/contract/street-address";

const place = (city: string, county: string, state = "NY") => ({ state, city: cityKey(city), county: countyKey(county) });

test("New York names the whole city, by its names, its boroughs and their counties", () => {
  for (const typed of ["New York", "NYC", "New York City"]) {
    expect(namesPlace(cityKey(typed), place("Manhattan", "New York"))).toBe(true);
    expect(namesPlace(cityKey(typed), place("The Bronx", "Bronx"))).toBe(true);
    // A neighbourhood the snapshot names by itself is in the city by its county.
    expect(namesPlace(cityKey(typed), place("East Flatbush", "Kings"))).toBe(true);
  }
  expect(namesPlace(cityKey("New York"), place("Albany", "Albany"))).toBe(false);
  // Only in New York State: Manhattan, Kansas is not New York's.
  expect(namesPlace(cityKey("New York"), place("Manhattan", "Riley", "KS"))).toBe(false);
});

test("a borough names its own places, and New York City's in its county only", () => {
  expect(namesPlace(cityKey("Bronx"), place("The Bronx", "Bronx"))).toBe(true);
  expect(namesPlace(cityKey("Brooklyn"), place("New York City", "Kings"))).toBe(true);
  expect(namesPlace(cityKey("Manhattan"), place("New York City", "Kings"))).toBe(false);
  expect(namesPlace(cityKey("Brooklyn"), place("Queens", "Queens"))).toBe(false);
});

test("the cities a typed name looks up, and the names a place is found by", () => {
  expect(coveredCities("NY", "BRONX")).toEqual(expect.arrayContaining(["BRONX", "THE BRONX", "NEW YORK CITY"]));
  expect(coveredCities("NY", "ALBANY")).toEqual(["ALBANY"]);
  expect(coveredCities("TX", "NEW YORK")).toEqual(["NEW YORK"]);
  const forms = namesOfPlace(place("The Bronx", "Bronx")).map((w) => w.join(" "));
  expect(forms).toEqual(expect.arrayContaining(["THE BRONX", "BRONX", "NEW YORK", "NEW YORK CITY", "NYC"]));
  expect(forms).not.toContain("BROOKLYN");
  // Longest first: "New York City" is read before "New York".
  expect(forms.indexOf("NEW YORK CITY")).toBeLessThan(forms.indexOf("NEW YORK"));
});

test("counties are one name with or without their spaces, and Saint is St", () => {
  expect(compactKey(countyKey("DuPage"))).toBe(compactKey(countyKey("Du Page County")));
  expect(compactKey(countyKey("LaSalle"))).toBe(compactKey(countyKey("La Salle")));
  expect(compactKey(countyKey("Saint Clair"))).toBe(compactKey(countyKey("St. Clair")));
  expect(compactKey(countyKey("De Kalb"))).not.toBe(compactKey(countyKey("Kalb")));
});
