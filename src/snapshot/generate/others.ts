// The parcels with no commercial property (homes, small multi-family, farms, lots,
// institutional) and the residential listings on some of them. They come from their own
// random stream, one round at a time, so they can be made in a second thread.
import type { SnapshotWriter } from "../snapshot-file";
import type { GenContext } from "./context";
import { seqId } from "./ids";
import { residentialListing } from "./listings";
import { otherParcel } from "./parcels";
import { otherParcelRange, type Plan, type RoundBatch } from "./plan";
import { AliasTable, Random, Selector } from "./random";

export class OtherParcels {
  private readonly ctx: GenContext;
  private readonly picker: AliasTable;
  private readonly listed: Selector;
  private nextListing: number;

  constructor(
    base: GenContext,
    private readonly plan: Plan,
  ) {
    this.ctx = { ...base, rng: new Random(base.seed, "parcels") };
    this.picker = new AliasTable(base.geo.cities.map((c) => c.population));
    this.listed = new Selector(plan.listings - plan.commercialListings, plan.otherParcels);
    this.nextListing = plan.commercialListings;
  }

  /** Writes round k's share of parcels and listings (call rounds in order, inside a transaction). */
  writeRound(w: SnapshotWriter, k: number): void {
    const { ctx } = this;
    const [start, end] = otherParcelRange(this.plan, k);
    for (let j = start; j < end; j++) {
      const city = ctx.geo.cities[this.picker.draw(ctx.rng)];
      const listed = this.listed.take(ctx.rng);
      const o = otherParcel(ctx, city, seqId("par", this.plan.properties + j), listed);
      if (listed) {
        const n = this.nextListing++;
        const listing = residentialListing(ctx, o, n, seqId("lst", n));
        if (listing.status === "sold") {
          o.parcel.last_sale_date = listing.status_date; // the closing is the parcel's latest transfer
          o.parcel.last_sale_price = listing.sold_price;
        }
        w.insert("listings", listing);
      }
      w.insert("parcels", o.parcel);
    }
  }
}

export function insertBatch(w: SnapshotWriter, b: RoundBatch): void {
  for (const r of b.parcels) w.insert("parcels", r);
  for (const r of b.listings) w.insert("listings", r);
  for (const r of b.sales) w.insert("sales", r);
}
