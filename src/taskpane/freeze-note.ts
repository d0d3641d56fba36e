// The comment "Freeze as values" leaves on each frozen formula's cell: when it was frozen, then
// the value's provenance (provenance-facts.ts: the formula, the record or market, the snapshot
// and its capture date, when it was fetched and what it cost), the same lines "Explain this
// cell" shows, so a model that must not move still says where its numbers came from (and the
// formula can be typed back in to bring them to life again).
import type { CellSourceRecord } from "../shared/cell-outcomes";
import type { FormulaCell } from "./workbook-types";
import { formatMoment } from "./status-text";
import type { SnapshotRef } from "../contract/snapshot-ref";
import { factsText, provenanceFacts } from "./provenance-facts";

/**
 * `record`: the sources the cell's function recorded (null when none are held: then the
 * snapshot the pane is connected to, or that it is not known).
 */
export function freezeNote(
  cell: FormulaCell,
  snapshot: SnapshotRef | null,
  frozenAt: Date,
  record: CellSourceRecord | null = null,
): string {
  const facts = provenanceFacts(cell.formula, record, snapshot);
  const unknown = facts.length === 1 ? "\nSnapshot: not known (the service was not reached this session)" : "";
  return `Frozen as values on ${formatMoment(frozenAt.toISOString())} by Property Intelligence.\n${factsText(facts)}${unknown}`;
}
