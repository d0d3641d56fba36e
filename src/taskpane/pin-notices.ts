// What the pane says about pinned formulas (as_of=) and the service's retention: the cells
// pinned to data no longer served (they keep the values they had: a refresh does not replace
// them with the refusal), and the cells whose snapshot retires within RETIRING_DAYS, with the
// advice to freeze those values now. Pins are read from the formulas' text, as formula-pin.ts
// writes them, and resolved against coverage's kept list by the service's rule.
import type { KeptSnapshot } from "../contract/snapshot-select";
import { parsePin } from "../functions/snapshot-pin";
import type { SnapshotPin } from "../shared/request-keys";
import { keptFor } from "../shared/snapshot-tracker";
import type { FormulaCell } from "./workbook-types";

/** How close to its retirement a pinned snapshot is announced. */
export const RETIRING_DAYS = 30;
const DAY_MS = 86_400_000;

/** A formula's cell and the pin its text names. */
export interface PinnedCell {
  address: string;
  pin: SnapshotPin;
}

export interface PinNotices {
  /** Cells pinned to data the service no longer serves. */
  retired: PinnedCell[];
  /** Cells whose pinned snapshot retires within RETIRING_DAYS, each with that snapshot. */
  retiring: (PinnedCell & { snapshot: KeptSnapshot })[];
}

const AS_OF = /as_of\s*=\s*([^;"]+)/gi;

/** The pins a formula's text names (the as_of options of its PROP calls); a value that is not a pin is skipped. */
export function formulaPins(formula: string): SnapshotPin[] {
  const pins: SnapshotPin[] = [];
  for (const match of formula.matchAll(AS_OF)) {
    try {
      const pin = parsePin(match[1].trim());
      if (!pins.some((p) => JSON.stringify(p) === JSON.stringify(pin))) pins.push(pin);
    } catch {
      // Not a fixed date or an id: the function says so in its cell.
    }
  }
  return pins;
}

/** The pinned cells among `cells`, one entry a pin. */
export function pinnedCells(cells: readonly FormulaCell[]): PinnedCell[] {
  return cells.flatMap((cell) => formulaPins(cell.formula).map((pin) => ({ address: cell.address, pin })));
}

/** The pinned cells retired or retiring, against the kept list (newest first) and the clock `now`. */
export function pinNotices(pinned: readonly PinnedCell[], kept: readonly KeptSnapshot[] | undefined, now: Date): PinNotices {
  const notices: PinNotices = { retired: [], retiring: [] };
  if (!kept || kept.length === 0) return notices;
  for (const cell of pinned) {
    const snapshot = keptFor(cell.pin, kept);
    if (!snapshot) notices.retired.push(cell);
    else if (!snapshot.latest && snapshot.retires_at && Date.parse(snapshot.retires_at) - now.getTime() <= RETIRING_DAYS * DAY_MS) {
      notices.retiring.push({ ...cell, snapshot });
    }
  }
  return notices;
}

/** A list of cells, the first few by address and the rest counted. */
function cellList(cells: readonly PinnedCell[], shown = 5): string {
  const addresses = [...new Set(cells.map((c) => c.address))];
  const more = addresses.length - shown;
  return addresses.slice(0, shown).join(", ") + (more > 0 ? ` and ${more} more` : "");
}

const count = (cells: readonly PinnedCell[]) => {
  const n = new Set(cells.map((c) => c.address)).size;
  return n === 1 ? "1 cell is" : `${n} cells are`;
};

/** What the pane says of the notices: one line each for the retired and the retiring cells; none when there is nothing to say. */
export function pinNoticeLines(notices: PinNotices, now: Date): { intent: "warning" | "error"; text: string }[] {
  const lines: { intent: "warning" | "error"; text: string }[] = [];
  if (notices.retired.length > 0) {
    lines.push({
      intent: "error",
      text:
        `${count(notices.retired)} pinned to data the service no longer serves (${cellList(notices.retired)}): they keep the values they had. ` +
        "Freeze these values (Freeze tab) to keep them as plain values, or move the pin to the latest.",
    });
  }
  if (notices.retiring.length > 0) {
    const first = notices.retiring.reduce((a, b) => (a.snapshot.retires_at <= b.snapshot.retires_at ? a : b)).snapshot;
    const days = Math.max(0, Math.ceil((Date.parse(first.retires_at) - now.getTime()) / DAY_MS));
    const ids = new Set(notices.retiring.map((c) => c.snapshot.id)).size;
    const which = ids === 1 ? `snapshot ${first.id}, which` : `${ids} snapshots; the first, ${first.id},`;
    lines.push({
      intent: "warning",
      text:
        `${count(notices.retiring)} pinned to ${which} the service stops serving on ${first.retires_at.slice(0, 10)} ` +
        `(in ${days === 1 ? "1 day" : `${days} days`}) (${cellList(notices.retiring)}): freeze these values now, or move the pin to the latest.`,
    });
  }
  return lines;
}
