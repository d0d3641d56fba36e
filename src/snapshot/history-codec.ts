// A run of one market's quarters as stored: every metric's figures for those quarters, packed
// into one blob (the `figures` column of `market_history`, history-tables.ts). A market is a row
// per calendar year rather than one row per quarter because a million-property snapshot holds
// about 280,000 markets over 84 quarters: 23 million rows took most of the build's time to
// insert, and the service only ever reads one market's series at a time. Each blob stands alone:
// its first quarter's figures are absolute, the others differences.
//
// Layout, metric by metric in MARKET_HISTORY_METRIC_NAMES order, each section starting with a
// mode byte:
// - INTEGERS: each quarter's figure as an integer in the metric's fixed unit (HISTORY_SCALES:
//   cents of rent, hundredths of a percent of a rate), written as a varint of its difference from
//   the previous figure (zigzag, plus one), with 0 for a quarter without a figure. Series move
//   little from quarter to quarter, so most figures take one or two bytes.
// - DOUBLES: the figures as they are, 8 bytes each (little-endian; NaN for none). Used when a
//   metric without a scale has a figure that is not a whole number (a captured unit rent of
//   1234.5, say), or a figure too large for the varints to be exact, so such figures are kept
//   as they were given. Scaled metrics are rounded to their unit, as the unit defines them.
// - NONE: no quarter has a figure; nothing follows. A year's row of a metric a market does not
//   hold (unit rents of offices) or has no sales for (medians) is this one byte.
// - SAME: every quarter has the same figure, an integer in the metric's unit as for INTEGERS,
//   written once as a varint (zigzag). Stocks that did not move in a year (inventory, property
//   counts) and flows that stayed zero are this one figure.
// The two short modes keep a market's rows of one year each about as small as one row of its
// whole span: most of a year's sections are one of them.
import { MARKET_HISTORY_METRIC_NAMES, type MarketHistoryMetric } from "../contract/history";
import { HISTORY_SCALES } from "./history-tables";

const INTEGERS = 0;
const DOUBLES = 1;
const NONE = 2;
const SAME = 3;

/** Integers up to this size are exact through the zigzag varints (their differences stay below 2^53). */
const MAX_PACKED = 2 ** 50;

const SCALES: readonly number[] = MARKET_HISTORY_METRIC_NAMES.map((m) => HISTORY_SCALES[m] ?? 1);

/** One market's figures, metric by metric, quarter by quarter, in the API's units. */
export type SeriesFigures = Record<MarketHistoryMetric, readonly (number | null)[]>;

export class HistoryEncoder {
  private buf: Buffer;
  private readonly stored: Float64Array;

  /** For blobs of at most `n` quarters. */
  constructor(private readonly n: number) {
    this.buf = Buffer.alloc(MARKET_HISTORY_METRIC_NAMES.length * (1 + n * 9));
    this.stored = new Float64Array(n);
  }

  /**
   * The blob of `n` quarters of one market's series from index `start` (all of its first `n` by
   * default): a view of a buffer reused by the next call, so copy or write it before then.
   */
  encode(series: SeriesFigures, start = 0, n = this.n): Buffer {
    const { stored, buf } = this;
    if (n > this.n) throw new Error(`history encoder made for ${this.n} quarters was given ${n}`);
    let p = 0;
    MARKET_HISTORY_METRIC_NAMES.forEach((metric, c) => {
      const list = series[metric];
      const scale = SCALES[c];
      let packable = true;
      let figures = 0;
      let same = true;
      for (let j = 0; j < n; j++) {
        const v = list[start + j];
        if (v === null) {
          stored[j] = NaN;
          same = false;
          continue;
        }
        const k = scale === 1 ? v : Math.round(v * scale);
        if (!Number.isInteger(k) || Math.abs(k) > MAX_PACKED) packable = false;
        if (j > 0 && k !== stored[0]) same = false;
        stored[j] = k;
        figures++;
      }
      if (!packable) {
        buf[p++] = DOUBLES;
        for (let j = 0; j < n; j++, p += 8) buf.writeDoubleLE(list[start + j] ?? NaN, p);
        return;
      }
      if (figures === 0) {
        buf[p++] = NONE;
        return;
      }
      if (same) {
        buf[p++] = SAME;
        p = writeVarint(buf, p, zigzag(stored[0]));
        return;
      }
      buf[p++] = INTEGERS;
      let prev = 0;
      for (let j = 0; j < n; j++) {
        const k = stored[j];
        if (Number.isNaN(k)) {
          buf[p++] = 0;
          continue;
        }
        p = writeVarint(buf, p, zigzag(k - prev) + 1);
        prev = k;
      }
    });
    return buf.subarray(0, p);
  }
}

/** An integer as a non-negative one: 0, -1, 1, -2, ... as 0, 1, 2, 3, ... */
function zigzag(d: number): number {
  return d >= 0 ? d * 2 : -d * 2 - 1;
}

function unzigzag(u: number): number {
  return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
}

/** Writes `u` (a non-negative integer) at `p` as a varint, 7 bits a byte, low first; returns the end. */
function writeVarint(buf: Buffer, p: number, u: number): number {
  while (u >= 128) {
    buf[p++] = (u % 128) | 128;
    u = Math.floor(u / 128);
  }
  buf[p++] = u;
  return p;
}

/** Decodes a blob of `n` quarters into each metric's figures in the API's units (null where none). */
export function decodeHistory(blob: Uint8Array, n: number): (number | null)[][] {
  const out: (number | null)[][] = [];
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  let p = 0;
  const varint = (): number => {
    let u = 0;
    let mul = 1;
    let b: number;
    do {
      b = blob[p++];
      u += (b & 127) * mul;
      mul *= 128;
    } while (b & 128);
    return u;
  };
  for (let c = 0; c < SCALES.length; c++) {
    const figures = new Array<number | null>(n);
    const mode = blob[p++];
    const scale = SCALES[c];
    if (mode === NONE) {
      figures.fill(null);
    } else if (mode === SAME) {
      const k = unzigzag(varint());
      figures.fill(scale === 1 ? k : k / scale);
    } else if (mode === DOUBLES) {
      for (let j = 0; j < n; j++, p += 8) {
        const v = view.getFloat64(p, true);
        figures[j] = Number.isNaN(v) ? null : v;
      }
    } else if (mode === INTEGERS) {
      let prev = 0;
      for (let j = 0; j < n; j++) {
        const u = varint();
        if (u === 0) {
          figures[j] = null;
          continue;
        }
        prev += unzigzag(u - 1);
        // k / scale is the same double as the figure the integer was made from (2 or 4 decimals).
        figures[j] = scale === 1 ? prev : prev / scale;
      }
    } else {
      throw new Error(`market history blob has an unknown section mode ${mode} at byte ${p - 1}`);
    }
    out.push(figures);
  }
  if (p > blob.length) throw new Error(`market history blob ends before its ${n} quarters`);
  if (p < blob.length) throw new Error(`market history blob has ${blob.length - p} bytes past its ${n} quarters`);
  return out;
}

/** A row of `market_history`: a run of one market's quarters. */
export interface StoredHistory {
  market: number;
  first_quarter: number;
  quarters: number;
  figures: Uint8Array;
}

/** The columns of a StoredHistory, for a SELECT from `market_history`. */
export const STORED_HISTORY_COLUMNS = "market, first_quarter, quarters, figures";

/** One stored quarter of a market, in the API's units. */
export type HistoryQuarter = { market: number; quarter: number } & Record<MarketHistoryMetric, number | null>;

/** A stored row of `market_history` as quarters, from quarter `lo` to `hi` (inclusive, within the row's quarters). */
export function historyQuarters(row: StoredHistory, lo = row.first_quarter, hi = row.first_quarter + row.quarters - 1): HistoryQuarter[] {
  const figures = decodeHistory(row.figures, row.quarters);
  const out: HistoryQuarter[] = [];
  for (let q = Math.max(lo, row.first_quarter); q <= Math.min(hi, row.first_quarter + row.quarters - 1); q++) {
    const j = q - row.first_quarter;
    const r = { market: row.market, quarter: q } as HistoryQuarter;
    MARKET_HISTORY_METRIC_NAMES.forEach((m, c) => (r[m] = figures[c][j]));
    out.push(r);
  }
  return out;
}

/**
 * A market's rows (in order of their first quarter) as its quarters from `lo` to `hi`, each row
 * decoded only if it holds some of them.
 */
export function marketQuarters(rows: readonly StoredHistory[], lo: number, hi: number): HistoryQuarter[] {
  const out: HistoryQuarter[] = [];
  for (const row of rows) if (row.first_quarter <= hi && row.first_quarter + row.quarters > lo) out.push(...historyQuarters(row, lo, hi));
  return out;
}
