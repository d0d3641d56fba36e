// The letter-pair postings of the place name index, packed: for every letter pair of the names,
// in every state together and in each state alone, the numbers of the entries whose keys hold
// that pair, in ascending order, as one range of one Int32Array. A look-up turns each of its
// pairs into a number once and finds the range by arithmetic, building no string per pair.
// Each entry's own pairs are kept too, to tell which of a look-up's pairs reaches it first.

/** The padded letter pairs of a key, each once: "austin" -> "^a", "au", "us", "st", "ti", "in", "n$". */
export function letterPairs(key: string): string[] {
  const padded = `^${key}$`;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < padded.length; i++) pairs.add(padded.slice(i, i + 2));
  return [...pairs];
}

export class PairPostings {
  /** Letter pair -> its number. */
  private readonly pairIds = new Map<string, number>();
  /** State -> its slot in `starts` (1 up; slot 0 holds every state). */
  private readonly stateSlots = new Map<string, number>();
  private readonly pairCount: number;
  /** The entries of list `slot * pairCount + pair` are `numbers[starts[k]]` to `numbers[starts[k + 1] - 1]`. */
  private readonly starts: Int32Array;
  readonly numbers: Int32Array;
  /** The pair numbers of entry n are `entryPairs[entryPairStarts[n]]` to `entryPairs[entryPairStarts[n + 1] - 1]`. */
  private readonly entryPairs: Int32Array;
  private readonly entryPairStarts: Int32Array;

  /** One item per entry, in entry-number order: its key's letter pairs and its state. */
  constructor(entries: readonly { pairs: readonly string[]; state: string }[]) {
    this.entryPairStarts = new Int32Array(entries.length + 1);
    let total = 0;
    for (const [n, { pairs, state }] of entries.entries()) {
      for (const pair of pairs) if (!this.pairIds.has(pair)) this.pairIds.set(pair, this.pairIds.size);
      if (!this.stateSlots.has(state)) this.stateSlots.set(state, this.stateSlots.size + 1);
      total += pairs.length;
      this.entryPairStarts[n + 1] = total;
    }
    this.pairCount = this.pairIds.size;
    this.entryPairs = new Int32Array(total);
    const lists = (this.stateSlots.size + 1) * this.pairCount;
    // Count each list, turn the counts into starts, then place every entry in its lists in order.
    const counts = new Int32Array(lists + 1);
    entries.forEach(({ pairs, state }, n) => {
      const slot = this.stateSlots.get(state)!;
      let at = this.entryPairStarts[n];
      for (const pair of pairs) {
        const id = this.pairIds.get(pair)!;
        this.entryPairs[at++] = id;
        counts[id]++;
        counts[slot * this.pairCount + id]++;
      }
    });
    this.starts = new Int32Array(lists + 1);
    for (let k = 0; k < lists; k++) this.starts[k + 1] = this.starts[k] + counts[k];
    this.numbers = new Int32Array(this.starts[lists]);
    const next = this.starts.slice(0, lists);
    entries.forEach(({ state }, n) => {
      const slot = this.stateSlots.get(state)!;
      for (let at = this.entryPairStarts[n]; at < this.entryPairStarts[n + 1]; at++) {
        const id = this.entryPairs[at];
        this.numbers[next[id]++] = n;
        this.numbers[next[slot * this.pairCount + id]++] = n;
      }
    });
  }

  /** How many distinct letter pairs the names hold. */
  get pairs(): number {
    return this.pairCount;
  }

  /** A pair's number, or -1 for a pair no name holds. */
  pairId(pair: string): number {
    return this.pairIds.get(pair) ?? -1;
  }

  /** The slot of a state's lists (0: every state), or -1 for a state no name is in. */
  slot(state: string | null): number {
    return state === null ? 0 : (this.stateSlots.get(state) ?? -1);
  }

  /** Where the list of a slot and a pair starts in `numbers`; it ends where `listStart(slot, pair + 1)` starts. */
  listStart(slot: number, pair: number): number {
    return this.starts[slot * this.pairCount + pair];
  }

  /** The least of `positions[pair]` over entry n's pairs: which of a look-up's pairs (by position) it holds first. */
  firstPosition(n: number, positions: Int32Array): number {
    let first = Infinity;
    for (let at = this.entryPairStarts[n]; at < this.entryPairStarts[n + 1]; at++) {
      const p = positions[this.entryPairs[at]];
      if (p < first) first = p;
    }
    return first;
  }
}
