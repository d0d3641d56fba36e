// The name index's candidates for a suggestion, listed by entry number, are the entries (and in
// the order) a set of entries gathers from its public look-ups: the near names, the same key in
// every state, the keys extending it and the keys it extends in its state; each once.
import Database from "better-sqlite3";
import { placeKey, type PlaceKind } from "../../src/contract/places";
import { PlaceIndex, type PlaceEntry } from "../../src/server/data/place-index";
import type { PlaceNameIndex } from "../../src/server/data/place-name-index";
import { snapshotPath } from "../helpers/service";

function gathered(names: PlaceNameIndex, key: string, state: string | null, kinds: readonly PlaceKind[]): PlaceEntry[] {
  const inState = (e: PlaceEntry) => state === null || e.state === state;
  const found = new Set<PlaceEntry>(names.near(key, state, kinds));
  const add = (entries: Iterable<PlaceEntry>, anyState: boolean) => {
    for (const e of entries) if (kinds.includes(e.kind) && (anyState || inState(e))) found.add(e);
  };
  add(names.named(key), true);
  add(names.extending(key), false);
  const words = key.split(" ");
  for (let i = words.length - 1; i > 0; i--) add(names.named(words.slice(0, i).join(" ")), false);
  return [...found];
}

test("candidates are the entries the near, named and extending look-ups gather, each once, in their order", () => {
  const db = new Database(snapshotPath(), { readonly: true });
  const places = new PlaceIndex(db);
  db.close();
  const names = places.names;
  const cities = places.all.get("city") ?? [];
  const kindSets: PlaceKind[][] = [["county", "city", "metro"], ["city"], ["county", "metro"]];
  let compared = 0;
  let repeated = 0;
  for (let i = 0; i < cities.length; i += Math.max(1, Math.floor(cities.length / 400))) {
    const city = cities[i];
    // The name itself (so the same key and the keys extending it are found), a word cut off, and a typo.
    const words = city.key.split(" ");
    for (const key of [city.key, words.length > 1 ? words[0] : `${city.key} springs`, placeKey(`${city.local}q`)]) {
      for (const state of [null, city.state, "ZZ"]) {
        for (const kinds of kindSets) {
          const listed = names.candidates(key, state, kinds);
          expect(listed.map((n) => names.entries[n])).toEqual(gathered(names, key, state, kinds));
          if (new Set(listed).size !== listed.length) repeated++;
          compared++;
        }
      }
    }
  }
  expect(compared).toBeGreaterThan(1000);
  expect(repeated).toBe(0);
});
