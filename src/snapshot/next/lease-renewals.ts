// Leases that reach their expiration during the month and were not ended by a property's event
// (property-events.ts) are renewed for the same term, as the generator renews leases past the
// capture date: the rent roll stays current, and the tenancy row changes but the property does not.
import { dayOf, isoDate } from "../generate/dates";
import type { NextContext } from "./next-context";
import { monthsAfter } from "./property-events";

export function renewLeases(ctx: NextContext): void {
  const due = ctx.db
    .prepare("SELECT id, lease_start, lease_expiration FROM main.tenancies WHERE lease_expiration <= ? ORDER BY rowid")
    .all(isoDate(ctx.day)) as { id: string; lease_start: string; lease_expiration: string }[];
  const renew = ctx.db.prepare("UPDATE main.tenancies SET lease_expiration = ? WHERE id = ?");
  for (const l of due) {
    const start = dayOf(l.lease_start);
    const end = dayOf(l.lease_expiration) + 1; // the first day after the lease
    const s = new Date(start * 86_400_000);
    const e = new Date(end * 86_400_000);
    const term = Math.max(12, (e.getUTCFullYear() - s.getUTCFullYear()) * 12 + e.getUTCMonth() - s.getUTCMonth());
    let next = end;
    while (next <= ctx.day) next = monthsAfter(next, term);
    renew.run(isoDate(next - 1), l.id);
    ctx.tallies.leases_renewed++;
  }
}
