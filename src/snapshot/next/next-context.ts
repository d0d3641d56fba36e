// What every step of a next-month build shares: the new file's connection (the previous snapshot
// attached to it as `prev`), the month's dates, the random streams, ids for new rows, and the
// tallies the command reports. Every draw comes from a stream seeded by the previous snapshot's
// id and the options, so the same inputs always give the same month.
import type Database from "better-sqlite3";
import type { SnapshotWriter } from "../snapshot-file";
import { Random } from "../generate/random";

export interface NextMonthTallies {
  properties: number;
  properties_changed: number;
  /** Changed properties by what happened to them. */
  by_event: Record<"sale" | "lease_signed" | "lease_ended" | "occupancy" | "asking_rent", number>;
  /** Leases that reached their expiration during the month in properties that did not change, renewed. */
  leases_renewed: number;
  /** Listings by what happened to them. */
  listings: Record<"pending" | "sold" | "withdrawn" | "expired" | "price_cut" | "new", number>;
}

export interface NextContext {
  w: SnapshotWriter;
  db: Database.Database;
  /** The previous capture day and this one (days since 1970-01-01): the month's events fall after the first, up to the second. */
  prevDay: number;
  day: number;
  /** One stream per step, so a change to one step leaves the others' draws alone. */
  stream(label: string): Random;
  /** An id for a new row: `<prefix>_<YYYYMM>-<n>`, which no generated id (a plain base-36 number) can be. */
  newId(prefix: "sale" | "ten" | "lst"): string;
  /** Changes to companies' property_count (owners bought or sold, tenants moved, brokers' sales), applied at the end. */
  companyDelta: Map<string, number>;
  /** Prepared UPDATE statements by their SQL (property-events.ts `update`). */
  statements: Map<string, Database.Statement>;
  tallies: NextMonthTallies;
}

export function nextContext(w: SnapshotWriter, seedText: string, prevDay: number, day: number, properties: number): NextContext {
  const month = new Date(day * 86_400_000).toISOString().slice(0, 7).replace("-", "");
  const seq = { sale: 0, ten: 0, lst: 0 };
  return {
    w,
    db: w.db,
    prevDay,
    day,
    stream: (label) => new Random(0, `${seedText}:${label}`),
    newId: (prefix) => `${prefix}_${month}-${(++seq[prefix]).toString(36).padStart(5, "0")}`,
    companyDelta: new Map(),
    statements: new Map(),
    tallies: {
      properties,
      properties_changed: 0,
      by_event: { sale: 0, lease_signed: 0, lease_ended: 0, occupancy: 0, asking_rent: 0 },
      leases_renewed: 0,
      listings: { pending: 0, sold: 0, withdrawn: 0, expired: 0, price_cut: 0, new: 0 },
    },
  };
}

/** Adds to a company's property_count (kept at zero or above when applied). */
export function countCompany(ctx: NextContext, id: string | null, by: number): void {
  if (id) ctx.companyDelta.set(id, (ctx.companyDelta.get(id) ?? 0) + by);
}

/** A day of the month the snapshot moves over: after the previous capture, up to this one. */
export function dayInMonth(ctx: NextContext, rng: Random): number {
  return rng.int(ctx.prevDay + 1, ctx.day);
}

/** The same date-time one calendar month later (the 31st of a short month becomes its last day). */
export function oneMonthLater(capturedAt: string): string {
  const t = new Date(capturedAt);
  const day = t.getUTCDate();
  const next = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1, t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()));
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, last));
  return next.toISOString().replace(/\.\d{3}Z$/, "Z");
}
