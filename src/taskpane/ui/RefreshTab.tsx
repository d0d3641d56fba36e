// Refresh the PROP formulas of the selection, the sheet or the workbook: one free check of the
// snapshot, then each formula is calculated again with progress; the ones that failed are
// listed with the reason, and the cells that changed value with old and new, which the user
// can mark in the workbook (and clear the marks again).
import { Button, Radio, RadioGroup, Text } from "@fluentui/react-components";
import { useState } from "react";
import { refreshFormulas, type RefreshFailure } from "../refresh-formulas";
import { changesSummary, countOf, shownText, type CellChange } from "../cell-changes";
import { formatDay } from "../status-text";
import type { Scope } from "../workbook-types";
import { PinSnapshot } from "./PinSnapshot";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

const SCOPES: { value: Scope; label: string }[] = [
  { value: "selection", label: "Selection" },
  { value: "sheet", label: "This sheet" },
  { value: "workbook", label: "Whole workbook" },
];

export function RefreshTab() {
  const pane = usePane();
  const task = useTask();
  const [scope, setScope] = useState<Scope>("workbook");
  const [failures, setFailures] = useState<RefreshFailure[]>([]);
  const [changes, setChanges] = useState<{ cells: CellChange[]; formulas: number } | null>(null);

  const refresh = () =>
    task.run("Refreshing formulas", async (step) => {
      setFailures([]);
      setChanges(null);
      const report = await refreshFormulas(scope, { ...pane, onProgress: (done, total) => step(done, total, "Refreshed") });
      pane.setLastRefresh(report.finishedAt);
      pane.setConnection(pane.connection && { ...pane.connection, coverage: report.snapshot.coverage });
      setFailures(report.failures);
      setChanges({ cells: report.changes, formulas: report.changedFormulas });
      const data = report.snapshot.changed
        ? `The service has new data, captured ${formatDay(report.snapshot.capturedAt)} (snapshot ${report.snapshot.snapshotId}): ${report.snapshot.staleEntries} cached results were revalidated, and only those that changed were billed. ${changesSummary(report.changes.length, report.changedFormulas)}`
        : `The snapshot is unchanged, so cached results were reused at no cost. ${changesSummary(report.changes.length, report.changedFormulas)}`;
      if (report.formulas === 0) {
        return { intent: "info", title: "No PROP formulas here", text: `There are no PROP formulas in the ${scopeName(scope)}.` };
      }
      if (report.failures.length > 0) {
        return {
          intent: "warning",
          title: `${report.failures.length} of ${report.formulas} formulas failed`,
          text: `${data} The ones that failed are listed below.`,
        };
      }
      return { intent: "success", title: `${report.formulas} formulas refreshed`, text: data };
    });

  const markChanged = (cells: CellChange[]) =>
    task.run("Marking changed cells", async () => {
      const marked = await pane.workbook.markCells(cells.map((c) => c.address));
      return {
        intent: "success",
        title: "Changed cells marked",
        text: `${countOf(marked, "cell")} marked in gold with a conditional format, so their own formatting is kept; Clear change marks removes the marks.`,
      };
    });

  const clearMarks = () =>
    task.run("Clearing change marks", async () => {
      const cleared = await pane.workbook.clearMarks();
      return cleared === 0
        ? { intent: "info", title: "No change marks", text: "No cells in this workbook are marked as changed." }
        : { intent: "success", title: "Change marks cleared", text: `The gold fill is gone from ${countOf(cleared, "marked range")}.` };
    });

  return (
    <div className="tab-body">
      <RadioGroup value={scope} onChange={(_, d) => setScope(d.value as Scope)} aria-label="What to refresh">
        {SCOPES.map((s) => (
          <Radio key={s.value} value={s.value} label={s.label} />
        ))}
      </RadioGroup>
      <Button appearance="primary" onClick={() => void refresh()} disabled={task.busy || !pane.connection}>
        Refresh
      </Button>
      <TaskFeedback task={task} />
      {changes && changes.cells.length > 0 && (
        <div className="changes">
          <Text weight="semibold">{changesSummary(changes.cells.length, changes.formulas)}</Text>
          <ul aria-label="Cells that changed value">
            {changes.cells.slice(0, MAX_LISTED).map((c) => (
              <li key={c.address}>
                <Text weight="semibold">{c.address}</Text>{" "}
                <Text>
                  {shownText(c.before)} → {shownText(c.after)}
                </Text>
              </li>
            ))}
          </ul>
          {changes.cells.length > MAX_LISTED && <Text size={200}>and {changes.cells.length - MAX_LISTED} more.</Text>}
        </div>
      )}
      {failures.length > 0 && (
        <ul className="failures" aria-label="Formulas that failed">
          {failures.map((f) => (
            <li key={f.address}>
              <Text weight="semibold">{f.address}</Text> <Text className="error-code">{f.error}</Text>
              <Text block size={200}>
                {f.reason}
              </Text>
            </li>
          ))}
        </ul>
      )}
      <div className="button-row">
        {changes && changes.cells.length > 0 && (
          <Button onClick={() => void markChanged(changes.cells)} disabled={task.busy}>
            Mark changed cells
          </Button>
        )}
        <Button onClick={() => void clearMarks()} disabled={task.busy}>
          Clear change marks
        </Button>
      </div>
      <PinSnapshot />
    </div>
  );
}

/** Changed cells listed in the pane; the rest are counted (and all are marked). */
const MAX_LISTED = 50;

function scopeName(scope: Scope): string {
  return scope === "selection" ? "selection" : scope === "sheet" ? "active sheet" : "workbook";
}
