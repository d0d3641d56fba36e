// Small numeric helpers for the derived tables.

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const v = Float64Array.from(values).sort();
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

export function roundTo(x: number | null, digits: number): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** A weighted mean, falling back to the plain mean when no row carries a weight. */
export class Mean {
  private wsum = 0;
  private w = 0;
  private sum = 0;
  private n = 0;

  add(value: number | null, weight: number | null): void {
    if (value === null) return;
    this.sum += value;
    this.n++;
    if (weight !== null && weight > 0) {
      this.wsum += value * weight;
      this.w += weight;
    }
  }

  /** Adds pre-aggregated sums (from SQL): weighted sum and weight, plain sum and count. */
  addSums(wsum: number, weight: number, sum: number, n: number): void {
    this.wsum += wsum;
    this.w += weight;
    this.sum += sum;
    this.n += n;
  }

  get value(): number | null {
    if (this.w > 0) return this.wsum / this.w;
    return this.n ? this.sum / this.n : null;
  }

  get count(): number {
    return this.n;
  }
}

/** The most frequent key (ties broken alphabetically), e.g. a metro's state. */
export class Mode {
  private readonly counts = new Map<string, number>();

  add(key: string | null, times = 1): void {
    if (key !== null) this.counts.set(key, (this.counts.get(key) ?? 0) + times);
  }

  get value(): string | null {
    let best: string | null = null;
    let n = 0;
    for (const [k, c] of this.counts) if (c > n || (c === n && best !== null && k < best)) [best, n] = [k, c];
    return best;
  }
}
