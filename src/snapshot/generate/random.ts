// Seeded pseudo-random numbers for the generator. sfc32 is small, fast and passes PractRand;
// Math.random is never used, so the same seed always gives the same snapshot.

/** 32-bit FNV-1a of a string: turns a seed plus a stream label into sfc32 state words. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// Weight lists are constants drawn from millions of times: their running sums are computed once.
const sums = new WeakMap<readonly number[], Float64Array>();
const pairWeights = new WeakMap<object, number[]>();

function cumulative(weights: readonly number[]): Float64Array {
  let c = sums.get(weights);
  if (!c) {
    c = new Float64Array(weights.length);
    let total = 0;
    weights.forEach((w, i) => (c![i] = total += w));
    sums.set(weights, c);
  }
  return c;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;

  /** One independent stream per (seed, label), so adding draws to one phase leaves the others alone. */
  constructor(seed: number, label = "") {
    this.a = hash32(`${seed}:${label}:a`);
    this.b = hash32(`${seed}:${label}:b`);
    this.c = hash32(`${seed}:${label}:c`);
    this.d = hash32(`${seed}:${label}:d`) | 1;
    for (let i = 0; i < 16; i++) this.next(); // warm up past the seeding pattern
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box-Muller, keeping the second value for the next call). */
  normal(mean = 0, sd = 1): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return mean + sd * s;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    const th = 2 * Math.PI * this.next();
    this.spare = r * Math.sin(th);
    return mean + sd * r * Math.cos(th);
  }

  /** Log-normal given its median and the sigma of the underlying normal. */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Index drawn with probability proportional to weights (linear scan: for short lists). */
  weightedIndex(weights: readonly number[]): number {
    const cum = cumulative(weights);
    const x = this.next() * cum[cum.length - 1];
    for (let i = 0; i < cum.length; i++) if (x < cum[i]) return i;
    return cum.length - 1;
  }

  /** Pick from [value, weight] pairs. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    let w = pairWeights.get(pairs);
    if (!w) pairWeights.set(pairs, (w = pairs.map((p) => p[1])));
    return pairs[this.weightedIndex(w)][0];
  }

  digits(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 10);
    return s;
  }
}

/**
 * Walker's alias table: O(1) weighted draws from long lists (cities by population,
 * companies by size), which the generator makes millions of times at scale.
 */
export class AliasTable {
  private readonly prob: Float64Array;
  private readonly alias: Int32Array;

  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    if (n === 0) throw new Error("AliasTable needs at least one weight");
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[i];
    this.prob = new Float64Array(n);
    this.alias = new Int32Array(n);
    const scaled = new Float64Array(n);
    const small: number[] = [];
    const large: number[] = [];
    for (let i = 0; i < n; i++) {
      scaled[i] = total > 0 ? (weights[i] * n) / total : 1;
      (scaled[i] < 1 ? small : large).push(i);
    }
    while (small.length && large.length) {
      const s = small.pop()!;
      const l = large.pop()!;
      this.prob[s] = scaled[s];
      this.alias[s] = l;
      scaled[l] = scaled[l] + scaled[s] - 1;
      (scaled[l] < 1 ? small : large).push(l);
    }
    for (const i of large) this.prob[i] = 1;
    for (const i of small) this.prob[i] = 1;
  }

  get size(): number {
    return this.prob.length;
  }

  draw(rng: Random): number {
    const x = rng.next() * this.prob.length;
    const i = Math.floor(x);
    return x - i < this.prob[i] ? i : this.alias[i];
  }
}

/**
 * Knuth's selection sampling: picks exactly `want` of `total` items in one streaming pass,
 * so target counts (listings) are met exactly without holding candidates in memory.
 */
export class Selector {
  private seen = 0;
  private chosen = 0;
  constructor(
    private readonly want: number,
    private readonly total: number,
  ) {}

  take(rng: Random): boolean {
    const left = this.total - this.seen;
    const need = this.want - this.chosen;
    this.seen++;
    if (need <= 0) return false;
    if (rng.next() * left < need) {
      this.chosen++;
      return true;
    }
    return false;
  }
}
