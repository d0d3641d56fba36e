// The month's listings. Shares are monthly, of the listings in each status in the previous snapshot:
//   active   12% go under contract (pending), 3% are withdrawn, 2% expire; of those still active,
//            6% cut their price by 2-8%. Every listing still active counts its days on market to
//            the new capture date (listed_date to capture, as the generator defines it).
//   pending  45% of homes close (sold, at 98.5% of the asking price, sd 2.5%). A commercial
//            listing closes only with its property's sale (sale-event.ts), so a sold commercial
//            listing is always a recorded sale.
//   new      2.5% of the listing count: a quarter on commercial properties with no open listing,
//            the rest homes and lots on residential and vacant parcels with none.
// Withdrawn, expired and sold listings stay as they were.
import type { CommercialProperty, Listing, Parcel } from "../../contract/records";
import { personName } from "../generate/addresses";
import { dayOf, isoDate } from "../generate/dates";
import { mls, residentialType, rooms } from "../generate/listings";
import { type Random, Selector } from "../generate/random";
import { type NextContext, dayInMonth } from "./next-context";
import { update } from "./property-events";

const NEW_LISTINGS = 0.025;
const RESIDENTIAL_USES = ["residential_single_family", "residential_multi_family", "vacant"];

interface OpenListing {
  id: string;
  status: Listing["status"];
  listed_date: string;
  list_price: number;
  building_area_sqft: number | null;
  property_id: string | null;
}

export function moveListings(ctx: NextContext, closed: Set<string>): void {
  const rng = ctx.stream("listings");
  const t = ctx.tallies.listings;
  const rows = ctx.db
    .prepare(
      "SELECT id, status, listed_date, list_price, building_area_sqft, property_id FROM prev.listings WHERE status IN ('active', 'pending') ORDER BY rowid",
    )
    .all() as OpenListing[];
  for (const l of rows) {
    if (closed.has(l.id)) continue;
    const listed = dayOf(l.listed_date);
    const x = rng.next();
    if (l.status === "pending") {
      if (l.property_id !== null || x >= 0.45) continue;
      const day = dayInMonth(ctx, rng);
      const sold = Math.round((l.list_price * rng.normal(0.985, 0.025)) / 500) * 500;
      update(ctx, "listings", l.id, { status: "sold", sold_price: sold, status_date: isoDate(day), days_on_market: day - listed });
      t.sold++;
    } else if (x < 0.17) {
      const status = x < 0.12 ? "pending" : x < 0.15 ? "withdrawn" : "expired";
      const day = dayInMonth(ctx, rng);
      update(ctx, "listings", l.id, { status, status_date: isoDate(day), days_on_market: day - listed });
      t[status]++;
    } else if (rng.chance(0.06)) {
      const step = l.property_id === null ? 1_000 : 5_000;
      const price = Math.max(step, Math.round((l.list_price * (1 - rng.uniform(0.02, 0.08))) / step) * step);
      const perSqft = l.building_area_sqft ? Math.round((price / l.building_area_sqft) * 100) / 100 : null;
      update(ctx, "listings", l.id, { list_price: price, price_per_sqft: perSqft, days_on_market: ctx.day - listed });
      t.price_cut++;
    } else {
      update(ctx, "listings", l.id, { days_on_market: ctx.day - listed });
    }
  }
  newListings(ctx, rng);
}

/** A new listing's address and position, from its property or parcel, and its asking price. */
function placeAndPrice(
  p: Pick<Parcel, "address" | "city" | "state_code" | "zip" | "latitude" | "longitude" | "building_area_sqft">,
  price: number,
) {
  return {
    address: p.address,
    city: p.city,
    state_code: p.state_code,
    zip: p.zip,
    latitude: p.latitude,
    longitude: p.longitude,
    list_price: price,
    original_list_price: price,
    price_per_sqft: p.building_area_sqft ? Math.round((price / p.building_area_sqft) * 100) / 100 : null,
  };
}

function newListings(ctx: NextContext, rng: Random): void {
  const db = ctx.db;
  const count = Math.round(NEW_LISTINGS * (db.prepare("SELECT count(*) FROM prev.listings").pluck().get() as number));
  const commercial = Math.round(count / 4);
  const brokers = db.prepare("SELECT id, name FROM prev.companies WHERE company_type = 'broker' ORDER BY id").all() as {
    id: string;
    name: string;
  }[];
  const taken = new Set(db.prepare("SELECT mls_number FROM prev.listings").pluck().all() as string[]);
  let n = taken.size;
  const common = (state: string) => {
    let number = mls(state, n++);
    while (taken.has(number)) number = mls(state, n++);
    taken.add(number);
    const day = dayInMonth(ctx, rng);
    const broker = rng.pick(brokers);
    const { first, last } = personName(rng);
    return {
      id: ctx.newId("lst"),
      object: "listing" as const,
      mls_number: number,
      status: "active" as const,
      listed_date: isoDate(day),
      status_date: isoDate(day),
      days_on_market: ctx.day - day,
      agent_name: `${first} ${last}`,
      brokerage_id: broker.id,
      brokerage_name: broker.name,
      sold_price: null,
    };
  };
  const properties = db
    .prepare(
      `SELECT id FROM prev.properties WHERE estimated_value IS NOT NULL
       AND id NOT IN (SELECT property_id FROM prev.listings WHERE property_id IS NOT NULL AND status IN ('active', 'pending')) ORDER BY rowid`,
    )
    .pluck()
    .all() as string[];
  const readProperty = db.prepare("SELECT * FROM main.properties WHERE id = ?");
  const pickP = new Selector(Math.min(commercial, properties.length), properties.length);
  for (const id of properties) {
    if (!pickP.take(rng)) continue;
    const p = readProperty.get(id) as CommercialProperty;
    const price = Math.round((p.estimated_value! * rng.lognormal(1.04, 0.05)) / 5_000) * 5_000;
    const listing: Listing = {
      ...common(p.state_code),
      property_type: p.asset_type === "land" ? "land" : p.units !== null && p.asset_type !== "hospitality" ? "multi_family" : "commercial",
      ...placeAndPrice(p, price),
      bedrooms: null,
      bathrooms: null,
      building_area_sqft: p.building_area_sqft,
      lot_area_sqft: p.land_area_acres !== null ? Math.round(p.land_area_acres * 43_560) : null,
      year_built: p.year_built,
      parcel_id: p.parcel_id,
      property_id: p.id,
    };
    ctx.w.insert("listings", listing);
    ctx.tallies.listings.new++;
  }
  const parcels = db
    .prepare(
      `SELECT id FROM prev.parcels WHERE property_id IS NULL AND land_use IN (${RESIDENTIAL_USES.map(() => "?").join(", ")})
       AND assessed_total_value > 0 AND id NOT IN (SELECT parcel_id FROM prev.listings WHERE parcel_id IS NOT NULL) ORDER BY rowid`,
    )
    .pluck()
    .all(...RESIDENTIAL_USES) as string[];
  const readParcel = db.prepare("SELECT * FROM prev.parcels WHERE id = ?");
  const pickR = new Selector(Math.min(count - commercial, parcels.length), parcels.length);
  for (const id of parcels) {
    if (!pickR.take(rng)) continue;
    const p = readParcel.get(id) as Parcel;
    const type = residentialType(rng, p.land_use);
    // Assessments run below market: asking prices sit about 15% above them.
    const price = Math.max(10_000, Math.round((p.assessed_total_value * 1.1 * rng.lognormal(1.04, 0.05)) / 1_000) * 1_000);
    const [bedrooms, bathrooms] = rooms(rng, type, p.building_area_sqft);
    const listing: Listing = {
      ...common(p.state_code),
      property_type: type,
      ...placeAndPrice(p, price),
      bedrooms,
      bathrooms,
      building_area_sqft: p.building_area_sqft,
      lot_area_sqft: p.lot_area_sqft,
      year_built: p.year_built,
      parcel_id: p.id,
      property_id: null,
    };
    ctx.w.insert("listings", listing);
    ctx.tallies.listings.new++;
  }
}
