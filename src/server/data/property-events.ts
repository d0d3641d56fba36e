// A property's history as events: its completion (from year_built, in the quarter market
// history counts it), each recorded sale, and each lease's start and expiration. The owner after
// each event is the buyer of the latest sale on or before it; before the first recorded sale,
// that sale's seller; with no sales at all, the owner the property records. Three seeks: the
// property, its sales and its leases (both indexed by property and date).
import type { PropertyEvent } from "../../contract/history";
import { PROPERTY_EVENT_TYPES } from "../../contract/history";
import { completionQuarter, quarterOf, quarterStart } from "../../contract/periods";
import type { SnapshotContext } from "./snapshot-context";

interface PropertyRow {
  id: string;
  year_built: number | null;
  owner_id: string | null;
  owner_name: string | null;
}

interface SaleRow {
  id: string;
  sale_date: string;
  sale_price: number;
  price_per_sqft: number | null;
  cap_rate: number | null;
  sale_type: string;
  buyer_id: string;
  buyer_name: string;
  seller_id: string;
  seller_name: string;
}

interface LeaseRow {
  id: string;
  tenant_id: string;
  tenant_name: string | null;
  suite: string | null;
  leased_area_sqft: number | null;
  lease_start: string;
  lease_expiration: string;
  rent_sqft_year: number | null;
}

const TYPE_ORDER = new Map<string, number>(PROPERTY_EVENT_TYPES.map((t, i) => [t, i]));
const usd = (n: number) => `$${Math.round(n).toLocaleString("en-US")}`;

function blank(property: string, date: string, type: PropertyEvent["event_type"], record: string | null): PropertyEvent {
  return {
    id: `${type}_${record ?? property}`,
    object: "property_event",
    property_id: property,
    date,
    event_type: type,
    record_id: record,
    owner_id: null,
    owner_name: null,
    counterparty_id: null,
    counterparty_name: null,
    price: null,
    price_per_sqft: null,
    cap_rate: null,
    sale_type: null,
    leased_area_sqft: null,
    rent_sqft_year: null,
    description: "",
  };
}

function leaseWords(l: LeaseRow): string {
  const who = l.tenant_name ?? l.tenant_id;
  const area = l.leased_area_sqft === null ? "" : ` ${Math.round(l.leased_area_sqft).toLocaleString("en-US")} sq ft`;
  const suite = l.suite ? ` (suite ${l.suite})` : "";
  return `${who}${area}${suite}`;
}

/** Every event of a property, oldest first; undefined when the snapshot has no such property. */
export function propertyEvents(snapshot: SnapshotContext, propertyId: string): PropertyEvent[] | undefined {
  const p = snapshot.get<PropertyRow>("SELECT id, year_built, owner_id, owner_name FROM properties WHERE id = ?", [propertyId]);
  if (!p) return undefined;
  const sales = snapshot.all<SaleRow>(
    `SELECT id, sale_date, sale_price, price_per_sqft, cap_rate, sale_type, buyer_id, buyer_name, seller_id, seller_name
    FROM sales WHERE property_id = ? ORDER BY sale_date, id`,
    [p.id],
  );
  const leases = snapshot.all<LeaseRow>(
    // The tenant's name by a subquery rather than a LEFT JOIN: on an older version of a store,
    // companies is a union view, which SQLite would read whole to join it on the right of a LEFT JOIN.
    `SELECT t.id, t.tenant_id, (SELECT c.name FROM companies c WHERE c.id = t.tenant_id) AS tenant_name, t.suite, t.leased_area_sqft,
      t.lease_start, t.lease_expiration, t.rent_sqft_year
    FROM tenancies t WHERE t.property_id = ? ORDER BY t.lease_start, t.id`,
    [p.id],
  );
  const ownerOn = (date: string): [string | null, string | null] => {
    let owner: [string | null, string | null] = sales.length ? [sales[0].seller_id, sales[0].seller_name] : [p.owner_id, p.owner_name];
    for (const s of sales) if (s.sale_date <= date) owner = [s.buyer_id, s.buyer_name];
    return owner;
  };
  const events: PropertyEvent[] = [];
  const built = completionQuarter(p.id, p.year_built, quarterOf(snapshot.asOf));
  if (built !== null) {
    const e = blank(p.id, quarterStart(built), "built", null);
    [e.owner_id, e.owner_name] = ownerOn(e.date);
    e.description = `Built in ${p.year_built}`;
    events.push(e);
  }
  for (const s of sales) {
    const e = blank(p.id, s.sale_date, "sale", s.id);
    Object.assign(e, {
      owner_id: s.buyer_id,
      owner_name: s.buyer_name,
      counterparty_id: s.seller_id,
      counterparty_name: s.seller_name,
      price: s.sale_price,
      price_per_sqft: s.price_per_sqft,
      cap_rate: s.cap_rate,
      sale_type: s.sale_type,
      description: `Sold by ${s.seller_name} to ${s.buyer_name} for ${usd(s.sale_price)}`,
    });
    events.push(e);
  }
  for (const l of leases) {
    for (const type of ["lease_start", "lease_expiration"] as const) {
      const date = type === "lease_start" ? l.lease_start : l.lease_expiration;
      const e = blank(p.id, date, type, l.id);
      [e.owner_id, e.owner_name] = ownerOn(date);
      Object.assign(e, {
        counterparty_id: l.tenant_id,
        counterparty_name: l.tenant_name,
        leased_area_sqft: l.leased_area_sqft,
        rent_sqft_year: l.rent_sqft_year,
      });
      const rent = l.rent_sqft_year === null ? "" : ` at ${usd(l.rent_sqft_year)}/sq ft/yr`;
      e.description =
        type === "lease_start"
          ? `${leaseWords(l)} leased${rent}`
          : `Lease of ${leaseWords(l)} ${date <= snapshot.asOf ? "expired" : "expires"}`;
      events.push(e);
    }
  }
  return events.sort(
    (a, b) =>
      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
      TYPE_ORDER.get(a.event_type)! - TYPE_ORDER.get(b.event_type)! ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
