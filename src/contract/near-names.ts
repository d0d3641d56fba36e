// "Did you mean ...?": the names nearest a misspelt one, by edit distance, for the add-in's
// option names and the service's place suggestions alike.

/**
 * Edit distance with adjacent transpositions ("Huston" and "Houston" are 1 apart). Keeps three
 * rows of the table rather than all of it, since place suggestions compute it for every candidate.
 */
export function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0); // row i - 2
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j); // row i - 1
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

/**
 * The name of `names` nearest `typed` (case-insensitive), if it is near enough to be a slip: at
 * most a third of its letters apart (at least one). Null otherwise.
 */
export function nearestName(typed: string, names: readonly string[]): string | null {
  const t = typed.trim().toLowerCase();
  if (t === "") return null;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const d = editDistance(t, name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.floor(t.length / 3)) ? best : null;
}

/**
 * The input of `names` a caller most likely meant by `typed`, an input name it does not take: a
 * slip (nearestName), else the shortest name `typed` begins (at least three letters of it), so a
 * name typed without its unit or its end (`max_distance` for `max_distance_miles`) is named too.
 */
export function nearestInputName(typed: string, names: readonly string[]): string | null {
  const slip = nearestName(typed, names);
  if (slip) return slip;
  const t = typed.trim().toLowerCase();
  if (t.length < 3) return null;
  const longer = names.filter((name) => name.toLowerCase().startsWith(t));
  return longer.reduce<string | null>((best, name) => (best === null || name.length < best.length ? name : best), null);
}
