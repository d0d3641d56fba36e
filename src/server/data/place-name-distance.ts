// How many edits apart two place keys are, when that is few enough to matter: "did you mean"
// offers only names at most a share of their letters apart, so the count stops as soon as it
// must pass that bound. A swap of neighbours is one edit, as in contract/near-names.ts.

/** Letter counts reused by every count (one thread): what one key has more of than the other. */
const letters = new Int32Array(65536);

/**
 * At most the edit distance: the letters `a` has more of than `b`, or `b` more of than `a`,
 * whichever are more. An insertion or deletion changes one of the two sums by one, a
 * substitution each by at most one, a swap neither.
 */
function letterDifference(a: string, b: string): number {
  for (let i = 0; i < a.length; i++) letters[a.charCodeAt(i)]++;
  for (let i = 0; i < b.length; i++) letters[b.charCodeAt(i)]--;
  let more = 0;
  let fewer = 0;
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i);
    if (letters[c] > 0) {
      more += letters[c];
      letters[c] = 0;
    }
  }
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i);
    if (letters[c] < 0) fewer -= letters[c];
    letters[c] = 0;
  }
  return Math.max(more, fewer);
}

/** letterBits()'s bit for a space. */
export const SPACE_BIT = 1 << 27;

/** A key's characters as bits: one for each letter a-z, one for any digit, one for a space, one for anything else. */
export function letterBits(key: string): number {
  let bits = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c >= 97 && c <= 122) bits |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) bits |= 1 << 26;
    else if (c === 32) bits |= SPACE_BIT;
    else bits |= 1 << 28;
  }
  return bits;
}

/** Each key's length and letterBits(), in the keys' order: what rules a key out without reading it. */
export function lengthsAndBits(keys: readonly string[]): { lengths: Uint16Array; bits: Int32Array } {
  return { lengths: Uint16Array.from(keys, (key) => key.length), bits: Int32Array.from(keys, letterBits) };
}

/**
 * At most the edit distance of two keys, from their lengths and letterBits() alone: each edit
 * changes the length by at most one, and removes at most one character the other key lacks
 * (and adds at most one). Read from two numbers per key, not from the keys themselves.
 */
export function leastEdits(lengthA: number, bitsA: number, lengthB: number, bitsB: number): number {
  return Math.max(Math.abs(lengthA - lengthB), bitCount(bitsA & ~bitsB), bitCount(bitsB & ~bitsA));
}

function bitCount(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Rows reused by every count (one thread; grown for a longer key). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The edit distance of `a` and `b` (insertions, deletions, substitutions and swaps of
 * neighbours) when it is at most `max`; otherwise some number above `max`.
 *
 * Only the counts within `max` of the diagonal are computed (a count further off it is above
 * `max`, so no path within `max` passes through it); the cells just outside that band hold
 * `max + 1`, for the band's edge to read.
 */
export function distanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max || letterDifference(a, b) > max) return max + 1;
  if (b.length + 2 > rows[0].length) rows = rows.map(() => new Int32Array(2 * (b.length + 2)));
  const over = max + 1;
  let [before, previous, current] = rows;
  for (let j = 0; j <= Math.min(b.length, max); j++) previous[j] = j;
  if (max < b.length) previous[max + 1] = over;
  // Past a row whose every count is above `max`, and the one before it, every later count is too.
  let previousMin = 0;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    current[from - 1] = from === 1 ? Math.min(i, over) : over;
    if (to < b.length) current[to + 1] = over;
    let rowMin = current[from - 1];
    const ai = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max && previousMin > max) return over;
    previousMin = rowMin;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}
