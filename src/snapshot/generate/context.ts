// What every generator step needs: the random streams, the geography, the market model, the
// company pools and the capture date (all dates derive from it, never from the clock).
import { makeCompanies, type CompanyPools } from "./companies";
import { dayOf, yearOfDay } from "./dates";
import { loadGeography, type Geography } from "./geography";
import { MarketCycles } from "./market-cycles";
import { MarketModel } from "./market-model";
import { Random } from "./random";

export interface GenContext {
  seed: number;
  rng: Random;
  geo: Geography;
  markets: MarketModel;
  cycles: MarketCycles;
  pools: CompanyPools;
  captureDay: number;
  captureYear: number;
  /** Months since January 1970 of the capture date (leases run in whole months). */
  captureMonth: number;
}

export interface GenerateOptions {
  seed: number;
  properties: number;
  capturedAt: string;
  log?: (msg: string) => void;
}

/**
 * The same context from the same options, in any thread: the parcel worker rebuilds it rather
 * than receiving it, and gets identical geography, company pools and market trends.
 */
export function makeContext(opts: GenerateOptions, stream: string): GenContext {
  const geo = loadGeography();
  const captureDay = dayOf(opts.capturedAt);
  const captureYear = yearOfDay(captureDay);
  const month = new Date(captureDay * 86_400_000).getUTCMonth();
  return {
    seed: opts.seed,
    rng: new Random(opts.seed, stream),
    geo,
    markets: new MarketModel(opts.seed, geo.cities.length),
    cycles: new MarketCycles(opts.seed),
    pools: makeCompanies(new Random(opts.seed, "companies"), geo, opts.properties, captureYear),
    captureDay,
    captureYear,
    captureMonth: (captureYear - 1970) * 12 + month,
  };
}
