// How many rows of each kind a build makes, and how the work is cut into rounds. Both threads
// derive the same plan from the options, so they agree on ids and row order without talking.
import type { Listing, Parcel, SaleComp } from "../../contract/records";

/** Properties per round: one transaction, one batch to the parcel writer. */
export const ROUND_SIZE = 5_000;

export interface Plan {
  properties: number;
  parcels: number;
  /** Parcels without a commercial property (homes, farms, lots...), ids after the commercial ones. */
  otherParcels: number;
  listings: number;
  /** Commercial listings take the first listing ids; residential ones follow. */
  commercialListings: number;
  rounds: number;
}

export function planFor(properties: number): Plan {
  const parcels = Math.max(properties, Math.round(properties * 2.5));
  const listings = Math.round(properties * 0.5);
  return {
    properties,
    parcels,
    otherParcels: parcels - properties,
    listings,
    commercialListings: Math.round(properties * 0.125),
    rounds: Math.ceil(properties / ROUND_SIZE),
  };
}

/** The other parcels made in round k: an even share, so both threads pace together. */
export function otherParcelRange(plan: Plan, k: number): [start: number, end: number] {
  const per = Math.ceil(plan.otherParcels / plan.rounds);
  return [Math.min(plan.otherParcels, k * per), Math.min(plan.otherParcels, (k + 1) * per)];
}

/** Rows of one round that go to the part writer's tables. */
export interface RoundBatch {
  round: number;
  parcels: Parcel[];
  listings: Listing[];
  sales: SaleComp[];
}

/** The tables the part writer owns. */
export const PART_TABLES = ["parcels", "listings", "sales"] as const;
