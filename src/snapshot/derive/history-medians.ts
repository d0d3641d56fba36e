// Trailing 24-month medians of sale figures for every market and quarter, without an array per
// market and quarter: each metric's values are laid out market by market and, within a market,
// quarter by quarter (one counting sort), so the 8 quarters ending at any quarter are one
// contiguous slice, sorted on its own to take the median.

/** Sale values of one group of rows: the markets it belongs to, its quarter bucket, its values. */
export interface ValueCell {
  markets: number[];
  bucket: number;
  values: Float64Array;
}

export class WindowMedians {
  private readonly offsets: Int32Array;
  private readonly values: Float64Array;
  private scratch = new Float64Array(64);

  /** `buckets` quarters per market; cells name markets by ordinal (0..markets-1). */
  constructor(
    markets: number,
    private readonly buckets: number,
    cells: readonly ValueCell[],
  ) {
    const offsets = new Int32Array(markets * buckets + 1);
    for (const c of cells) {
      if (!c.values.length) continue;
      for (const m of c.markets) offsets[m * buckets + c.bucket + 1] += c.values.length;
    }
    for (let i = 1; i < offsets.length; i++) offsets[i] += offsets[i - 1];
    const values = new Float64Array(offsets[offsets.length - 1]);
    const cursor = offsets.slice(0, -1);
    for (const c of cells) {
      if (!c.values.length) continue;
      for (const m of c.markets) {
        values.set(c.values, cursor[m * buckets + c.bucket]);
        cursor[m * buckets + c.bucket] += c.values.length;
      }
    }
    this.offsets = offsets;
    this.values = values;
  }

  /** The median of a market's values in buckets [from, to], or null when there are none. */
  median(market: number, from: number, to: number): number | null {
    const a = this.offsets[market * this.buckets + from];
    const b = this.offsets[market * this.buckets + to + 1];
    if (a === b) return null;
    // Sorted in a scratch buffer reused from call to call (a median is taken for every market and quarter).
    if (this.scratch.length < b - a) this.scratch = new Float64Array(Math.max(b - a, this.scratch.length * 2));
    this.scratch.set(this.values.subarray(a, b));
    const v = this.scratch.subarray(0, b - a).sort();
    const mid = v.length >> 1;
    return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  }
}
