// One commercial property: location, physical facts (size, vintage, class, stories, site) and
// the economics the rest of the generator builds on (rent, occupancy, cap rate, value).
// Value is income-based: NOI / cap rate, with NOI from rent, occupancy and the type's margin,
// so price per square foot and per unit follow rents and cap rates market by market.
import type { CommercialProperty } from "../../contract/records";
import type { AssetType } from "../../contract/vocabulary";
import { UNIT_TYPES } from "../asset-kinds";
import { locate } from "./addresses";
import { ASSET_PROFILES, HOTEL_ADR, type AssetProfile } from "./asset-profiles";
import type { GenContext } from "./context";
import type { City } from "./geography";
import { seqId } from "./ids";
import type { Market } from "./market-model";
import { propertyName } from "./names";
import type { Random } from "./random";

export interface PropertyDraft {
  row: CommercialProperty;
  city: City;
  market: Market;
  /** Today's cap rate for this property (sales adjust it for their year). */
  capRate: number;
  /** Hotel average daily rate, used only for valuation. */
  adr: number | null;
}

const CLASSLESS: ReadonlySet<AssetType> = new Set(["land", "hospitality", "specialty", "sports-and-entertainment"]);
const CLASS_RENT = { A: 1.22, B: 1, C: 0.8 } as const;
const CLASS_CAP = { A: -0.004, B: 0, C: 0.006 } as const;
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

const SUBTYPE_WEIGHTS = new Map<AssetType, number[]>();
function subtypeWeights(asset: AssetType): number[] {
  let w = SUBTYPE_WEIGHTS.get(asset);
  if (!w) SUBTYPE_WEIGHTS.set(asset, (w = ASSET_PROFILES[asset].subtypes.map((s) => s.weight)));
  return w;
}

function buildingClass(rng: Random, age: number): "A" | "B" | "C" {
  const [a, b] = age < 15 ? [0.6, 0.95] : age < 35 ? [0.2, 0.8] : [0.05, 0.5];
  const x = rng.next();
  return x < a ? "A" : x < b ? "B" : "C";
}

function stories(rng: Random, asset: AssetType, subtype: string, sqft: number): number {
  if (subtype === "high-rise" || subtype === "cbd-office") return clamp(Math.round(sqft / rng.uniform(18_000, 26_000)), 8, 90);
  if (subtype === "mid-rise" || subtype === "full-service" || subtype === "hospital") return rng.int(4, 12);
  if (asset === "office" || asset === "student") return clamp(Math.round(sqft / rng.uniform(15_000, 30_000)), 1, 12);
  if (subtype === "parking-garage") return rng.int(3, 8);
  if (asset === "multifamily" || asset === "hospitality" || asset === "senior-living") return rng.int(2, 4);
  return rng.chance(0.85) ? 1 : 2;
}

function occupancy(rng: Random, p: AssetProfile, cls: string | null): number {
  if (rng.chance(p.fullChance)) return 1;
  const median = p.vacancy * (cls === "C" ? 1.4 : cls === "A" ? 0.8 : 1);
  return round(1 - Math.min(0.9, rng.lognormal(median, 0.7)), 3);
}

export function makeProperty(ctx: GenContext, n: number, asset: AssetType, city: City): PropertyDraft {
  const { rng, captureYear } = ctx;
  const p = ASSET_PROFILES[asset];
  const market = ctx.markets.of(city);
  const m = market.priceIndex;
  const sub = p.subtypes[rng.weightedIndex(subtypeWeights(asset))];
  const loc = locate(rng, city);
  const isLand = asset === "land";
  // Bigger buildings in bigger markets: size scales gently with the price index.
  const [median, sigma, lo, hi] = p.size;
  const size = clamp(rng.lognormal(median * sub.size * Math.sqrt(m), sigma), lo, hi);
  const units = UNIT_TYPES.has(asset) ? Math.round(size) : null;
  const sqft = isLand ? null : Math.round(units !== null ? units * p.sqftPerUnit * rng.lognormal(1, 0.12) : size);
  const year = isLand ? null : Math.round(clamp(rng.normal(p.vintage[0], p.vintage[1]), 1880, captureYear));
  const cls = CLASSLESS.has(asset) || year === null ? null : buildingClass(rng, captureYear - year);
  const occ = isLand ? null : occupancy(rng, p, cls);
  const classRent = cls ? CLASS_RENT[cls] : 1;

  let acres: number | null;
  if (isLand) acres = round(size, 2);
  else {
    const density = (sub.name === "high-rise" || sub.name === "cbd-office" ? 6 : 1) * (m > 1.2 ? 1.6 : 1);
    const missing = asset === "office" || asset === "multifamily" ? 0.15 : 0.05;
    acres = rng.chance(missing) ? null : Math.max(0.05, round((sqft! / (p.far * density) / 43_560) * rng.lognormal(1, 0.3), 2));
  }

  let rentSqft: number | null = null;
  let rentUnit: number | null = null;
  let adr: number | null = null;
  let noi = 0;
  if (asset === "hospitality") {
    adr =
      HOTEL_ADR *
      m *
      (sub.name === "full-service" || sub.name === "resort" ? 1.6 : sub.name === "motel" ? 0.55 : 1) *
      rng.lognormal(1, 0.15);
    noi = adr * 365 * occ! * units! * p.margin;
  } else if (units !== null && p.rent !== null) {
    rentUnit = round(p.rent * Math.pow(m, 1.3) * classRent * rng.lognormal(1, 0.12), 0);
    noi = rentUnit * 12 * units * occ! * p.margin;
  } else if (p.rent !== null && sqft !== null) {
    rentSqft = round(p.rent * Math.pow(m, 1.1) * classRent * rng.lognormal(1, 0.12), 2);
    // A half-empty building is not worth half: buyers price in lease-up.
    noi = rentSqft * sqft * Math.max(occ!, 0.6) * p.margin;
  }
  const capRate = clamp(p.cap + market.capSpread + (cls ? CLASS_CAP[cls] : 0) + rng.normal(0, 0.0035), 0.035, 0.13);
  let value: number;
  if (isLand) {
    const use = { "agricultural-land": 0.25, "industrial-land": 0.8, "commercial-land": 1.5, "mixed-use-land": 2 }[sub.name] ?? 1;
    value = acres! * 60_000 * Math.pow(m, 3) * use * rng.lognormal(1, 0.45);
  } else value = noi / capRate;

  const row: CommercialProperty = {
    id: seqId("cp", n),
    object: "commercial_property",
    name: propertyName(rng, asset, sub.name, loc.address, loc.street),
    asset_type: asset,
    subtype: sub.name,
    building_class: cls,
    address: loc.address,
    city: city.name,
    state_code: city.state,
    zip: loc.zip.zip,
    county: loc.zip.county,
    county_fips: loc.zip.fips,
    metro_id: city.metro?.id ?? null,
    metro_name: city.metro?.name ?? null,
    latitude: loc.latitude,
    longitude: loc.longitude,
    building_area_sqft: sqft,
    land_area_acres: acres,
    units,
    year_built: year,
    stories: isLand ? null : stories(rng, asset, sub.name, sqft!),
    occupancy_rate: occ,
    asking_rent_sqft_year: rentSqft,
    asking_rent_unit_month: rentUnit,
    estimated_value: Math.max(10_000, Math.round(value / 1000) * 1000),
    owner_id: null,
    owner_name: null,
    parcel_id: null,
    tenant_count: 0,
    last_sale_id: null,
    last_sale_date: null,
    last_sale_price: null,
  };
  return { row, city, market, capRate, adr };
}
