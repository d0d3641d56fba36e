// Assessor parcels. Every commercial property sits on its own parcel (property_id set back);
// the rest are homes, small multi-family, farms, vacant lots, institutional and small
// commercial parcels spread by population. Assessed values are a share of market value and
// tax bills use the state's effective tax rate.
import type { Parcel } from "../../contract/records";
import { TAX_RATES } from "../state-data";
import type { StateCode } from "../../contract/states";
import { locate, personName } from "./addresses";
import type { CompanyRec } from "./companies";
import type { GenContext } from "./context";
import { dayOfYearStart, isoDate } from "./dates";
import type { City } from "./geography";
import { HOME_PRICE_GROWTH, type Market } from "./market-model";
import type { PropertyDraft } from "./properties";
import type { Random } from "./random";
import { LAST_NAMES, NOUN_WORDS } from "./words";

type LandUse = Parcel["land_use"];
const ACRE = 43_560;
const LAND_USE_OF: Record<string, LandUse> = {
  industrial: "industrial",
  flex: "industrial",
  land: "vacant",
  multifamily: "residential_multi_family",
  student: "residential_multi_family",
  "senior-living": "residential_multi_family",
};
const INSTITUTIONAL_SUBTYPES = new Set(["hospital", "school", "religious"]);

/** APN layouts differ by county; the county's FIPS code picks one. */
function apn(rng: Random, fips: string): string {
  switch (Number(fips) % 4) {
    case 0:
      return `${rng.digits(3)}-${rng.digits(3)}-${rng.digits(2)}`;
    case 1:
      return `${rng.digits(2)}-${rng.digits(2)}-${rng.digits(3)}-${rng.digits(3)}`;
    case 2:
      return rng.digits(11);
    default:
      return `R${rng.digits(6)}`;
  }
}

function assessment(rng: Random, state: string, value: number, landShare: number, commercial: boolean) {
  const total = Math.round(value * Math.min(1, rng.lognormal(0.85, 0.08)));
  const land = landShare >= 1 ? total : Math.round(total * landShare);
  const rate = (TAX_RATES[state as StateCode] ?? 0.01) * (commercial ? 1.3 : 1);
  return {
    assessed_land_value: land,
    assessed_improvement_value: total - land,
    assessed_total_value: total,
    tax_amount: Math.round(total * rate * rng.lognormal(1, 0.1) * 100) / 100,
  };
}

export function commercialParcel(ctx: GenContext, d: PropertyDraft, id: string, owner: CompanyRec | null): Parcel {
  const { rng } = ctx;
  const r = d.row;
  const landUse: LandUse =
    r.subtype === "agricultural-land"
      ? "agricultural"
      : INSTITUTIONAL_SUBTYPES.has(r.subtype ?? "")
        ? "institutional"
        : (LAND_USE_OF[r.asset_type] ?? "commercial");
  const lot = r.land_area_acres !== null ? r.land_area_acres * ACRE : (r.building_area_sqft ?? 0) / 3; // dense sites lack acreage
  const a = assessment(rng, r.state_code, r.estimated_value ?? 0, r.asset_type === "land" ? 1 : rng.uniform(0.15, 0.4), true);
  return {
    id,
    object: "parcel",
    apn: apn(rng, r.county_fips),
    county_fips: r.county_fips,
    county: r.county,
    state_code: r.state_code,
    city: r.city,
    zip: r.zip,
    address: r.address,
    latitude: r.latitude,
    longitude: r.longitude,
    land_use: landUse,
    lot_area_sqft: Math.round(lot),
    building_area_sqft: r.building_area_sqft,
    year_built: r.year_built,
    assessed_land_value: a.assessed_land_value,
    assessed_improvement_value: a.assessed_improvement_value,
    assessed_total_value: a.assessed_total_value,
    assessment_year: ctx.captureYear,
    tax_amount: a.tax_amount,
    // Properties whose owner the data does not name still have an owner of record on the parcel.
    owner_name: owner?.name ?? `${rng.pick(NOUN_WORDS)} ${rng.pick(LAST_NAMES)} Holdings LLC`,
    owner_type: "company",
    last_sale_date: r.last_sale_date,
    last_sale_price: r.last_sale_price,
    property_id: r.id,
  };
}

export interface OtherParcel {
  parcel: Parcel;
  city: City;
  market: Market;
  /** Market value today (what a listing would ask around). */
  value: number;
}

const OTHER_USES: [LandUse, number][] = [
  ["residential_single_family", 70],
  ["residential_multi_family", 6],
  ["agricultural", 7],
  ["vacant", 10],
  ["institutional", 4],
  ["commercial", 3],
];
const LISTABLE_USES: [LandUse, number][] = [
  ["residential_single_family", 80],
  ["residential_multi_family", 12],
  ["vacant", 8],
];

function ownerOfRecord(rng: Random, use: LandUse, city: City): [string, Parcel["owner_type"]] {
  const { first, last } = personName(rng);
  const gov = use === "institutional" ? 0.6 : use === "vacant" ? 0.08 : 0.01;
  const x = rng.next();
  if (x < gov) return [rng.chance(0.5) ? `City of ${city.name}` : `${city.zip.county} County`, "government"];
  if (x < gov + 0.12) return [`${last} Family Trust`, "trust"];
  if (x < gov + 0.22) return [`${rng.pick(NOUN_WORDS)} ${last} LLC`, "company"];
  return [`${last}, ${first}`, "individual"];
}

export function otherParcel(ctx: GenContext, city: City, id: string, listable: boolean): OtherParcel {
  const { rng, captureDay, captureYear } = ctx;
  const market = ctx.markets.of(city);
  const m = market.priceIndex;
  const use = rng.weighted(listable ? LISTABLE_USES : OTHER_USES);
  const loc = locate(rng, city);
  const homePsf = 220 * m * m * rng.lognormal(1, 0.18);
  let sqft: number | null = null;
  let lot: number;
  let value: number;
  if (use === "residential_single_family" || use === "residential_multi_family") {
    sqft = Math.round(Math.min(9_000, Math.max(550, rng.lognormal(use === "residential_single_family" ? 1_850 : 2_600, 0.35))));
    lot = rng.lognormal(m > 1.2 ? 5_000 : 8_500, 0.55);
    value = sqft * homePsf;
  } else if (use === "agricultural") {
    lot = rng.lognormal(45, 1) * ACRE;
    sqft = rng.chance(0.5) ? Math.round(rng.lognormal(2_000, 0.3)) : null;
    value = (lot / ACRE) * 5_000 * Math.pow(m, 1.5) + (sqft ?? 0) * homePsf * 0.6;
  } else if (use === "vacant") {
    lot = rng.lognormal(0.6, 1) * ACRE;
    value = (lot / ACRE) * 60_000 * Math.pow(m, 3) * rng.lognormal(1, 0.4);
  } else {
    sqft = Math.round(rng.lognormal(use === "institutional" ? 18_000 : 4_500, 0.7));
    lot = sqft * rng.uniform(2, 5);
    value = sqft * 150 * m * rng.lognormal(1, 0.25);
  }
  const year = sqft === null ? null : Math.round(Math.min(captureYear, Math.max(1880, rng.normal(1978, 25))));
  let saleDate: string | null = null;
  let salePrice: number | null = null;
  if (rng.chance(0.85)) {
    let day = captureDay - Math.round(rng.exponential(9) * 365.25);
    if (year !== null && day < dayOfYearStart(year)) day = dayOfYearStart(year) + rng.int(30, 300);
    day = Math.min(day, captureDay - 1);
    saleDate = isoDate(day);
    salePrice = Math.round(((value / Math.pow(1 + HOME_PRICE_GROWTH, (captureDay - day) / 365.25)) * rng.lognormal(1, 0.1)) / 500) * 500;
  }
  const [ownerName, ownerType] = ownerOfRecord(rng, use, city);
  const assessed = assessment(rng, city.state, value, sqft === null ? 1 : rng.uniform(0.2, 0.45), false);
  const parcel: Parcel = {
    id,
    object: "parcel",
    apn: apn(rng, loc.zip.fips),
    county_fips: loc.zip.fips,
    county: loc.zip.county,
    state_code: city.state,
    city: city.name,
    zip: loc.zip.zip,
    address: loc.address,
    latitude: loc.latitude,
    longitude: loc.longitude,
    land_use: use,
    lot_area_sqft: Math.round(lot),
    building_area_sqft: sqft,
    year_built: year,
    assessed_land_value: assessed.assessed_land_value,
    assessed_improvement_value: assessed.assessed_improvement_value,
    assessed_total_value: assessed.assessed_total_value,
    assessment_year: captureYear,
    tax_amount: assessed.tax_amount,
    owner_name: ownerName,
    owner_type: ownerType,
    last_sale_date: saleDate,
    last_sale_price: salePrice,
    property_id: null,
  };
  return { parcel, city, market, value: Math.round(value) };
}
