// An index of the names of a snapshot's counties, cities and metros for "did you mean": the
// places whose names share the most letter pairs with a name the snapshot does not hold, the
// places whose names extend it by whole words, and the places of one exact name in every state.
// A refusal is free, so finding suggestions must cost little however many places the snapshot
// holds: each answer reads the postings of the name's own letter pairs and scores a bounded
// number of candidates, never every place.
import type { PlaceKind } from "../../contract/places";
import type { PlaceEntry } from "./place-entry";
import { letterPairs, PairPostings } from "./place-name-postings";
import { lengthsAndBits } from "./place-name-distance";

/**
 * How many near names (by shared letter pairs) one look-up returns at most. They are only
 * candidates, scored by edit distance afterwards (place-suggestions.ts), and the names a typo
 * was meant to be share most of its letter pairs, so they rank among the first few dozen; each
 * candidate more costs every refusal its ranking and scoring, and refusals are free.
 */
export const MAX_NEAR = 60;
/** How many names extending a name by whole words ("new york" -> "new york mills") one look-up returns at most. */
export const MAX_EXTENDING = 200;
/** The most cells a look-up ranks by insertion sort (rankLikenesses). */
const INSERTION_SORT_MAX = 64;
/** A pair's position when the look-up's key does not hold it. */
const MISSING = 0x7fffffff;

export { letterPairs };

/** The kinds a name can be of, as bits (a look-up's kinds as one mask). */
const KIND_BITS: Partial<Record<PlaceKind, number>> = { county: 1, city: 2, metro: 4 };

function kindMask(kinds: readonly PlaceKind[]): number {
  let mask = 0;
  for (const kind of kinds) mask |= KIND_BITS[kind] ?? 0;
  return mask;
}

export class PlaceNameIndex {
  /** The entries by number: a look-up works with the numbers, and reads an entry only to offer it. */
  readonly entries: PlaceEntry[] = [];
  /** Each entry's key, by entry number. */
  readonly keys: string[] = [];
  /**
   * Each entry's key length and letterBits(), by entry number: enough to rule most candidates out
   * without reading their keys, which lie all over the heap (place-suggestions.ts).
   */
  readonly keyLengths: Uint16Array;
  readonly keyBits: Int32Array;
  /** How many distinct letter pairs each entry's key has, by entry number. */
  private readonly pairCounts: Uint16Array;
  /** The fewest and the most letter pairs any key has. */
  private readonly minPairCount: number;
  private readonly maxPairCount: number;
  /** Each entry's kind as a bit (KIND_BITS), by entry number. */
  private readonly kindBits: Uint8Array;
  /** Each entry's state as its postings slot (place-name-postings.ts), by entry number. */
  private readonly stateSlots: Uint16Array;
  /** Each entry's property count, by entry number (ties of likeness go to the larger). */
  private readonly sizes: Float64Array;
  /** Letter pair -> the numbers of the entries whose keys hold it, in every state and in each state. */
  private readonly postings: PairPostings;
  /** Key -> the numbers of the entries of that key, of every kind and state. */
  private readonly byKey = new Map<string, number[]>();
  /** Every distinct key, sorted, for the names that extend one by whole words. */
  private readonly sortedKeys: string[];
  /** Shared pairs per entry during one look-up, zeroed again after it. */
  private readonly shared: Uint16Array;
  /** The entries one look-up reaches, as it gathers them. */
  private readonly gathered: Int32Array;
  /** The gathered entries exactly as alike as the least of the best, during one look-up. */
  private readonly tiedScratch: Int32Array;
  /** The near names one look-up chooses, before they are put in order. */
  private readonly chosenScratch = new Int32Array(MAX_NEAR);
  /** Pair number -> its position among a look-up's pairs (MISSING for none), restored after it. */
  private readonly positions: Int32Array;
  /** Entries per cell (shared pairs and pair count) during one look-up, zeroed again after it. */
  private tally = new Int32Array(0);
  /** The rank of each cell's likeness during one look-up (0: the most alike). */
  private cellRanks = new Int32Array(0);
  /** The cells one look-up's entries fill, as found, then most alike first (grown with `tally`). */
  private cellList = new Int32Array(0);
  /** Each filled cell's likeness during one look-up (grown with `tally`). */
  private cellLikeness = new Float64Array(0);
  /**
   * Numbers sorted during one look-up (sizes, reaches, packed orders: at most one per entry,
   * and the reaches of a run of near names beside the near names' packed orders).
   * Views of it are sorted rather than new arrays: an array of more than a few numbers has its
   * own buffer outside the heap, and a look-up would allocate and free several.
   */
  private readonly sortScratch: Float64Array;
  /** Each entry's rank by size, by entry number (0: the largest; equal sizes, equal ranks). */
  private readonly sizeRanks: Int32Array;
  private readonly sizeRankCount: number;
  /** The look-up that last listed each entry among its candidates (`candidates` lists each once). */
  private readonly listedBy: Uint32Array;
  private lookups = 0;

  constructor(entries: Iterable<PlaceEntry>) {
    const paired: { pairs: string[]; state: string }[] = [];
    for (const entry of entries) {
      const n = this.entries.length;
      this.entries.push(entry);
      this.keys.push(entry.key);
      paired.push({ pairs: letterPairs(entry.key), state: entry.state });
      const named = this.byKey.get(entry.key);
      if (named) named.push(n);
      else this.byKey.set(entry.key, [n]);
    }
    this.postings = new PairPostings(paired);
    this.pairCounts = Uint16Array.from(paired, (p) => p.pairs.length);
    ({ lengths: this.keyLengths, bits: this.keyBits } = lengthsAndBits(this.keys));
    this.minPairCount = paired.reduce((least, p) => Math.min(least, p.pairs.length), Infinity);
    this.maxPairCount = paired.reduce((most, p) => Math.max(most, p.pairs.length), 0);
    this.kindBits = Uint8Array.from(this.entries, (e) => KIND_BITS[e.kind] ?? 0);
    this.stateSlots = Uint16Array.from(this.entries, (e) => this.postings.slot(e.state));
    this.listedBy = new Uint32Array(this.entries.length);
    this.sizes = Float64Array.from(this.entries, (e) => e.properties);
    const largestFirst = Float64Array.from(this.sizes, (size) => -size).sort();
    this.sizeRanks = Int32Array.from(this.sizes, (size) => lowerBound(largestFirst, -size));
    this.sizeRankCount = this.entries.length;
    this.sortedKeys = [...this.byKey.keys()].sort();
    this.shared = new Uint16Array(this.entries.length);
    this.gathered = new Int32Array(2 * this.entries.length);
    this.tiedScratch = new Int32Array(this.entries.length);
    this.sortScratch = new Float64Array(2 * this.entries.length);
    this.positions = new Int32Array(this.postings.pairs).fill(MISSING);
  }

  /** The entries of exactly this key, of every kind and state. */
  named(key: string): readonly PlaceEntry[] {
    return this.numbered(this.byKey.get(key) ?? []);
  }

  private numbered(numbers: readonly number[]): PlaceEntry[] {
    return numbers.map((n) => this.entries[n]);
  }

  /** Whether entry n is of a kind in `mask` (kindMask). */
  ofKinds(n: number, mask: number): boolean {
    return (this.kindBits[n] & mask) !== 0;
  }

  /** Whether entry n is of this kind. */
  isKind(n: number, kind: PlaceKind): boolean {
    return this.kindBits[n] === (KIND_BITS[kind] ?? -1);
  }

  /** Whether entry n lies in the state of this postings slot (`slot(state)`). */
  inSlot(n: number, slot: number): boolean {
    return this.stateSlots[n] === slot;
  }

  /** A state's postings slot (0 for null: every state; -1 for a state no name is in). */
  slot(state: string | null): number {
    return this.postings.slot(state);
  }

  /**
   * The numbers of the entries of these kinds worth scoring as suggestions for a key, each once,
   * in this order: the near names (near()), the entries of exactly this key in every state, the
   * entries extending it by whole words (extending()) and those of the keys it extends ("new
   * york" and "new" for "new york city"), these last two in `state` when one is given.
   */
  candidates(key: string, state: string | null, kinds: readonly PlaceKind[]): number[] {
    const mask = kindMask(kinds);
    const slot = this.postings.slot(state);
    const { listedBy } = this;
    // A new mark for this look-up; once the marks run out, every entry is unmarked again.
    if (this.lookups === 0xffffffff) {
      listedBy.fill(0);
      this.lookups = 0;
    }
    const look = ++this.lookups;
    const found: number[] = [];
    const add = (numbers: readonly number[], anyState: boolean) => {
      for (const n of numbers) {
        if (listedBy[n] === look || !this.ofKinds(n, mask) || !(anyState || slot === 0 || this.stateSlots[n] === slot)) continue;
        listedBy[n] = look;
        found.push(n);
      }
    };
    add(this.nearNumbers(key, state, mask), true);
    add(this.byKey.get(key) ?? [], true);
    add(this.extendingNumbers(key), false);
    const words = key.split(" ");
    for (let i = words.length - 1; i > 0; i--) add(this.byKey.get(words.slice(0, i).join(" ")) ?? [], false);
    return found;
  }

  /**
   * Up to MAX_NEAR entries of these kinds (in `state`, or in every state for null) whose keys are
   * most alike this one by their shared letter pairs (Dice's coefficient), then by size, then by
   * which the key's pairs reach first (the first of its pairs an entry holds, then the entry's
   * number): the first MAX_NEAR, in that order, of the entries that share a pair with it.
   *
   * Most entries a common pair reaches share few of the key's pairs, and sharing few pairs is
   * less alike than the MAX_NEAR-th when MAX_NEAR entries share more pairs and are more alike. So
   * the count of shared pairs notes the entries as they reach two pairs and as they reach a
   * deeper count (deepShare(): three, or more for a long key); the look-up ranks the ones that
   * share that many or more, then (if those do not decide) three or more, then two or more, and
   * goes back over the postings for every entry reached only if none decides.
   */
  near(key: string, state: string | null, kinds: readonly PlaceKind[]): PlaceEntry[] {
    return this.numbered(this.nearNumbers(key, state, kindMask(kinds)));
  }

  /** near(), as entry numbers, for the kinds in `mask`. */
  private nearNumbers(key: string, state: string | null, mask: number): number[] {
    const pairs = letterPairs(key);
    const q = pairs.length;
    const { postings, shared, gathered, positions } = this;
    const { numbers } = postings;
    const slot = postings.slot(state);
    const ids: number[] = [];
    // Entries reaching `deep` shared pairs go into the front half of `gathered`, those reaching two
    // into its back half (an entry reaching `deep` is in both).
    const deep = deepShare(q);
    const last = gathered.length - 1;
    let front = 0;
    let two = 0;
    let read = 0;
    for (let position = 0; position < q; position++) {
      const id = slot < 0 ? -1 : postings.pairId(pairs[position]);
      if (id < 0) continue;
      ids.push(id);
      positions[id] = position;
      const to = postings.listStart(slot, id + 1);
      read += to - postings.listStart(slot, id);
      // Without branches: which entries reach two or `deep` shared pairs follows no pattern a
      // branch predictor could learn, so each entry is written at both ends and an end moves on
      // only when the entry reached its count.
      for (let i = postings.listStart(slot, id); i < to; i++) {
        const n = numbers[i];
        const before = shared[n]++;
        gathered[last - two] = n;
        two += ((before ^ 1) - 1) >>> 31;
        gathered[front] = n;
        front += ((before ^ (deep - 1)) - 1) >>> 31;
      }
    }
    // How alike an entry sharing at most `s` pairs can be: it has at least `s` pairs, and at least the fewest any key has.
    const atMost = (s: number) => (2 * s) / (q + Math.max(s, this.minPairCount));
    let best = front < MAX_NEAR ? null : this.mostAlike(front, q, mask, atMost(deep - 1));
    // Then, after those sharing more, the ones sharing three pairs or more (when `deep` is more),
    // then two: the front always holds the entries sharing at least `ranked` pairs.
    let ranked = deep;
    for (let least = 3; least >= 2 && !best; least--) {
      if (least >= ranked) continue;
      for (let at = gathered.length - two; at < gathered.length; at++) {
        const s = shared[gathered[at]];
        if (s >= least && s < ranked) gathered[front++] = gathered[at];
      }
      ranked = least;
      if (front >= MAX_NEAR) best = this.mostAlike(front, q, mask, atMost(least - 1));
    }
    if (!best) {
      // And the ones sharing one pair only, each found in one list.
      let all = front;
      for (const id of ids) {
        const to = postings.listStart(slot, id + 1);
        for (let i = postings.listStart(slot, id); i < to; i++) if (shared[numbers[i]] === 1) gathered[all++] = numbers[i];
      }
      best = this.mostAlike(all, q, mask, -1)!;
    }
    // Zeroed by the lists read when they are few, else at once.
    if (read < shared.length >> 4) for (const id of ids) for (let i = postings.listStart(slot, id); i < postings.listStart(slot, id + 1); i++) shared[numbers[i]] = 0;
    else shared.fill(0);
    for (const id of ids) positions[id] = MISSING;
    return best;
  }

  /**
   * The first MAX_NEAR (or fewer) of the first `count` gathered entries of the kinds in `mask`,
   * in the order near() gives, or null when the MAX_NEAR-th of them is not more alike than
   * `above` (so entries not gathered may belong among them).
   */
  private mostAlike(count: number, q: number, mask: number, above: number): number[] | null {
    const { shared, gathered, pairCounts, kindBits, sizes } = this;
    const least = this.rankLikenesses(count, q, mask);
    if (least <= above) return null;
    // The entries more alike than the least of the best, and (in a scratch array, as they may be
    // many) those exactly as alike.
    const chosen = this.chosenScratch;
    let chosenCount = 0;
    const tied = this.tiedScratch;
    let tiedCount = 0;
    for (let t = 0; t < count; t++) {
      const n = gathered[t];
      if ((kindBits[n] & mask) === 0) continue;
      const dice = (2 * shared[n]) / (q + pairCounts[n]);
      if (dice > least) chosen[chosenCount++] = n;
      else if (dice === least) tied[tiedCount++] = n;
    }
    // Of the tied, the largest fill the places left; of equal size, the first reached.
    const left = MAX_NEAR - chosenCount;
    if (tiedCount <= left) {
      for (let i = 0; i < tiedCount; i++) chosen[chosenCount++] = tied[i];
    } else {
      const tiedSizes = this.sortScratch.subarray(0, tiedCount);
      for (let i = 0; i < tiedCount; i++) tiedSizes[i] = sizes[tied[i]];
      const cutoff = tiedSizes.sort()[tiedCount - left];
      let equal = 0;
      for (let i = 0; i < tiedCount; i++) {
        const n = tied[i];
        if (sizes[n] > cutoff) chosen[chosenCount++] = n;
        // (The sizes are read from `sizes` from here on: `sortScratch` now gathers the reaches.)
        else if (sizes[n] === cutoff) this.sortScratch[equal++] = this.reach(n);
      }
      const reaches = this.sortScratch.subarray(0, equal).sort();
      for (let i = 0; chosenCount < MAX_NEAR; i++) chosen[chosenCount++] = reaches[i] % this.entries.length;
    }
    return this.inOrder(chosen, chosenCount);
  }

  /**
   * Entries (ranked by rankLikenesses) in near()'s order: most alike, then largest, then first
   * reached. Each is packed into one number, its likeness's rank, its size's rank, then its
   * number, so a typed sort orders them without calling back; the few runs as alike and as large
   * are then put in the order the look-up reaches them.
   */
  private inOrder(entries: Int32Array, count: number): number[] {
    const { shared, pairCounts, sizeRanks, cellRanks } = this;
    const total = this.entries.length;
    const width = this.maxPairCount + 1;
    const keys = this.sortScratch.subarray(0, count);
    for (let i = 0; i < count; i++) {
      const n = entries[i];
      keys[i] = (cellRanks[shared[n] * width + pairCounts[n]] * this.sizeRankCount + sizeRanks[n]) * total + n;
    }
    keys.sort();
    const ordered = new Array<number>(keys.length);
    for (let i = 0; i < keys.length; i++) ordered[i] = keys[i] % total | 0;
    for (let from = 0; from < ordered.length; ) {
      let to = from + 1;
      while (to < ordered.length && Math.floor(keys[to] / total) === Math.floor(keys[from] / total)) to++;
      if (to - from > 1) {
        // The run's reaches, sorted in the scratch array past the keys.
        const run = this.sortScratch.subarray(keys.length, keys.length + to - from);
        for (let i = from; i < to; i++) run[i - from] = this.reach(ordered[i]);
        run.sort();
        for (let i = from; i < to; i++) ordered[i] = run[i - from] % total | 0;
      }
      from = to;
    }
    return ordered;
  }

  /** When a look-up's pairs reach entry n: the position of the first of them it holds, then its number. */
  private reach(n: number): number {
    return this.postings.firstPosition(n, this.positions) * this.entries.length + n;
  }

  /**
   * The likeness (Dice's coefficient) of the MAX_NEAR-th most alike of the first `count`
   * gathered entries of the kinds in `mask` (0 when there are fewer), and the rank of every
   * likeness among them in `cellRanks`. The likeness of an entry depends only on its shared
   * pairs and its own pair count (its cell), so the entries are counted by cell, and the few
   * distinct likenesses ranked, rather than ranking the entries.
   */
  private rankLikenesses(count: number, q: number, mask: number): number {
    const { shared, gathered, pairCounts, kindBits } = this;
    const width = this.maxPairCount + 1;
    if (this.tally.length < (q + 1) * width) {
      this.tally = new Int32Array((q + 1) * width);
      this.cellRanks = new Int32Array((q + 1) * width);
      this.cellList = new Int32Array((q + 1) * width);
      this.cellLikeness = new Float64Array((q + 1) * width);
    }
    const { tally, cellRanks, cellLikeness } = this;
    let cells = 0;
    let matching = 0;
    for (let t = 0; t < count; t++) {
      const n = gathered[t];
      if ((kindBits[n] & mask) === 0) continue;
      const cell = shared[n] * width + pairCounts[n];
      if (tally[cell]++ === 0) {
        this.cellList[cells++] = cell;
        cellLikeness[cell] = (2 * shared[n]) / (q + pairCounts[n]);
      }
      matching++;
    }
    // The cells, most alike first; equal likenesses (as 2·3/15 and 2·4/20) share the rank of the first.
    // They are a few dozen for most names (shared pairs by pair count), which an insertion sort
    // orders without a call per comparison; a very long name may fill many more.
    const order = this.cellList.subarray(0, cells);
    if (cells > INSERTION_SORT_MAX) order.sort((a, b) => cellLikeness[b] - cellLikeness[a]);
    else {
      for (let k = 1; k < cells; k++) {
        const cell = order[k];
        const likeness = cellLikeness[cell];
        let j = k - 1;
        for (; j >= 0 && cellLikeness[order[j]] < likeness; j--) order[j + 1] = order[j];
        order[j + 1] = cell;
      }
    }
    let least = 0;
    let reached = 0;
    for (let k = 0, first = 0; k < cells; k++) {
      if (k > 0 && cellLikeness[order[k]] !== cellLikeness[order[k - 1]]) first = k;
      cellRanks[order[k]] = first;
      // The first likeness (most alike first) that MAX_NEAR entries reach.
      reached += tally[order[k]];
      if (least === 0 && matching >= MAX_NEAR && reached >= MAX_NEAR) least = cellLikeness[order[k]];
    }
    for (let k = 0; k < cells; k++) tally[order[k]] = 0;
    return least;
  }

  /** Up to MAX_EXTENDING entries whose keys are this key and more words ("new york city" for "new york"). */
  extending(key: string): PlaceEntry[] {
    return this.numbered(this.extendingNumbers(key));
  }

  private extendingNumbers(key: string): number[] {
    const prefix = `${key} `;
    const found: number[] = [];
    for (let i = lowerBound(this.sortedKeys, prefix); i < this.sortedKeys.length; i++) {
      const k = this.sortedKeys[i];
      if (!k.startsWith(prefix)) break;
      for (const n of this.byKey.get(k)!) {
        found.push(n);
        if (found.length === MAX_EXTENDING) return found;
      }
    }
    return found;
  }
}

/**
 * How many shared letter pairs a look-up first ranks by: three, or a quarter of a long key's
 * pairs and one more. A long key's most alike names share many of its pairs, and the many
 * names sharing only its common pairs ("ll", "e$") need not be ranked at all.
 */
function deepShare(pairs: number): number {
  return Math.max(3, (pairs >> 2) + 1);
}

/** The first index of a sorted array whose value is not below `value` (how many values are below it). */
export function lowerBound<T extends string | number>(sorted: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

