// Which snapshot the service serves, as the answers tell it, and when each snapshot seen was
// captured. An answer confirmed unchanged by a later snapshot (a 304) is restamped with that
// snapshot's identity, so what a cell shows names the snapshot it now stands for.
import type { ListEnvelope } from "../contract/list-envelope";

export class SnapshotTracker {
  /** The snapshot the latest unpinned answer came from, if any answer named one. */
  current: string | null = null;
  /** Capture times of the snapshots seen (answers' refs, coverage's kept list), by id. */
  private readonly capturedAt = new Map<string, string>();

  /** Remembers the capture times an answer names (its snapshot ref; coverage's kept snapshots). */
  note(body: unknown): void {
    const b = body as { snapshot?: { id?: unknown; captured_at?: unknown }; snapshots?: { id: string; captured_at: string }[] } | null;
    if (typeof b?.snapshot?.id === "string" && typeof b.snapshot.captured_at === "string")
      this.capturedAt.set(b.snapshot.id, b.snapshot.captured_at);
    for (const kept of Array.isArray(b?.snapshots) ? b.snapshots : []) this.capturedAt.set(kept.id, kept.captured_at);
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
