// Free text of a property search as a query of the snapshot's full-text index.
/**
 * Turns free text into a safe FTS5 query: every word must match, as a whole word; a word the
 * user ends with `*` matches as a prefix ("glen*"). Prefixes are opt-in because a prefix of a
 * common word expands to a huge posting list and makes a search 10x slower.
 */
export function ftsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+\*?/gu);
  if (!words || words.length === 0) return null;
  return words
    .map((w) => (w.endsWith("*") && w.length > 2 ? `"${w.slice(0, -1)}"*` : `"${w.replace(/\*$/, "")}"`))
    .join(" ");
}
