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

/** Rows reused by every count (one thread; grown for a longer key). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * The edit distance of `a` and `b` (insertions, deletions, substitutions and swaps of
 * neighbours) when it is at most `max`; otherwise some number above `max`.
 */
export function distanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max || letterDifference(a, b) > max) return max + 1;
  if (b.length + 1 > rows[0].length) rows = rows.map(() => new Int32Array(2 * (b.length + 1)));
  let [before, previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  // Past a row whose every count is above `max`, and the one before it, every later count is too.
  let previousMin = 0;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max && previousMin > max) return max + 1;
    previousMin = rowMin;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}
