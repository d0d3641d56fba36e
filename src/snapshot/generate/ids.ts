// Identifiers: prefix plus a zero-padded base-36 sequence number. Sequential ids keep the
// primary-key index append-only while loading (much faster than random ids at 1M rows), and
// they are stable for a given seed and options.

export function seqId(prefix: string, n: number, width = 7): string {
  return `${prefix}_${n.toString(36).padStart(width, "0")}`;
}
