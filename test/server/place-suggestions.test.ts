// "Did you mean": the places offered for one the snapshot does not hold, over a small index.
import Database from "better-sqlite3";
import { parsePlace, placeKey, type PlaceKind } from "../../src/contract/places";
import { PlaceIndex } from "../../src/server/data/place-index";
import { editDistance, nameSimilarity, suggestPlaces } from "../../src/server/data/place-suggestions";
import { PLACE_KINDS } from "../../src/contract/places";

function index(rows: [PlaceKind, string, string, string, string, number][]): PlaceIndex {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE places (kind, code, name, local_name, key, state_code, city, county_fips, property_count, record_count)");
  const insert = db.prepare("INSERT INTO places VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)");
  for (const [kind, code, name, local, state, n] of rows) insert.run(kind, code, name, local, placeKey(local), state, n, n);
  return new PlaceIndex(db);
}

const places = index([
  ["city", "city-new-york-city-ny", "New York City, NY", "New York City", "NY", 900],
  ["county", "36061", "New York County, NY", "New York", "NY", 400],
  ["metro", "metro-new-york-city-ny", "New York City, NY metro", "New York City", "NY", 1500],
  ["city", "city-houston-tx", "Houston, TX", "Houston", "TX", 500],
  ["city", "city-austin-tx", "Austin, TX", "Austin", "TX", 300],
  ["city", "city-austin-mn", "Austin, MN", "Austin", "MN", 20],
  ["county", "48453", "Travis County, TX", "Travis", "TX", 250],
  ["zip", "78701", "78701", "78701", "TX", 40],
  ["zip", "78704", "78704", "78704", "TX", 60],
  ["zip", "78799", "78799", "78799", "TX", 1],
]);

const suggest = (text: string, kinds: readonly PlaceKind[] = PLACE_KINDS) => suggestPlaces(places, parsePlace(text), kinds);

test("edit distance counts a swap of neighbours as one edit", () => {
  expect(editDistance("huston", "houston")).toBe(1);
  expect(editDistance("austn", "austin")).toBe(1);
  expect(editDistance("asutin", "austin")).toBe(1);
  expect(editDistance("", "abc")).toBe(3);
  expect(nameSimilarity("new york", "new york city")).toBeGreaterThan(nameSimilarity("new york", "newark"));
});

test("a longer name of the kind asked for comes first, then other kinds of the same name", () => {
  expect(suggest("New York, NY")).toEqual(["New York City, NY", "New York County, NY", "New York City, NY metro"]);
});

test("a typo finds the name it was meant to be; the same name in another state; another kind of the name", () => {
  expect(suggest("Huston, TX")[0]).toBe("Houston, TX");
  expect(suggest("Austin, CA")).toEqual(["Austin, TX", "Austin, MN"]);
  expect(suggest("Travis, TX")).toEqual(["Travis County, TX"]);
  expect(suggest("metro-houstn-tx", ["metro", "city"])).toEqual(["Houston, TX"]);
});

test("only the kinds the endpoint takes are offered; names far from any place offer nothing", () => {
  expect(suggest("Travis, TX", ["state", "city", "zip"])).toEqual([]);
  expect(suggest("Zzyzx, TX")).toEqual([]);
});

test("a ZIP code: the nearest ones in its three-digit area", () => {
  expect(suggest("78702")).toEqual(["78701", "78704", "78799"]);
  expect(suggest("10001")).toEqual([]);
});
