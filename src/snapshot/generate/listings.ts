// Listings: homes on residential parcels and commercial properties for sale, in every status.
// Dates run back from the capture date. days_on_market is listed_date to status_date for
// closed-out statuses (pending, sold, withdrawn, expired) and listed_date to the capture date
// for active listings. A sold commercial listing is the property's latest recorded sale.
import type { Listing, SaleComp } from "../../contract/records";
import type { ListingStatus } from "../../contract/vocabulary";
import { personName } from "./addresses";
import { drawFrom } from "./companies";
import type { GenContext } from "./context";
import { dayOf, isoDate } from "./dates";
import type { OtherParcel } from "./parcels";
import type { PropertyDraft } from "./properties";
import type { Random } from "./random";

const RESIDENTIAL_STATUS: [ListingStatus, number][] = [
  ["active", 28],
  ["pending", 12],
  ["sold", 42],
  ["withdrawn", 9],
  ["expired", 9],
];
const COMMERCIAL_STATUS: [ListingStatus, number][] = [
  ["active", 50],
  ["pending", 15],
  ["withdrawn", 17],
  ["expired", 18],
];

interface Timeline {
  listed: number;
  statusDay: number;
  dom: number;
}

function timeline(rng: Random, status: ListingStatus, captureDay: number, medianDom: number): Timeline {
  const dom = Math.max(1, Math.round(rng.lognormal(medianDom, 0.75)));
  if (status === "active") return { listed: captureDay - dom, statusDay: captureDay - dom, dom };
  const statusDay = captureDay - (status === "pending" ? rng.int(0, 45) : rng.int(1, 365));
  const span = status === "expired" ? rng.pick([90, 180, 180, 365]) : status === "withdrawn" ? Math.round(dom * 1.3) : dom;
  return { listed: statusDay - span, statusDay, dom: span };
}

/** Asking price history: long-listed properties often took a cut. */
function prices(rng: Random, value: number, dom: number, slowAfter: number, step: number): [original: number, current: number] {
  const original = Math.round((value * rng.lognormal(1.04, 0.05)) / step) * step;
  const cut = dom > slowAfter && rng.chance(0.5) ? rng.uniform(0.02, 0.1) : 0;
  return [original, Math.round((original * (1 - cut)) / step) * step];
}

export function mls(state: string, n: number): string {
  // (n * 7919 + 1234567) mod 10^7 is one-to-one for n < 10^7: unique, yet not sequential-looking.
  return `${state}${String((n * 7919 + 1_234_567) % 10_000_000).padStart(7, "0")}`;
}

function agent(ctx: GenContext) {
  const broker = drawFrom(ctx.pools.brokers, ctx.rng);
  const { first, last } = personName(ctx.rng);
  return { agent_name: `${first} ${last}`, brokerage_id: broker.id, brokerage_name: broker.name };
}

export function commercialListing(ctx: GenContext, d: PropertyDraft, n: number, id: string, lastSale: SaleComp | undefined): Listing {
  const { rng, captureDay } = ctx;
  const r = d.row;
  const soldRecently = lastSale && captureDay - dayOf(lastSale.sale_date) <= 365;
  const status: ListingStatus = soldRecently ? "sold" : rng.weighted(COMMERCIAL_STATUS);
  let t = timeline(rng, status, captureDay, 150);
  if (soldRecently) {
    const day = dayOf(lastSale.sale_date);
    t = { listed: day - t.dom, statusDay: day, dom: t.dom };
  }
  const [original, list] = prices(rng, soldRecently ? lastSale.sale_price : r.estimated_value!, t.dom, 150, 5_000);
  return {
    id,
    object: "listing",
    mls_number: mls(r.state_code, n),
    status,
    property_type: r.asset_type === "land" ? "land" : r.units !== null && r.asset_type !== "hospitality" ? "multi_family" : "commercial",
    address: r.address,
    city: r.city,
    state_code: r.state_code,
    zip: r.zip,
    latitude: r.latitude,
    longitude: r.longitude,
    list_price: list,
    original_list_price: original,
    sold_price: soldRecently ? lastSale.sale_price : null,
    price_per_sqft: r.building_area_sqft ? Math.round((list / r.building_area_sqft) * 100) / 100 : null,
    bedrooms: null,
    bathrooms: null,
    building_area_sqft: r.building_area_sqft,
    lot_area_sqft: r.land_area_acres !== null ? Math.round(r.land_area_acres * 43_560) : null,
    year_built: r.year_built,
    listed_date: isoDate(t.listed),
    status_date: isoDate(t.statusDay),
    days_on_market: t.dom,
    ...agent(ctx),
    parcel_id: r.parcel_id,
    property_id: r.id,
  };
}

export function rooms(rng: Random, type: Listing["property_type"], sqft: number | null): [number | null, number | null] {
  if (sqft === null || type === "land" || type === "commercial") return [null, null];
  const beds = Math.max(type === "condo" ? 0 : 1, Math.min(type === "multi_family" ? 10 : 7, Math.round(sqft / 600 + rng.normal(0, 0.7))));
  const baths = Math.max(1, Math.min(6, Math.round((Math.max(1, beds) * 0.75 + rng.normal(0.3, 0.4)) * 2) / 2));
  return [beds, baths];
}

/** What a residential parcel is listed as: land if vacant, else a dwelling type its land use allows. */
export function residentialType(rng: Random, landUse: string): Listing["property_type"] {
  if (landUse === "vacant") return "land";
  if (landUse === "residential_multi_family") return rng.chance(0.6) ? "condo" : "multi_family";
  return rng.chance(0.85) ? "single_family" : "townhouse";
}

export function residentialListing(ctx: GenContext, o: OtherParcel, n: number, id: string): Listing {
  const { rng, captureDay } = ctx;
  const p = o.parcel;
  const type = residentialType(rng, p.land_use);
  const status = rng.weighted(RESIDENTIAL_STATUS);
  const t = timeline(rng, status, captureDay, 35);
  const [original, list] = prices(rng, o.value, t.dom, 45, 1_000);
  const sold = status === "sold" ? Math.round((list * rng.normal(0.985, 0.025)) / 500) * 500 : null;
  const [bedrooms, bathrooms] = rooms(rng, type, p.building_area_sqft);
  return {
    id,
    object: "listing",
    mls_number: mls(p.state_code, n),
    status,
    property_type: type,
    address: p.address,
    city: p.city,
    state_code: p.state_code,
    zip: p.zip,
    latitude: p.latitude,
    longitude: p.longitude,
    list_price: list,
    original_list_price: original,
    sold_price: sold,
    price_per_sqft: p.building_area_sqft ? Math.round((list / p.building_area_sqft) * 100) / 100 : null,
    bedrooms,
    bathrooms,
    building_area_sqft: p.building_area_sqft,
    lot_area_sqft: p.lot_area_sqft,
    year_built: p.year_built,
    listed_date: isoDate(t.listed),
    status_date: isoDate(t.statusDay),
    days_on_market: t.dom,
    ...agent(ctx),
    parcel_id: p.id,
    property_id: null,
  };
}
