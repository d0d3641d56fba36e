// The name index's near names are the same entries, in the same order, as a plain reference
// that scores every entry of the kinds and state asked for by its shared letter pairs: over
// 20,000 generated names (alike enough that thousands share a pair with any key, and sized
// alike enough that many tie), with and without a state, for every set of kinds.
import type { PlaceKind } from "../../src/contract/places";
import type { PlaceEntry } from "../../src/server/data/place-entry";
import { letterPairs, MAX_NEAR, PlaceNameIndex } from "../../src/server/data/place-name-index";

const STATES = ["TX", "CA", "NY", "FL", "IL", "OH", "PA", "GA", "WA", "AZ"];
const SYLLABLES = [
  "ar",
  "bel",
  "cor",
  "dan",
  "el",
  "for",
  "gan",
  "hol",
  "is",
  "jun",
  "kel",
  "lor",
  "mon",
  "nor",
  "or",
  "san",
  "ton",
  "ville",
];
const KINDS: readonly PlaceKind[] = ["county", "city", "metro"];

function generated(count: number): PlaceEntry[] {
  const entries: PlaceEntry[] = [];
  for (let i = 0; i < count; i++) {
    const s = (k: number) => SYLLABLES[Math.floor(i / SYLLABLES.length ** k) % SYLLABLES.length];
    const words = [s(0) + s(1) + (i % 3 === 0 ? s(2) : ""), ...(i % 5 === 0 ? [s(3) + s(1)] : [])];
    const local = words.join(" ");
    const state = STATES[(i * 7) % STATES.length];
    const kind = KINDS[i % 11 === 0 ? 0 : i % 13 === 0 ? 2 : 1];
    entries.push({
      kind,
      code: `${kind}-${i}`,
      name: `${local}, ${state}`,
      local,
      key: local,
      state,
      city: null,
      properties: 1 + (i % 7),
      records: 1 + (i % 7),
    });
  }
  return entries;
}

/** Every entry of the kinds (and state) scored by its shared pairs; the first MAX_NEAR by likeness, size, then reach. */
function referenceNear(entries: PlaceEntry[], key: string, state: string | null, kinds: readonly PlaceKind[]): PlaceEntry[] {
  const pairs = letterPairs(key);
  const scored: { entry: PlaceEntry; dice: number; reach: number }[] = [];
  entries.forEach((entry, n) => {
    if (!kinds.includes(entry.kind) || (state !== null && entry.state !== state)) return;
    const own = new Set(letterPairs(entry.key));
    const shared = pairs.filter((pair) => own.has(pair)).length;
    if (shared === 0) return;
    // The look-up reaches an entry at the first of the key's pairs it holds, entries in number order.
    const first = pairs.findIndex((pair) => own.has(pair));
    scored.push({ entry, dice: (2 * shared) / (pairs.length + own.size), reach: first * entries.length + n });
  });
  scored.sort((a, b) => b.dice - a.dice || b.entry.properties - a.entry.properties || a.reach - b.reach);
  return scored.slice(0, MAX_NEAR).map((s) => s.entry);
}

const entries = generated(20_000);
const index = new PlaceNameIndex(entries);
const KIND_SETS: readonly (readonly PlaceKind[])[] = [KINDS, ["city"], ["county"], ["metro"], ["county", "city"], ["city", "metro"]];

test("near names match the plain reference, entry for entry and in order, with and without a state", () => {
  const keys = ["zzzzzzzzzzzz", "tostring", "a", "e", "san", "ville", "ar bel cor dan el for", "xq"];
  for (let i = 0; i < entries.length; i += 97) {
    const key = entries[i].key;
    const at = 1 + (i % Math.max(1, key.length - 2));
    keys.push(key.slice(0, at) + key.slice(at + 1), key.slice(0, at) + "e" + key.slice(at), `${key} heights`);
  }
  const differing: unknown[] = [];
  let compared = 0;
  keys.forEach((key, i) => {
    for (const state of [null, STATES[i % STATES.length], "ZZ"]) {
      const kinds = KIND_SETS[(i + (state === null ? 0 : 1)) % KIND_SETS.length];
      const expected = referenceNear(entries, key, state, kinds).map((e) => e.code);
      const actual = index.near(key, state, kinds).map((e) => e.code);
      compared++;
      if (JSON.stringify(actual) !== JSON.stringify(expected)) differing.push({ key, state, kinds, expected, actual });
    }
  });
  expect(differing.slice(0, 2)).toEqual([]);
  expect(compared).toBeGreaterThan(600);
});

test("a look-up leaves nothing behind: the same key gives the same near names before and after others", () => {
  const first = index.near("belcor", null, KINDS).map((e) => e.code);
  for (const key of ["arbel", "monnor", "zzz", "sanville"]) index.near(key, "TX", ["city"]);
  expect(index.near("belcor", null, KINDS).map((e) => e.code)).toEqual(first);
  expect(first).toHaveLength(MAX_NEAR);
});

test("in an index of a few names that all tie, every one is a near name, in the order the look-up reaches them", () => {
  // Five places of one name and size in five states: one run of ties as long as the index.
  const few = generated(5).map((e, i) => ({
    ...e,
    kind: "city" as const,
    local: "belcor",
    key: "belcor",
    state: STATES[i],
    properties: 3,
    records: 3,
  }));
  const small = new PlaceNameIndex(few);
  for (const key of ["belcor", "belkor", "corbel"]) {
    expect(small.near(key, null, KINDS).map((e) => e.code)).toEqual(referenceNear(few, key, null, KINDS).map((e) => e.code));
  }
  expect(small.near("belcor", null, KINDS)).toHaveLength(5);
});
