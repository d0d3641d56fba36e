// A property's recorded sales and the chain of owners behind them. The latest sale's buyer is
// the current owner; each earlier buyer sold to the next. Hold periods are exponential (mean
// about 6.5 years), so roughly 15% of properties traded in the last year and 1 in 5 has been
// held over 10 years. Prices follow today's value back in time along the market's trend and
// cycle (market-cycles.ts: its local cycle, the 2008 downturn, the 2020 shock); cap rates
// follow the rate environment of the sale year.
import type { CommercialProperty, SaleComp } from "../../contract/records";
import type { AssetType } from "../../contract/vocabulary";
import { drawFrom, type CompanyRec } from "./companies";
import type { GenContext } from "./context";
import { dayOfYearStart, isoDate, yearOfDay } from "./dates";
import { capRateShift, VALUE_GROWTH } from "./market-model";
import type { PropertyDraft } from "./properties";
import type { Random } from "./random";

const SALE_COUNTS: [number, number][] = [
  [0, 0.2],
  [1, 0.45],
  [2, 0.23],
  [3, 0.08],
  [4, 0.04],
];
const OWNER_USER: ReadonlySet<AssetType> = new Set(["office", "industrial", "flex", "retail", "health-care"]);
const YEAR = 365.25;
/** A day number as a decimal year, the market cycles' time. */
const yearAt = (day: number) => 1970 + day / YEAR;

export function drawOwner(ctx: GenContext, d: PropertyDraft): CompanyRec {
  // A third of properties are held by a local owner; the rest by owners of any size anywhere.
  const local = ctx.pools.ownersByState.get(d.row.state_code);
  if (local?.length && ctx.rng.chance(0.35)) return ctx.rng.pick(local);
  return drawFrom(ctx.pools.ownersByAsset[d.row.asset_type], ctx.rng);
}

function saleType(rng: Random, asset: AssetType, year: number): SaleComp["sale_type"] {
  const distressed = year >= 2009 && year <= 2012 ? 0.14 : asset === "office" && year >= 2023 ? 0.12 : 0.03;
  const x = rng.next();
  if (x < distressed) return "distressed";
  if (x < distressed + (OWNER_USER.has(asset) ? 0.12 : 0)) return "owner_user";
  if (x < distressed + 0.22) return "portfolio";
  return "investment";
}

/** Sale dates, newest first: each at least ~8 months before the next, none before the building. */
function saleDays(ctx: GenContext, d: PropertyDraft): number[] {
  const { rng, captureDay } = ctx;
  const n = rng.weighted(SALE_COUNTS);
  const earliest = Math.max(captureDay - 35 * YEAR, d.row.year_built !== null ? dayOfYearStart(d.row.year_built) + 120 : -Infinity);
  const days: number[] = [];
  let day = captureDay - Math.max(3, Math.round(rng.exponential(6.5) * YEAR));
  for (let i = 0; i < n && day >= earliest; i++) {
    days.push(day);
    day -= Math.round((0.7 + rng.exponential(6.5)) * YEAR);
  }
  return days;
}

export function makeSales(
  ctx: GenContext,
  d: PropertyDraft,
  developer: CompanyRec | null,
  nextId: () => string,
): { rows: SaleComp[]; owner: CompanyRec } {
  const { rng, captureDay, pools } = ctx;
  const row = d.row;
  const days = saleDays(ctx, d);
  const owner = drawOwner(ctx, d);
  // owners[i] bought at days[i]; the seller of sale i is owners[i + 1].
  const owners = [owner];
  for (let i = 1; i <= days.length; i++) {
    let prev = drawOwner(ctx, d);
    for (let tries = 0; prev === owners[i - 1] && tries < 4; tries++) prev = drawOwner(ctx, d);
    owners.push(prev);
  }
  const oldest = days[days.length - 1];
  if (developer && oldest !== undefined && row.year_built !== null && yearOfDay(oldest) - row.year_built <= 4) {
    owners[days.length] = developer; // the first sale was the developer selling the new building
  }
  const rows: SaleComp[] = [];
  for (let i = days.length - 1; i >= 0; i--) {
    const day = days[i];
    const year = yearOfDay(day);
    const then = ctx.cycles.logValue(d.market.key, row.asset_type, VALUE_GROWTH, yearAt(day));
    const now = ctx.cycles.logValue(d.market.key, row.asset_type, VALUE_GROWTH, yearAt(captureDay));
    const price = Math.max(10_000, Math.round((row.estimated_value! * Math.exp(then - now) * rng.lognormal(1, 0.12)) / 1000) * 1000);
    const type = saleType(rng, row.asset_type, year);
    const noCap = row.asset_type === "land" || type === "owner_user" || rng.chance(0.12);
    const cap = noCap
      ? null
      : Math.round(
          Math.min(0.15, Math.max(0.03, d.capRate + capRateShift(year) + rng.normal(0, 0.003) + (type === "distressed" ? 0.012 : 0))) *
            10_000,
        ) / 10_000;
    const occ =
      row.occupancy_rate === null ? null : Math.round(Math.min(1, Math.max(0, row.occupancy_rate + rng.normal(0, 0.05))) * 1000) / 1000;
    const broker = rng.chance(0.85) ? drawFrom(pools.brokers, rng) : null;
    if (broker) broker.count++;
    if (rng.chance(0.7)) drawFrom(pools.lenders, rng).count++; // financed: counts toward the lender
    const buyer = owners[i];
    const seller = owners[i + 1];
    rows.push({
      id: nextId(),
      object: "sale_comp",
      ...soldProperty(row, day, price),
      cap_rate: cap,
      occupancy_at_sale: occ,
      sale_type: type,
      buyer_id: buyer.id,
      buyer_name: buyer.name,
      seller_id: seller.id,
      seller_name: seller.name,
      broker_id: broker?.id ?? null,
      broker_name: broker?.name ?? null,
    });
  }
  const last = rows[rows.length - 1];
  if (last) {
    row.last_sale_id = last.id;
    row.last_sale_date = last.sale_date;
    row.last_sale_price = last.sale_price;
  }
  return { rows, owner };
}

/** What a sale row repeats of its property. */
type SoldProperty = Pick<
  CommercialProperty,
  | "id"
  | "name"
  | "asset_type"
  | "subtype"
  | "building_class"
  | "address"
  | "city"
  | "state_code"
  | "zip"
  | "county_fips"
  | "metro_id"
  | "latitude"
  | "longitude"
  | "building_area_sqft"
  | "land_area_acres"
  | "units"
  | "year_built"
>;

/** A sale row's property part, for `p` sold on `day` for `price`: what and where it is, its size, and the price per unit of that size. */
export function soldProperty(p: SoldProperty, day: number, price: number) {
  return {
    property_id: p.id,
    property_name: p.name,
    asset_type: p.asset_type,
    subtype: p.subtype,
    building_class: p.building_class,
    address: p.address,
    city: p.city,
    state_code: p.state_code,
    zip: p.zip,
    county_fips: p.county_fips,
    metro_id: p.metro_id,
    latitude: p.latitude,
    longitude: p.longitude,
    sale_date: isoDate(day),
    sale_price: price,
    building_area_sqft: p.building_area_sqft,
    land_area_acres: p.land_area_acres,
    units: p.units,
    year_built: p.year_built,
    price_per_sqft: p.building_area_sqft ? Math.round((price / p.building_area_sqft) * 100) / 100 : null,
    price_per_unit: p.units ? Math.round(price / p.units) : null,
    price_per_acre: p.land_area_acres ? Math.round(price / p.land_area_acres) : null,
  };
}
