// The name index and the bounded edit count give the same "did you mean" as scoring the
// candidates of a plain index in full: a reference written the plain way (postings as lists,
// every candidate's edit distance counted to the end) is compared with the service's answer on
// thousands of misspellings of the test snapshot's own place names.
import Database from "better-sqlite3";
import { parsePlace, placeKey, PLACE_KINDS, type Place, type PlaceKind } from "../../src/contract/places";
import { editDistance } from "../../src/contract/near-names";
import { PlaceIndex, type PlaceEntry } from "../../src/server/data/place-index";
import { letterPairs, lowerBound, MAX_EXTENDING, MAX_NEAR } from "../../src/server/data/place-name-index";
import { MAX_SUGGESTIONS, suggestPlaces } from "../../src/server/data/place-suggestions";
import { snapshotPath } from "../helpers/service";

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The names of counties, cities and metros with plain postings lists and a sorted insert. */
class ReferenceNames {
  private readonly entries: PlaceEntry[] = [];
  private readonly pairCounts: number[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly byKey = new Map<string, PlaceEntry[]>();
  private readonly sortedKeys: string[];

  constructor(entries: PlaceEntry[]) {
    for (const entry of entries) {
      const n = this.entries.push(entry) - 1;
      const pairs = letterPairs(entry.key);
      this.pairCounts.push(pairs.length);
      for (const pair of pairs) for (const key of [pair, `${entry.state}|${pair}`]) push(this.postings, key, n);
      push(this.byKey, entry.key, entry);
    }
    this.sortedKeys = [...this.byKey.keys()].sort();
  }

  named(key: string): PlaceEntry[] {
    return this.byKey.get(key) ?? [];
  }

  near(key: string, state: string | null, kinds: readonly PlaceKind[]): PlaceEntry[] {
    const pairs = letterPairs(key);
    const shared = new Map<number, number>();
    for (const pair of pairs)
      for (const n of this.postings.get(state === null ? pair : `${state}|${pair}`) ?? []) shared.set(n, (shared.get(n) ?? 0) + 1);
    const best: { n: number; dice: number }[] = [];
    const before = (n: number, dice: number, o: { n: number; dice: number }) =>
      dice > o.dice || (dice === o.dice && this.entries[n].properties > this.entries[o.n].properties);
    for (const [n, s] of shared) {
      const dice = (2 * s) / (pairs.length + this.pairCounts[n]);
      if (!kinds.includes(this.entries[n].kind)) continue;
      if (best.length === MAX_NEAR && !before(n, dice, best[MAX_NEAR - 1])) continue;
      let at = best.length;
      while (at > 0 && before(n, dice, best[at - 1])) at--;
      best.splice(at, 0, { n, dice });
      if (best.length > MAX_NEAR) best.pop();
    }
    return best.map((b) => this.entries[b.n]);
  }

  extending(key: string): PlaceEntry[] {
    const found: PlaceEntry[] = [];
    for (let i = lowerBound(this.sortedKeys, `${key} `); i < this.sortedKeys.length && this.sortedKeys[i].startsWith(`${key} `); i++) {
      found.push(...this.byKey.get(this.sortedKeys[i])!);
    }
    return found.slice(0, MAX_EXTENDING);
  }
}

function similarity(query: string, candidate: string): number {
  if (query === candidate) return 1;
  if (candidate.startsWith(`${query} `)) return 0.92;
  if (query.startsWith(`${candidate} `)) return 0.85;
  const longest = Math.max(query.length, candidate.length);
  if (Math.abs(query.length - candidate.length) > longest / 2) return 0;
  return 1 - editDistance(query, candidate) / longest;
}

/** "Did you mean" for a county, city or metro name, every candidate scored in full. */
function referenceSuggestions(index: PlaceIndex, names: ReferenceNames, place: Place, accepted: readonly PlaceKind[]): string[] {
  if (place.kind === "zip" || place.kind === "state" || !("name" in place)) throw new Error("the reference takes named places only");
  const wanted = { key: placeKey(place.name), state: place.state };
  const scored: { entry: PlaceEntry; score: number }[] = [];
  if (accepted.includes("state") && wanted.state === null) {
    for (const entry of index.all.get("state") ?? []) {
      const score = similarity(wanted.key, entry.key);
      if (score >= 0.6) scored.push({ entry, score });
    }
  }
  const kinds: readonly PlaceKind[] = accepted.filter((kind) => kind !== "zip" && kind !== "state");
  if (kinds.length > 0) {
    const inState = (e: PlaceEntry) => wanted.state === null || e.state === wanted.state;
    const found = new Set<PlaceEntry>(names.near(wanted.key, wanted.state, kinds));
    const add = (entries: Iterable<PlaceEntry>, anyState: boolean) => {
      for (const e of entries) if (kinds.includes(e.kind) && (anyState || inState(e))) found.add(e);
    };
    add(names.named(wanted.key), true);
    add(names.extending(wanted.key), false);
    const words = wanted.key.split(" ");
    for (let i = words.length - 1; i > 0; i--) add(names.named(words.slice(0, i).join(" ")), false);
    for (const entry of found) {
      let score = similarity(wanted.key, entry.key);
      if (!inState(entry)) score = score === 1 ? 0.9 : 0;
      if (entry.kind !== place.kind) score -= 0.1;
      if (score >= 0.6) scored.push({ entry, score });
    }
  }
  scored.sort((a, b) => b.score - a.score || b.entry.properties - a.entry.properties || b.entry.records - a.entry.records);
  const out: string[] = [];
  for (const s of scored) {
    if (!out.includes(s.entry.name)) out.push(s.entry.name);
    if (out.length === MAX_SUGGESTIONS) break;
  }
  return out;
}

/** Misspellings of a name: a letter dropped, doubled, changed, two neighbours swapped, a word cut. */
function misspellings(name: string, i: number): string[] {
  const at = 1 + (i % Math.max(1, name.length - 2));
  const out = [
    name.slice(0, at) + name.slice(at + 1),
    name.slice(0, at) + name[at] + name.slice(at),
    name.slice(0, at) + (name[at] === "e" ? "a" : "e") + name.slice(at + 1),
    name.slice(0, at - 1) + name[at] + name[at - 1] + name.slice(at + 1),
  ];
  const words = name.split(" ");
  if (words.length > 1) out.push(words.slice(0, -1).join(" "), `${name} Heights`);
  return out;
}

let index: PlaceIndex;
let reference: ReferenceNames;
let db: Database.Database;

beforeAll(() => {
  db = new Database(snapshotPath(), { readonly: true });
  index = new PlaceIndex(db);
  reference = new ReferenceNames((["county", "city", "metro"] as const).flatMap((kind) => index.all.get(kind) ?? []));
});
afterAll(() => db.close());

const ACCEPTED: readonly (readonly PlaceKind[])[] = [
  PLACE_KINDS,
  ["city"],
  ["county", "city"],
  ["metro"],
  ["state", "county", "city", "zip"],
];

test("misspelt county, city and metro names get the suggestions of the plain index scored in full", () => {
  const named = (["county", "city", "metro"] as const).flatMap((kind) => index.all.get(kind) ?? []);
  const states = [...new Set(named.map((e) => e.state))];
  const texts: string[] = [
    "zzzzzzzzzzzz",
    "toString",
    "constructor",
    "__proto__",
    "Sna Antonio",
    "Huston, TX",
    "New Yrok",
    "Northwest Riverside Heights",
  ];
  // Every 32nd place: its misspellings alone, in its state, in another state, and as a metro.
  named.forEach((e, i) => {
    if (i % 32 !== 0) return;
    for (const typo of misspellings(e.local, i)) {
      texts.push(typo, `${typo}, ${e.state}`, `${typo}, ${states[(i + 1) % states.length]}`, `${typo}, ${e.state} metro`);
    }
  });
  let compared = 0;
  let offered = 0;
  const differing: unknown[] = [];
  texts.forEach((text, i) => {
    let place: Place;
    try {
      place = parsePlace(text);
    } catch {
      return;
    }
    if (place.kind === "zip" || place.kind === "state" || !("name" in place)) return;
    const accepted = ACCEPTED[i % ACCEPTED.length];
    const expected = referenceSuggestions(index, reference, place, accepted);
    const actual = suggestPlaces(index, place, accepted);
    compared++;
    if (expected.length > 0) offered++;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) differing.push({ text, accepted, expected, actual });
  });
  expect(differing.slice(0, 5)).toEqual([]);
  // Enough misspellings were compared, and most of them were offered something.
  expect(compared).toBeGreaterThan(2000);
  expect(offered).toBeGreaterThan(compared / 2);
});
