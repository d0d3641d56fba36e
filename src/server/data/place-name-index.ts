// An index of the names of a snapshot's counties, cities and metros for "did you mean": the
// places whose names share the most letter pairs with a name the snapshot does not hold, the
// places whose names extend it by whole words, and the places of one exact name in every state.
// A refusal is free, so finding suggestions must cost little however many places the snapshot
// holds: each answer reads the postings of the name's own letter pairs and scores a bounded
// number of candidates, never every place.
import type { PlaceKind } from "../../contract/places";
import type { PlaceEntry } from "./place-entry";

/** How many near names (by shared letter pairs) one look-up returns at most. */
export const MAX_NEAR = 100;
/** How many names extending a name by whole words ("new york" -> "new york mills") one look-up returns at most. */
export const MAX_EXTENDING = 200;

/** The padded letter pairs of a key, each once: "austin" -> "^a", "au", "us", "st", "ti", "in", "n$". */
export function letterPairs(key: string): string[] {
  const padded = `^${key}$`;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < padded.length; i++) pairs.add(padded.slice(i, i + 2));
  return [...pairs];
}

export class PlaceNameIndex {
  private readonly entries: PlaceEntry[] = [];
  /** How many distinct letter pairs each entry's key has, by entry number. */
  private readonly pairCounts: number[] = [];
  /** Letter pair -> the numbers of the entries whose keys hold it, in every state. */
  private readonly postings = new Map<string, number[]>();
  /** `${state}|${pair}` -> the same, in one state. */
  private readonly statePostings = new Map<string, number[]>();
  /** Key -> the entries of that key, of every kind and state. */
  private readonly byKey = new Map<string, PlaceEntry[]>();
  /** Every distinct key, sorted, for the names that extend one by whole words. */
  private readonly sortedKeys: string[];
  /** Shared pairs per entry during one look-up, zeroed again after it. */
  private readonly shared: Uint16Array;

  constructor(entries: Iterable<PlaceEntry>) {
    for (const entry of entries) {
      const n = this.entries.length;
      this.entries.push(entry);
      const pairs = letterPairs(entry.key);
      this.pairCounts.push(pairs.length);
      for (const pair of pairs) {
        append(this.postings, pair, n);
        append(this.statePostings, `${entry.state}|${pair}`, n);
      }
      const named = this.byKey.get(entry.key);
      if (named) named.push(entry);
      else this.byKey.set(entry.key, [entry]);
    }
    this.sortedKeys = [...this.byKey.keys()].sort();
    this.shared = new Uint16Array(this.entries.length);
  }

  /** The entries of exactly this key, of every kind and state. */
  named(key: string): readonly PlaceEntry[] {
    return this.byKey.get(key) ?? [];
  }

  /**
   * Up to MAX_NEAR entries of these kinds (in `state`, or in every state for null) whose keys are most alike
   * this one by their shared letter pairs (Dice's coefficient), then by size. Reads only the
   * postings of the key's own pairs.
   */
  near(key: string, state: string | null, kinds: readonly PlaceKind[]): PlaceEntry[] {
    const pairs = letterPairs(key);
    const touched: number[] = [];
    for (const pair of pairs) {
      const list = state === null ? this.postings.get(pair) : this.statePostings.get(`${state}|${pair}`);
      if (!list) continue;
      for (const n of list) {
        if (this.shared[n]++ === 0) touched.push(n);
      }
    }
    // The best MAX_NEAR so far, best first; a sorted insert keeps it without sorting every entry touched.
    const best: { n: number; dice: number }[] = [];
    for (const n of touched) {
      const dice = (2 * this.shared[n]) / (pairs.length + this.pairCounts[n]);
      this.shared[n] = 0;
      if (!kinds.includes(this.entries[n].kind)) continue;
      if (best.length === MAX_NEAR && !this.before(n, dice, best[best.length - 1])) continue;
      let at = best.length;
      while (at > 0 && this.before(n, dice, best[at - 1])) at--;
      best.splice(at, 0, { n, dice });
      if (best.length > MAX_NEAR) best.pop();
    }
    return best.map((b) => this.entries[b.n]);
  }

  /** Up to MAX_EXTENDING entries whose keys are this key and more words ("new york city" for "new york"). */
  extending(key: string): PlaceEntry[] {
    const prefix = `${key} `;
    const found: PlaceEntry[] = [];
    for (let i = lowerBound(this.sortedKeys, prefix); i < this.sortedKeys.length; i++) {
      const k = this.sortedKeys[i];
      if (!k.startsWith(prefix)) break;
      for (const entry of this.byKey.get(k)!) {
        found.push(entry);
        if (found.length === MAX_EXTENDING) return found;
      }
    }
    return found;
  }

  private before(n: number, dice: number, other: { n: number; dice: number }): boolean {
    return dice > other.dice || (dice === other.dice && this.entries[n].properties > this.entries[other.n].properties);
  }
}

function append(map: Map<string, number[]>, key: string, n: number): void {
  const list = map.get(key);
  if (list) list.push(n);
  else map.set(key, [n]);
}

/** The first index of a sorted array whose value is not below `value`. */
export function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
