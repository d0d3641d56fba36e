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

/** An entry a look-up touched: its number, likeness, and when it was first touched. */
interface Near {
  n: number;
  dice: number;
  t: number;
}

/** The kinds a name can be of, as bits (a look-up's kinds as one mask). */
const KIND_BITS: Partial<Record<PlaceKind, number>> = { county: 1, city: 2, metro: 4 };

function kindMask(kinds: readonly PlaceKind[]): number {
  let mask = 0;
  for (const kind of kinds) mask |= KIND_BITS[kind] ?? 0;
  return mask;
}

/**
 * Lists of entry numbers under string keys, packed into one array: the numbers under a key are
 * `numbers[starts[k]]` to `numbers[starts[k + 1] - 1]` for the key's position `k`, in the order
 * they were added.
 */
class Postings {
  private readonly positions = new Map<string, number>();
  private readonly starts: Int32Array;
  readonly numbers: Int32Array;

  constructor(lists: Map<string, number[]>) {
    this.starts = new Int32Array(lists.size + 1);
    let total = 0;
    for (const list of lists.values()) total += list.length;
    this.numbers = new Int32Array(total);
    let k = 0;
    let at = 0;
    for (const [key, list] of lists) {
      this.positions.set(key, k);
      this.starts[k++] = at;
      this.numbers.set(list, at);
      at += list.length;
    }
    this.starts[k] = at;
  }

  /** Where the numbers under `key` start and end in `numbers` (empty for a key with none). */
  range(key: string): [number, number] {
    const k = this.positions.get(key);
    return k === undefined ? [0, 0] : [this.starts[k], this.starts[k + 1]];
  }
}

export class PlaceNameIndex {
  private readonly entries: PlaceEntry[] = [];
  /** How many distinct letter pairs each entry's key has, by entry number. */
  private readonly pairCounts: Uint16Array;
  /** Each entry's kind as a bit (KIND_BITS), by entry number. */
  private readonly kindBits: Uint8Array;
  /** Each entry's property count, by entry number (ties of likeness go to the larger). */
  private readonly sizes: Float64Array;
  /** Letter pair -> the numbers of the entries whose keys hold it, in every state. */
  private readonly postings: Postings;
  /** `${state}|${pair}` -> the same, in one state. */
  private readonly statePostings: Postings;
  /** Key -> the entries of that key, of every kind and state. */
  private readonly byKey = new Map<string, PlaceEntry[]>();
  /** Every distinct key, sorted, for the names that extend one by whole words. */
  private readonly sortedKeys: string[];
  /** Shared pairs per entry during one look-up, zeroed again after it. */
  private readonly shared: Uint16Array;
  /** The entries one look-up has touched, in the order it touched them. */
  private readonly touched: Int32Array;
  /** The most letter pairs any key has. */
  private readonly maxPairCount: number;

  constructor(entries: Iterable<PlaceEntry>) {
    const postings = new Map<string, number[]>();
    const statePostings = new Map<string, number[]>();
    const pairCounts: number[] = [];
    for (const entry of entries) {
      const n = this.entries.length;
      this.entries.push(entry);
      const pairs = letterPairs(entry.key);
      pairCounts.push(pairs.length);
      for (const pair of pairs) {
        append(postings, pair, n);
        append(statePostings, `${entry.state}|${pair}`, n);
      }
      const named = this.byKey.get(entry.key);
      if (named) named.push(entry);
      else this.byKey.set(entry.key, [entry]);
    }
    this.postings = new Postings(postings);
    this.statePostings = new Postings(statePostings);
    this.pairCounts = Uint16Array.from(pairCounts);
    this.maxPairCount = pairCounts.reduce((a, b) => Math.max(a, b), 0);
    this.kindBits = Uint8Array.from(this.entries, (e) => KIND_BITS[e.kind] ?? 0);
    this.sizes = Float64Array.from(this.entries, (e) => e.properties);
    this.sortedKeys = [...this.byKey.keys()].sort();
    this.shared = new Uint16Array(this.entries.length);
    this.touched = new Int32Array(this.entries.length);
  }

  /** The entries of exactly this key, of every kind and state. */
  named(key: string): readonly PlaceEntry[] {
    return this.byKey.get(key) ?? [];
  }

  /**
   * Up to MAX_NEAR entries of these kinds (in `state`, or in every state for null) whose keys are most alike
   * this one by their shared letter pairs (Dice's coefficient), then by size, then by which was
   * touched first. Reads only the postings of the key's own pairs, as packed numbers.
   */
  near(key: string, state: string | null, kinds: readonly PlaceKind[]): PlaceEntry[] {
    const pairs = letterPairs(key);
    const lists = state === null ? this.postings : this.statePostings;
    const { numbers } = lists;
    const { shared, touched, pairCounts, kindBits, sizes } = this;
    let count = 0;
    for (const pair of pairs) {
      const [from, to] = lists.range(state === null ? pair : `${state}|${pair}`);
      for (let i = from; i < to; i++) {
        const n = numbers[i];
        if (shared[n]++ === 0) touched[count++] = n;
      }
    }
    const mask = kindMask(kinds);
    const least = this.leastDiceOfBest(pairs.length, count, mask);
    // The entries more alike than the least of the best, and those exactly as alike (the least
    // of the best ties on likeness with them), each in the order touched.
    const above: Near[] = [];
    const tied: Near[] = [];
    for (let t = 0; t < count; t++) {
      const n = touched[t];
      const dice = (2 * shared[n]) / (pairs.length + pairCounts[n]);
      shared[n] = 0;
      if (dice < least || (kindBits[n] & mask) === 0) continue;
      (dice > least ? above : tied).push({ n, dice, t });
    }
    // Of the tied, the largest fill the places left; of equal size, the first touched.
    const left = MAX_NEAR - above.length;
    if (tied.length > left) {
      const cutoff = Float64Array.from(tied, (x) => -sizes[x.n]).sort()[left - 1];
      let larger = 0;
      for (const x of tied) if (-sizes[x.n] < cutoff) larger++;
      let equal = left - larger;
      const kept = tied.filter((x) => -sizes[x.n] < cutoff || (-sizes[x.n] === cutoff && equal-- > 0));
      tied.length = 0;
      tied.push(...kept);
    }
    const best = [...above, ...tied].sort((x, y) => y.dice - x.dice || sizes[y.n] - sizes[x.n] || x.t - y.t);
    return best.map((x) => this.entries[x.n]);
  }

  /**
   * The likeness (Dice's coefficient) of the MAX_NEAR-th most alike entry of the kinds in `mask`
   * among the `count` entries touched (0 when there are no more than that). The likeness of an
   * entry depends only on its shared pairs and its own pair count, so the entries are counted by
   * those two, and the few distinct likenesses ranked, rather than ranking the entries.
   */
  private leastDiceOfBest(queryPairs: number, count: number, mask: number): number {
    const { shared, touched, pairCounts, kindBits } = this;
    const width = this.maxPairCount + 1;
    const tally = new Int32Array((queryPairs + 1) * width);
    let matching = 0;
    for (let t = 0; t < count; t++) {
      const n = touched[t];
      if ((kindBits[n] & mask) === 0) continue;
      tally[shared[n] * width + pairCounts[n]]++;
      matching++;
    }
    if (matching <= MAX_NEAR) return 0;
    const likeness: { dice: number; entries: number }[] = [];
    for (let i = 0; i < tally.length; i++) {
      if (tally[i] > 0) likeness.push({ dice: (2 * Math.floor(i / width)) / (queryPairs + (i % width)), entries: tally[i] });
    }
    likeness.sort((x, y) => y.dice - x.dice);
    let taken = 0;
    for (const l of likeness) {
      taken += l.entries;
      if (taken >= MAX_NEAR) return l.dice;
    }
    return 0;
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
