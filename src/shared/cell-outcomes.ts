// The latest outcome of the PROP formula in each cell, by the cell's address. After Refresh
// recalculates, Excel tells the pane only that a cell shows "#N/A", not the message the
// function gave; the functions run in the pane's runtime (the shared runtime), so they leave
// their outcome here and the pane reads why each cell failed.
//
// Bounded: a workbook can hold more PROP formulas than anyone reads failures for, so only the
// most recently calculated addresses are kept, least recently recorded first out.
//
// A value's outcome also keeps its provenance (cell-provenance.ts): the function and the
// requests it answered from, which the pane's "Explain" shows and "Freeze as values" writes.
import type { CellProvenance } from "./cell-provenance";

/** A successful call's function ("PROP.MARKET", as Excel names it) and the requests it answered from. */
export interface CellSourceRecord extends CellProvenance {
  functionName: string | null;
}

export type CellOutcome =
  { ok: false; code: string; message: string; at: number } | { ok: true; at: number; provenance?: CellSourceRecord };

export const DEFAULT_MAX_ADDRESSES = 5000;

export class CellOutcomes {
  // A Map iterates in insertion order: re-inserting on record keeps the oldest first.
  private readonly outcomes = new Map<string, CellOutcome>();

  constructor(
    private readonly maxAddresses: number = DEFAULT_MAX_ADDRESSES,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.outcomes.size;
  }

  /** The formula at `address` failed with this Excel error code ("#N/A", "#VALUE!") and message. */
  recordFailure(address: string, code: string, message: string): void {
    this.record(address, { ok: false, code, message, at: this.now() });
  }

  /** The formula at `address` returned a value (which replaces any earlier failure), from these sources. */
  recordSuccess(address: string, provenance?: CellSourceRecord): void {
    this.record(address, provenance ? { ok: true, at: this.now(), provenance } : { ok: true, at: this.now() });
  }

  /** The latest outcome recorded for `address`, or null when none is held. */
  outcomeOf(address: string): CellOutcome | null {
    return this.outcomes.get(cellKey(address)) ?? null;
  }

  private record(address: string, outcome: CellOutcome): void {
    const key = cellKey(address);
    this.outcomes.delete(key);
    this.outcomes.set(key, outcome);
    for (const oldest of this.outcomes.keys()) {
      if (this.outcomes.size <= this.maxAddresses) break;
      this.outcomes.delete(oldest);
    }
  }
}

/**
 * One key for the ways Excel writes a cell's address: the invocation and the workbook API
 * quote some sheet names and not others ("'Rent roll'!C3", "Sheet1!A1"), a quote inside a
 * quoted name is doubled, sheet names are case-insensitive, and "$" only marks a reference
 * as absolute.
 */
export function cellKey(address: string): string {
  const match = /^(?:'((?:[^']|'')*)'|([^!]*))!(.*)$/.exec(address.trim());
  if (!match) return address.trim().replace(/\$/g, "").toUpperCase();
  const sheet = match[1] !== undefined ? match[1].replace(/''/g, "'") : match[2];
  return `${sheet.toLowerCase()}!${match[3].replace(/\$/g, "").toUpperCase()}`;
}
