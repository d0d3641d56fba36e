// The wording of the pane's status card: plan and credits, the snapshot in use, the last
// refresh. Plain functions over plain data, so tests read the sentences without a DOM.
import type { CreditState } from "../shared/credit-meter";
import { planName } from "../shared/credit-headers";
import type { SnapshotRef } from "../contract/snapshot-ref";

/** "1 Dec 2026", in UTC: credit periods and snapshot times are UTC. */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return "unknown";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "unknown";
  return at.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/** "22 Nov 2026, 14:03 UTC". */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return "never";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "never";
  const time = at.toISOString().slice(11, 16);
  return `${formatDay(iso)}, ${time} UTC`;
}

export interface CreditSummary {
  plan: string;
  /** "812 of 1,000 credits left" */
  left: string;
  /** 0..1 for the meter bar; null when unknown. */
  fraction: number | null;
  resets: string;
  /** True when nothing metered can be called until the reset. */
  exhausted: boolean;
}

export function creditSummary(state: CreditState | null): CreditSummary | null {
  if (!state || state.limit === null) return null;
  const remaining = state.remaining ?? state.limit;
  const fmt = (n: number) => n.toLocaleString("en-US");
  return {
    plan: planName(state.plan),
    left: `${fmt(remaining)} of ${fmt(state.limit)} credits left`,
    fraction: state.limit > 0 ? Math.max(0, Math.min(1, remaining / state.limit)) : null,
    resets: `Resets ${formatDay(state.resetsAt)}`,
    exhausted: remaining <= 0,
  };
}

/**
 * The data in use, by the day it was captured ("Data captured 1 Nov 2026"), which is what an
 * analyst dates a model by; the snapshot's id, what support and the freeze notes quote, is the
 * detail shown beside it.
 */
export function snapshotLine(snapshot: SnapshotRef | null | undefined): { text: string; detail: string | null } {
  if (!snapshot) return { text: "Snapshot not known yet", detail: null };
  const day = formatDay(snapshot.captured_at);
  return { text: day === "unknown" ? "Capture date not known" : `Data captured ${day}`, detail: `Snapshot ${snapshot.id}` };
}

/** What the folded Connection card's header says: "Connected, Explorer plan". */
export function connectionSummary(connected: boolean, credits: CreditState | null): string {
  if (!connected) return "Not connected";
  return credits?.plan ? `Connected, ${planName(credits.plan)} plan` : "Connected";
}

/** What the folded Status card's header says: "812 credits left", or that there are none. */
export function statusSummary(credits: CreditState | null): string {
  const summary = creditSummary(credits);
  if (!summary) return "Credits known after the first call";
  if (summary.exhausted) return "Out of credits";
  return `${(credits!.remaining ?? credits!.limit ?? 0).toLocaleString("en-US")} credits left`;
}
