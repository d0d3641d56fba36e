// Market cycles: how rents, vacancy and values moved before the capture date, per market key
// (a metro, or a state's towns outside metros) and asset type. Each key has its own property
// cycle (length 6.5-10.5 years, amplitude drawn from the seed, its peak drawn between 2006 and
// 2008 as every market's last boom before the crash was), and every key goes through the two
// shocks everyone lived through: the 2008-2010 downturn (trough early 2010, recovered by 2013)
// and the 2020 shock (trough mid-2020, recovered by 2022). A cycle falls for half its length
// after its peak, at least until 2011, so from mid-2008 to the trough every key's rents and
// values fall and its vacancy rises, whatever its own phase; their trend growth stops until the
// trough. Asset types feel
// them differently: hotels and entertainment most in 2020, industrial not at all then (it
// boomed), and office vacancy keeps rising from 2020 to 2024 and stays up. The model gives
// levels relative to any date; the history anchors them on today's figures, so a series ends
// exactly where the market snapshot stands.
import type { AssetType } from "../../contract/vocabulary";
import { Random } from "./random";

interface Sensitivity {
  /** How strongly the local cycle moves the type. */
  cycle: number;
  /** Depth of the 2008-2010 downturn, relative. */
  gfc: number;
  /** Depth of the 2020 shock, relative; negative when the type gained from it. */
  covid: number;
  /** Vacancy added for good after 2020 (reached in 2024). */
  structural: number;
}

const SENSITIVITY: Record<AssetType, Sensitivity> = {
  multifamily: { cycle: 1, gfc: 0.6, covid: 0.3, structural: 0 },
  industrial: { cycle: 0.8, gfc: 1, covid: -0.3, structural: 0 },
  office: { cycle: 1.2, gfc: 1.2, covid: 0.8, structural: 0.07 },
  retail: { cycle: 1, gfc: 1, covid: 1.3, structural: 0 },
  land: { cycle: 1.2, gfc: 1.4, covid: 0.3, structural: 0 },
  hospitality: { cycle: 1.5, gfc: 1.5, covid: 3, structural: 0 },
  "health-care": { cycle: 0.5, gfc: 0.4, covid: 0.5, structural: 0 },
  flex: { cycle: 0.9, gfc: 0.9, covid: 0.3, structural: 0 },
  specialty: { cycle: 0.6, gfc: 0.6, covid: 0.3, structural: 0 },
  "sports-and-entertainment": { cycle: 1.2, gfc: 1, covid: 2.5, structural: 0 },
  student: { cycle: 0.6, gfc: 0.4, covid: 0.8, structural: 0 },
  "senior-living": { cycle: 0.5, gfc: 0.4, covid: 1.2, structural: 0 },
};

/** One market key's cycle. */
export interface CycleParams {
  /** Years from peak to peak. */
  length: number;
  /** When (decimal year) the cycle crossed its midpoint going up: a quarter of its length before its 2006-2008 peak. */
  phase: number;
  /** Log-rent swing of the cycle, peak to midpoint. */
  rentAmplitude: number;
  /** Vacancy swing of the cycle, peak to midpoint. */
  vacancyAmplitude: number;
  /** How hard the two shocks hit this key, relative. */
  gfcDepth: number;
  covidDepth: number;
}

/** A piecewise-linear dip: 0 before `start`, -1 at `trough`, back to 0 at `end`. */
function dip(t: number, start: number, trough: number, end: number): number {
  if (t <= start || t >= end) return 0;
  return t <= trough ? -(t - start) / (trough - start) : -(end - t) / (end - trough);
}

const gfc = (t: number) => dip(t, 2008.5, 2010.0, 2013.0);
const covid = (t: number) => dip(t, 2020.0, 2020.5, 2022.0);
/** Trend time lost to the 2008-2010 downturn: rents and values stopped growing from mid-2008 to the trough. */
const stalled = (t: number) => Math.min(2010.0 - 2008.5, Math.max(0, t - 2008.5));
const structural = (t: number) => Math.min(1, Math.max(0, (t - 2020.25) / 3.75));

/** A date as a decimal year ("2026-11-01" is about 2026.83). */
export function decimalYear(date: string): number {
  const y = Number(date.slice(0, 4));
  const start = Date.UTC(y, 0, 1);
  return y + (Date.parse(`${date}T00:00:00Z`) - start) / (Date.UTC(y + 1, 0, 1) - start);
}

/** Where (decimal year) a key's cycle peaked before the 2008 crash. */
const PEAK = { from: 2006, to: 2008 };

export class MarketCycles {
  private readonly params = new Map<string, CycleParams>();
  constructor(private readonly seed: number) {}

  /** A key's cycle, drawn once from its own stream (the same in every thread and build). */
  of(key: string): CycleParams {
    let p = this.params.get(key);
    if (!p) {
      const rng = new Random(this.seed, `cycle:${key}`);
      const length = rng.uniform(6.5, 10.5);
      p = {
        length,
        phase: rng.uniform(PEAK.from, PEAK.to) - length / 4,
        rentAmplitude: rng.uniform(0.03, 0.08),
        vacancyAmplitude: rng.uniform(0.012, 0.03),
        gfcDepth: rng.uniform(0.7, 1.3),
        covidDepth: rng.uniform(0.7, 1.3),
      };
      this.params.set(key, p);
    }
    return p;
  }

  private wave(p: CycleParams, t: number): number {
    return Math.sin((2 * Math.PI * (t - p.phase)) / p.length);
  }

  /** Log asking rent at time t (decimal year), up to a constant: trend + cycle + shocks. */
  logRent(key: string, asset: AssetType, trend: number, t: number): number {
    const p = this.of(key);
    const s = SENSITIVITY[asset];
    return (
      trend * (t - stalled(t)) +
      p.rentAmplitude * s.cycle * this.wave(p, t) +
      0.12 * p.gfcDepth * s.gfc * gfc(t) +
      0.08 * p.covidDepth * s.covid * covid(t)
    );
  }

  /** Vacancy at time t, up to a constant: it rises when the cycle and the shocks fall. */
  vacancy(key: string, asset: AssetType, t: number): number {
    const p = this.of(key);
    const s = SENSITIVITY[asset];
    return (
      -p.vacancyAmplitude * s.cycle * this.wave(p, t) -
      0.03 * p.gfcDepth * s.gfc * gfc(t) -
      0.03 * p.covidDepth * s.covid * covid(t) +
      s.structural * structural(t)
    );
  }

  /**
   * Log value at time t, up to a constant: values grow at `growth` a year and swing twice as
   * far as rents with the cycle and the 2008 downturn (cap rates move with them), while the
   * 2020 shock, brief for prices, moves them half as far.
   */
  logValue(key: string, asset: AssetType, growth: number, t: number): number {
    const p = this.of(key);
    const s = SENSITIVITY[asset];
    return (
      growth * (t - stalled(t)) +
      2 * p.rentAmplitude * s.cycle * this.wave(p, t) +
      0.25 * p.gfcDepth * s.gfc * gfc(t) +
      0.04 * p.covidDepth * s.covid * covid(t)
    );
  }
}
