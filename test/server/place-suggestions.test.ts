// "Did you mean": the places offered for one the snapshot does not hold, over a small index and
// over one of 20,000 places, where the name index bounds how many are scored.
import { parsePlace, type PlaceKind } from "../../src/contract/places";
import { editDistance, likenessAtMost, nameSimilarity, suggestPlaces } from "../../src/server/data/place-suggestions";
import { MAX_EXTENDING, MAX_NEAR } from "../../src/server/data/place-name-index";
import * as nameDistance from "../../src/server/data/place-name-distance";
import { PLACE_KINDS } from "../../src/contract/places";
import { placeIndexOf as index } from "../helpers/place-index";

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

test("the bounded edit count is the edit distance up to its bound, and above the bound past it", () => {
  const words = [
    "austin",
    "houston",
    "huston",
    "aabbb",
    "bbbaa",
    "abab",
    "baba",
    "new york",
    "newark",
    "zzzzzzzzzzzz",
    "texas",
    "tsxae",
    "",
    "a",
  ];
  const wrong: unknown[] = [];
  for (const a of words)
    for (const b of words)
      for (let max = 0; max <= 13; max++) {
        const exact = editDistance(a, b);
        const bounded = nameDistance.distanceWithin(a, b, max);
        if (exact <= max ? bounded !== exact : bounded <= max) wrong.push({ a, b, max, exact, bounded });
      }
  expect(wrong).toEqual([]);
});

test("over random near keys, the bounded count is exact within its bound and the bounds from lengths and letters hold", () => {
  // Keys of a few letters, a digit and a space, each with a copy a few random edits away, so
  // most pairs lie near the band's edge that the bounded count computes.
  let seed = 11;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n;
  const alphabet = "abce 1";
  const edit = (word: string) => {
    const at = Math.floor(random(word.length + 1));
    const letter = alphabet[Math.floor(random(alphabet.length))];
    switch (Math.floor(random(4))) {
      case 0:
        return word.slice(0, at) + letter + word.slice(at);
      case 1:
        return word.slice(0, at) + word.slice(at + 1);
      case 2:
        return word.slice(0, at) + letter + word.slice(at + 1);
      default:
        return at + 1 < word.length ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2) : word;
    }
  };
  const wrong: unknown[] = [];
  for (let k = 0; k < 3000; k++) {
    let a = "";
    for (let n = Math.floor(random(14)); n > 0; n--) a += alphabet[Math.floor(random(alphabet.length))];
    let b = a;
    for (let n = Math.floor(random(6)); n > 0; n--) b = edit(b);
    const exact = editDistance(a, b);
    const [bitsA, bitsB] = [nameDistance.letterBits(a), nameDistance.letterBits(b)];
    const least = nameDistance.leastEdits(a.length, bitsA, b.length, bitsB);
    if (least > exact) wrong.push({ a, b, exact, least });
    // And the most a likeness can be, for these and for names that extend them by a word.
    for (const [x, y] of [
      [a, b],
      [a, `${a} ${b}`],
      [`${b} ${a}`, b],
      [a, a],
    ]) {
      const most = likenessAtMost(x.length, nameDistance.letterBits(x), y.length, nameDistance.letterBits(y));
      if (most < nameSimilarity(x, y)) wrong.push({ x, y, most, likeness: nameSimilarity(x, y) });
    }
    for (let max = 0; max <= 8; max++) {
      const bounded = nameDistance.distanceWithin(a, b, max);
      if (exact <= max ? bounded !== exact : bounded <= max) wrong.push({ a, b, max, exact, bounded });
    }
  }
  expect(wrong).toEqual([]);
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

test('a misspelt state ("Texsa") is offered the state; a misspelt metro ("Austn MSA") the metro', () => {
  const withStates = index([
    ["state", "TX", "Texas", "Texas", "TX", 5000],
    ["metro", "metro-austin-tx", "Austin, TX metro", "Austin", "TX", 700],
    ["city", "city-austin-tx", "Austin, TX", "Austin", "TX", 300],
  ]);
  expect(suggestPlaces(withStates, parsePlace("Texsa"), PLACE_KINDS)[0]).toBe("Texas");
  expect(suggestPlaces(withStates, parsePlace("Austn MSA"), PLACE_KINDS)[0]).toBe("Austin, TX metro");
  expect(suggestPlaces(withStates, parsePlace("Austn, TX metro"), ["metro"])).toEqual(["Austin, TX metro"]);
});

describe("among 20,000 places", () => {
  // Cities with made-up names in every state, beside the real ones above: enough that scoring
  // every place would score thousands.
  const states = ["TX", "CA", "NY", "FL", "IL", "OH", "PA", "GA"];
  const rows: [PlaceKind, string, string, string, string, number][] = [
    ["city", "city-houston-tx", "Houston, TX", "Houston", "TX", 500],
    ["city", "city-springfield-il", "Springfield, IL", "Springfield", "IL", 400],
    ["zip", "78701", "78701", "78701", "TX", 40],
    ["zip", "78704", "78704", "78704", "TX", 60],
  ];
  const syllables = ["ar", "bel", "cor", "dan", "el", "for", "gan", "hol", "is", "jun", "kel", "lor", "mon", "nor", "or"];
  for (let i = 0; rows.length < 20_000; i++) {
    const name = `${syllables[i % 15]}${syllables[Math.floor(i / 15) % 15]}${syllables[Math.floor(i / 225) % 15]}ton ${Math.floor(i / 3375)}`;
    const state = states[i % states.length];
    rows.push(["city", `city-${i}`, `${name}, ${state}`, name, state, 1 + (i % 50)]);
  }
  // ZIP codes 10000-11999 but for a gap at 10520-10529.
  for (let z = 10000; z < 12000; z++) if (z < 10520 || z > 10529) rows.push(["zip", String(z), String(z), String(z), "NY", 1]);
  const generated = rows[1000];
  const big = index(rows);

  test("an unknown name scores a bounded number of candidates, never every place", () => {
    const scoring = jest.spyOn(nameDistance, "distanceWithin");
    let scored = 0;
    try {
      for (const text of ["Zzzzzzzzzzzz", "toString", "Armonton", "Huston", "Springfeld, IL", `${generated[3]}x, ${generated[4]}`]) {
        scoring.mockClear();
        suggestPlaces(big, parsePlace(text), PLACE_KINDS);
        expect(scoring.mock.calls.length).toBeLessThanOrEqual(MAX_NEAR + MAX_EXTENDING);
        scored += scoring.mock.calls.length;
      }
      // The spy sees the scoring: the near names were scored.
      expect(scored).toBeGreaterThan(0);
    } finally {
      scoring.mockRestore();
    }
  });

  test("the index still finds the near names: a typo, a state's city, a ZIP code's neighbours", () => {
    expect(suggestPlaces(big, parsePlace("Huston"), PLACE_KINDS)[0]).toBe("Houston, TX");
    expect(suggestPlaces(big, parsePlace("Springfeld, IL"), PLACE_KINDS)[0]).toBe("Springfield, IL");
    // A generated name with one letter dropped.
    const typo = `${generated[3].slice(0, 2)}${generated[3].slice(3)}, ${generated[4]}`;
    expect(suggestPlaces(big, parsePlace(typo), ["city"])[0]).toBe(generated[2]);
    expect(suggestPlaces(big, parsePlace("78702"), PLACE_KINDS)).toEqual(["78701", "78704"]);
    expect(suggestPlaces(big, parsePlace("10525"), PLACE_KINDS)).toEqual(["10530", "10519", "10531"]);
  });
});
