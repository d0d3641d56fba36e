// The companies whose name contains a text, found through a trigram index instead of a LIKE scan
// of every company: a name that matches nothing (a free 404) costs a few posting-list lookups,
// not a pass over the table. The index is built in memory from the snapshot the first time a
// type's names are searched, and dropped with the snapshot's context. Its answers are LIKE's:
// a name contains the text when it does with ASCII letters compared without case (SQLite's
// LIKE folds no other letters), in the order `property_count DESC, id`.
import type { SnapshotContext } from "./snapshot-context";

/** Texts shorter than this have no trigram: their search stays a scan. */
const GRAM = 3;

/** ASCII letters in lower case, other characters as they are (SQLite's LIKE and NOCASE). */
export function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/** Three UTF-16 code units as one number (exact below 2^53). */
function gramAt(text: string, i: number): number {
  return text.charCodeAt(i) * 0x1_0000_0000 + text.charCodeAt(i + 1) * 0x1_0000 + text.charCodeAt(i + 2);
}

export class CompanyNameIndex {
  /** Rowids, folded names and their trigrams' postings, by rank (`property_count DESC, id`). */
  private readonly rowids: Uint32Array;
  private readonly names: string[];
  /** Each trigram's number in `offsets`: its postings are `ranks[offsets[g]..offsets[g + 1]]`. */
  private readonly grams = new Map<number, number>();
  private readonly offsets: Uint32Array;
  private readonly ranks: Uint32Array;

  /**
   * Built in two passes over the names, counting each trigram's names and then filling one
   * array with every posting list: no list per trigram is grown along the way, so building the
   * index for a million-property snapshot's companies takes little more memory than it keeps.
   */
  constructor(rows: readonly { rowid: number; name: string }[]) {
    this.rowids = Uint32Array.from(rows, (r) => r.rowid);
    this.names = rows.map((r) => foldAscii(r.name));
    let counts = new Uint32Array(1024);
    let lastRank = new Int32Array(1024).fill(-1);
    // Calls back once per distinct trigram of each name, with the trigram's number.
    const eachGram = (visit: (g: number, rank: number) => void) => {
      this.names.forEach((name, rank) => {
        for (let i = 0; i + GRAM <= name.length; i++) {
          const gram = gramAt(name, i);
          let g = this.grams.get(gram);
          if (g === undefined) {
            g = this.grams.size;
            this.grams.set(gram, g);
            if (g === counts.length) {
              counts = grown(counts, new Uint32Array(g * 2));
              lastRank = grown(lastRank, new Int32Array(g * 2).fill(-1));
            }
          }
          // A name's repeated trigram is posted once.
          if (lastRank[g] === rank) continue;
          lastRank[g] = rank;
          visit(g, rank);
        }
      });
    };
    eachGram((g) => counts[g]++);
    const n = this.grams.size;
    this.offsets = new Uint32Array(n + 1);
    for (let g = 0; g < n; g++) this.offsets[g + 1] = this.offsets[g] + counts[g];
    this.ranks = new Uint32Array(this.offsets[n]);
    const cursor = this.offsets.slice(0, n);
    lastRank.fill(-1);
    // Ranks go up, so each trigram's list comes out in rank order.
    eachGram((g, rank) => (this.ranks[cursor[g]++] = rank));
  }

  private postings(gram: number): Uint32Array | undefined {
    const g = this.grams.get(gram);
    return g === undefined ? undefined : this.ranks.subarray(this.offsets[g], this.offsets[g + 1]);
  }

  /**
   * The rowids of the first `limit` companies by rank whose name contains `text`, or undefined
   * for a text too short to have a trigram.
   */
  containing(text: string, limit: number): number[] | undefined {
    const folded = foldAscii(text);
    if (folded.length < GRAM) return undefined;
    // Every name that contains the text holds each of its trigrams: the rarest one's list is the
    // shortest that holds them all, and each of its names is checked whole.
    let rarest: Uint32Array | undefined;
    for (let i = 0; i + GRAM <= folded.length; i++) {
      const list = this.postings(gramAt(folded, i));
      if (!list) return [];
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    const out: number[] = [];
    for (const rank of rarest!) {
      if (!this.names[rank].includes(folded)) continue;
      out.push(this.rowids[rank]);
      if (out.length === limit) break;
    }
    return out;
  }
}

function grown<T extends Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

const built = new WeakMap<SnapshotContext, Map<string, CompanyNameIndex>>();

/** The name index of one company type in a snapshot, built on first use. */
export function companyNameIndex(snapshot: SnapshotContext, type: string): CompanyNameIndex {
  let byType = built.get(snapshot);
  if (!byType) built.set(snapshot, (byType = new Map()));
  let index = byType.get(type);
  if (!index) {
    const rows = snapshot.db
      .prepare("SELECT rowid, name FROM companies WHERE company_type = ? ORDER BY property_count DESC, id")
      .all(type) as { rowid: number; name: string }[];
    index = new CompanyNameIndex(rows);
    byType.set(type, index);
  }
  return index;
}
