// Which snapshot the service serves, as the answers tell it, and when each snapshot seen was
// captured. An answer confirmed unchanged by a later snapshot (a 304) is restamped with that
// snapshot's identity, so what a cell shows names the snapshot it now stands for. It also
// holds the snapshots the service keeps (coverage's list, with when each retires), which say
// what a pin (as_of=) names now: a kept snapshot, or data no longer served.
import type { ListEnvelope } from "../contract/list-envelope";
import type { KeptSnapshot } from "../contract/snapshot-select";
import type { SnapshotPin } from "./request-keys";

export class SnapshotTracker {
  /** The snapshot the latest unpinned answer came from, if any answer named one. */
  current: string | null = null;
  /** Capture times of the snapshots seen (answers' refs, coverage's kept list), by id. */
  private readonly capturedAt = new Map<string, string>();
  /** The snapshots the service keeps, newest first, as coverage last listed them; null before any coverage. */
  kept: KeptSnapshot[] | null = null;

  /** Remembers the capture times an answer names (its snapshot ref; coverage's kept snapshots). */
  note(body: unknown): void {
    const b = body as { snapshot?: { id?: unknown; captured_at?: unknown }; snapshots?: { id: string; captured_at: string }[] } | null;
    if (typeof b?.snapshot?.id === "string" && typeof b.snapshot.captured_at === "string")
      this.capturedAt.set(b.snapshot.id, b.snapshot.captured_at);
    for (const kept of Array.isArray(b?.snapshots) ? b.snapshots : []) this.capturedAt.set(kept.id, kept.captured_at);
    if (Array.isArray(b?.snapshots) && (b as { object?: unknown }).object === "coverage") this.kept = b.snapshots as KeptSnapshot[];
  }

  /** When snapshot `id` was captured, if an answer said. */
  capturedAtOf(id: string): string | null {
    return this.capturedAt.get(id) ?? null;
  }

  /**
   * `value` confirmed unchanged by snapshot `id`, stamped with it: the `snapshot` a list or
   * comparison names, and a market's `as_of`, which is the capture date of the snapshot its
   * figures describe. Anything else, or a snapshot whose capture time is unknown, is returned
   * as it is (the same object).
   */
  restamp(value: unknown, id: string): unknown {
    const capturedAt = this.capturedAt.get(id);
    if (capturedAt === undefined || value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const v = value as Record<string, unknown>;
    if (v.object === "market_snapshot") return { ...v, as_of: capturedAt.slice(0, 10) };
    if (v.snapshot && typeof v.snapshot === "object") return { ...v, snapshot: { id, captured_at: capturedAt } };
    return value;
  }
}

/** The snapshot an answer names, if it names one. */
export function snapshotOf(body: unknown): string | null {
  const id = (body as Partial<Pick<ListEnvelope, "snapshot">> | null)?.snapshot?.id;
  return typeof id === "string" ? id : null;
}

/** The pin a cache key's request names (its `snapshot` or `as_of` query input), if any. */
export function pinOfKey(key: string): SnapshotPin | undefined {
  const target = key.slice(key.indexOf("|") + 1).split(" ")[1] ?? "";
  const query = new URLSearchParams(target.includes("?") ? target.slice(target.indexOf("?") + 1) : "");
  const snapshot = query.get("snapshot");
  if (snapshot) return { snapshot };
  const asOf = query.get("as_of");
  return asOf ? { as_of: asOf } : undefined;
}

/**
 * The kept snapshot a pin names, by the service's rule: the one with that id, or the newest
 * captured on or before the date (`kept` newest first, as coverage lists them). Undefined when
 * none is kept: the pin's data is no longer served (or never was).
 */
export function keptFor(pin: SnapshotPin, kept: readonly KeptSnapshot[]): KeptSnapshot | undefined {
  return "snapshot" in pin ? kept.find((k) => k.id === pin.snapshot) : kept.find((k) => k.captured_at.slice(0, 10) <= pin.as_of);
}

/**
 * Whether a refresh leaves a cached result as it is rather than revalidating it. A result
 * pinned by id is that snapshot's for good. A result pinned to a date is kept while the date
 * still names the snapshot it came from (or, when the answer did not say which, the one the
 * date named before this refresh): that snapshot's data never changes, so asking again would
 * only cost a request. A pin whose data is no longer served keeps the value it has: asking
 * again would only replace a good value with the refusal (the pane lists those cells instead).
 * Unpinned results, and date pins when the service lists no snapshots, are left to revalidate.
 */
export function keptOnRefresh(
  entry: { key: string; snapshotId: string | null },
  before: readonly KeptSnapshot[] | null | undefined,
  now: readonly KeptSnapshot[] | null | undefined,
): boolean {
  const pin = pinOfKey(entry.key);
  if (!pin) return false;
  if ("snapshot" in pin) return true;
  if (!now) return false;
  const named = keptFor(pin, now);
  if (!named) return true;
  if (entry.snapshotId) return entry.snapshotId === named.id;
  return before ? keptFor(pin, before)?.id === named.id : false;
}
