// The note "Freeze as values" leaves on each frozen formula's cell: when, from which formula,
// and from which snapshot, so a model that must not move still says where its numbers came
// from (and the formula can be typed back in to bring them to life again).
import type { FormulaCell } from "./workbook-types";
import { formatDay, formatMoment } from "./status-text";
import type { SnapshotRef } from "../contract/snapshot-ref";

export function freezeNote(cell: FormulaCell, snapshot: SnapshotRef | null, frozenAt: Date): string {
  const source = snapshot
    ? `Data: snapshot ${snapshot.id}, captured ${formatDay(snapshot.captured_at)}.`
    : "Data: snapshot not known (the service was not reached this session).";
  return `Frozen as values on ${formatMoment(frozenAt.toISOString())} by Property Intelligence. Formula was: ${cell.formula} ${source}`;
}
