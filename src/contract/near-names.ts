// "Did you mean ...?": the names nearest a misspelt one, by edit distance, for the add-in's
// option names and the service's place suggestions alike.

/** Edit distance with adjacent transpositions ("Huston" and "Houston" are 1 apart). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
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
