// A property sold during the month: a new sale record (the current owner sells to a buyer drawn
// as the generator draws owners, in proportion to what they already own), the buyer becomes the
// owner, the property's last_sale fields and its parcel's transfer follow, and an open listing
// of the property closes as sold. Prices are the estimated value with the generator's noise.
import type { CommercialProperty, SaleComp } from "../../contract/records";
import type { Random } from "../generate/random";
import type Database from "better-sqlite3";
import { dayOf, isoDate, yearOfDay } from "../generate/dates";
import { capRateShift } from "../generate/market-model";
import { soldProperty } from "../generate/sales";
import { type NextContext, countCompany, dayInMonth } from "./next-context";

const OWNER_USER = new Set(["office", "industrial", "flex", "retail", "health-care"]);

/** What a distressed sale's cap rate adds, as the generator prices one (generate/sales.ts). */
const DISTRESSED_CAP_PREMIUM = 0.012;

interface LastSale {
  cap_rate: number | null;
  sale_date: string;
  sale_type: string;
}

interface Company {
  id: string;
  name: string;
}

/** What the sales of a month draw from, loaded once from the previous snapshot. */
export class SalePools {
  /** Every property's owner, one entry per property: a draw is proportional to holdings. */
  private readonly owners: string[];
  private readonly brokers: Company[];
  private readonly names = new Map<string, string>();
  /** Median cap rate of each asset type's sales of the last two years (not distressed), for a property with no cap rate of its own. */
  private readonly medianCap = new Map<string, number>();
  /** Open (active or pending) listings of properties, by property id. */
  readonly openListings = new Map<string, { id: string; listed_date: string }>();
  /** Listings the sales closed, which the month's listing moves leave alone. */
  readonly closedListings = new Set<string>();
  private readonly nameOf: Database.Statement;
  private readonly capOf: Database.Statement;
  readonly transferParcel: Database.Statement;
  readonly closeListing: Database.Statement;

  constructor(ctx: NextContext) {
    const db = ctx.db;
    this.nameOf = db.prepare("SELECT name FROM prev.companies WHERE id = ?").pluck();
    this.capOf = db.prepare("SELECT cap_rate, sale_date, sale_type FROM prev.sales WHERE id = ?");
    this.transferParcel = db.prepare(
      "UPDATE main.parcels SET owner_name = ?, owner_type = 'company', last_sale_date = ?, last_sale_price = ? WHERE id = ?",
    );
    this.closeListing = db.prepare(
      "UPDATE main.listings SET status = 'sold', sold_price = ?, status_date = ?, days_on_market = ? WHERE id = ?",
    );
    this.owners = db.prepare("SELECT owner_id FROM prev.properties WHERE owner_id IS NOT NULL ORDER BY rowid").pluck().all() as string[];
    this.brokers = db.prepare("SELECT id, name FROM prev.companies WHERE company_type = 'broker' ORDER BY id").all() as Company[];
    const caps = db
      .prepare(
        `SELECT asset_type, cap_rate FROM prev.sales WHERE cap_rate IS NOT NULL AND sale_type <> 'distressed' AND sale_date > date(?, '-2 years')
         ORDER BY asset_type, cap_rate`,
      )
      .raw()
      .all(isoDate(ctx.prevDay)) as [string, number][];
    const byType = new Map<string, number[]>();
    for (const [t, c] of caps) (byType.get(t) ?? byType.set(t, []).get(t)!).push(c);
    for (const [t, list] of byType) this.medianCap.set(t, list[Math.floor(list.length / 2)]);
    for (const l of db
      .prepare(
        "SELECT id, property_id, listed_date FROM prev.listings WHERE property_id IS NOT NULL AND status IN ('active', 'pending') ORDER BY rowid",
      )
      .all() as { id: string; property_id: string; listed_date: string }[]) {
      this.openListings.set(l.property_id, { id: l.id, listed_date: l.listed_date });
    }
  }

  name(id: string): string {
    let n = this.names.get(id);
    if (n === undefined) {
      n = this.nameOf.get(id) as string;
      this.names.set(id, n);
    }
    return n;
  }

  buyer(rng: Random, seller: string | null): string {
    let id = rng.pick(this.owners);
    for (let tries = 0; id === seller && tries < 8; tries++) id = rng.pick(this.owners);
    return id;
  }

  broker(rng: Random): Company | null {
    return this.brokers.length && rng.chance(0.85) ? rng.pick(this.brokers) : null;
  }

  /**
   * The sale's cap rate: the property's own last one carried into this month's rate environment
   * (less the shift of the year it was struck and a distressed sale's discount, plus this year's
   * shift, as the generator prices sales), else the median of the type's, with the generator's
   * noise. Carrying an old cap rate as it was would bring a 2021 or 2010 rate into today's
   * medians.
   */
  capRate(p: CommercialProperty, day: number, distressed: boolean, rng: Random): number | null {
    if (p.asset_type === "land" || rng.chance(0.12)) return null;
    const last = p.last_sale_id ? (this.capOf.get(p.last_sale_id) as LastSale | undefined) : undefined;
    const own =
      last && last.cap_rate !== null
        ? last.cap_rate - capRateShift(yearOfDay(dayOf(last.sale_date))) - (last.sale_type === "distressed" ? DISTRESSED_CAP_PREMIUM : 0)
        : null;
    const base = own === null ? this.medianCap.get(p.asset_type) : own + capRateShift(yearOfDay(day));
    if (base === undefined) return null;
    const premium = distressed ? DISTRESSED_CAP_PREMIUM : 0;
    return Math.round(Math.min(0.15, Math.max(0.03, base + premium + rng.normal(0, 0.003))) * 10_000) / 10_000;
  }
}

function saleType(rng: Random, asset: string): SaleComp["sale_type"] {
  const x = rng.next();
  if (x < 0.04) return "distressed";
  if (x < 0.04 + (OWNER_USER.has(asset) ? 0.12 : 0)) return "owner_user";
  if (x < 0.22) return "portfolio";
  return "investment";
}

/** Sells `p` during the month; returns the property's changed fields. */
export function sell(ctx: NextContext, pools: SalePools, p: CommercialProperty, rng: Random): Partial<CommercialProperty> {
  const day = dayInMonth(ctx, rng);
  const base = p.estimated_value ?? p.last_sale_price ?? 1_000_000;
  const price = Math.max(10_000, Math.round((base * rng.lognormal(1, 0.08)) / 1000) * 1000);
  const type = saleType(rng, p.asset_type);
  const seller = p.owner_id ?? pools.buyer(rng, null);
  const buyer = pools.buyer(rng, seller);
  const broker = pools.broker(rng);
  const sale: SaleComp = {
    id: ctx.newId("sale"),
    object: "sale_comp",
    ...soldProperty(p, day, price),
    cap_rate: type === "owner_user" ? null : pools.capRate(p, day, type === "distressed", rng),
    occupancy_at_sale: p.occupancy_rate,
    sale_type: type,
    buyer_id: buyer,
    buyer_name: pools.name(buyer),
    seller_id: seller,
    seller_name: pools.name(seller),
    broker_id: broker?.id ?? null,
    broker_name: broker?.name ?? null,
  };
  ctx.w.insert("sales", sale);
  countCompany(ctx, buyer, 1);
  countCompany(ctx, p.owner_id, -1);
  countCompany(ctx, broker?.id ?? null, 1);
  if (p.parcel_id) {
    pools.transferParcel.run(sale.buyer_name, sale.sale_date, price, p.parcel_id);
  }
  const listing = pools.openListings.get(p.id);
  if (listing) {
    // A sold commercial listing is the property's latest recorded sale (as the generator makes them).
    pools.closeListing.run(price, sale.sale_date, Math.max(0, day - dayOf(listing.listed_date)), listing.id);
    pools.closedListings.add(listing.id);
    ctx.tallies.listings.sold++;
  }
  return { owner_id: buyer, owner_name: sale.buyer_name, last_sale_id: sale.id, last_sale_date: sale.sale_date, last_sale_price: price };
}
