// Refresh the PROP formulas of the selection, the sheet or the workbook: one free check of the
// snapshot, then each formula is calculated again with progress. The report lists the formulas
// that failed, with the reason, and what changed: each cell by its row's and column's labels,
// old and new as the cells show them and the size of the change, rows of a list added or
// removed, and the credits the refresh spent. The user can mark the changed cells in the
// workbook (and clear the marks) and write the whole report to the "Refresh log" sheet. A
// refresh from the ribbon leaves its report here too. Cells pinned to data no longer served, or
// about to be, are announced above the report (PinNotices).
import { Button, Radio, RadioGroup, Text } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { refreshFormulas } from "../refresh-formulas";
import { refreshReports, type PublishedReport } from "../refresh-reports";
import { REFRESH_LOG_HEADER, REFRESH_LOG_SHEET, creditsText, refreshLogRows, scopeName } from "../refresh-log";
import { changeLine, changesSummary, countChanges, countOf } from "../cell-changes";
import { formatDay, formatMoment } from "../status-text";
import type { Scope } from "../workbook-types";
import { PinNotices } from "./PinNotices";
import { PinSnapshot } from "./PinSnapshot";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

const SCOPES: { value: Scope; label: string }[] = [
  { value: "selection", label: "Selection" },
  { value: "sheet", label: "This sheet" },
  { value: "workbook", label: "Whole workbook" },
];

/** Changes listed in the pane; the rest are counted (all are marked, and all go to the log). */
export const MAX_LISTED = 50;

export function RefreshTab() {
  const pane = usePane();
  const task = useTask();
  const [scope, setScope] = useState<Scope>("workbook");
  const [published, setPublished] = useState<PublishedReport | null>(() => refreshReports().latest());
  useEffect(() => refreshReports().subscribe(setPublished), []);
  const report = published?.report ?? null;

  const refresh = () =>
    task.run("Refreshing formulas", async (step) => {
      const done = await refreshFormulas(scope, { ...pane, onProgress: (n, total) => step(n, total, "Refreshed") });
      refreshReports().publish(done, "pane");
      pane.setLastRefresh(done.finishedAt);
      pane.setConnection(pane.connection && { ...pane.connection, coverage: done.snapshot.coverage });
      const changed = changesSummary(countChanges(done.changes), done.changedFormulas);
      const data = done.snapshot.changed
        ? `The service has new data, captured ${formatDay(done.snapshot.capturedAt)} (snapshot ${done.snapshot.snapshotId}): ${done.snapshot.staleEntries} cached results were revalidated, and only those that changed were billed. ${changed} ${creditsText(done.credits)}`
        : `The snapshot is unchanged, so cached results were reused at no cost. ${changed}`;
      if (done.formulas === 0) {
        return { intent: "info", title: "No PROP formulas here", text: `There are no PROP formulas in the ${scopeName(scope)}.` };
      }
      if (done.failures.length > 0) {
        return {
          intent: "warning",
          title: `${done.failures.length} of ${done.formulas} formulas failed`,
          text: `${data} The ones that failed are listed below.`,
        };
      }
      return { intent: "success", title: `${done.formulas} formulas refreshed`, text: data };
    });

  const markChanged = (cells: string[]) =>
    task.run("Marking changed cells", async () => {
      const marked = await pane.workbook.markCells(cells);
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

  const writeLog = (shown: PublishedReport["report"]) =>
    task.run("Writing the refresh log", async () => {
      const rows = refreshLogRows(shown);
      const address = await pane.workbook.appendRows(REFRESH_LOG_SHEET, REFRESH_LOG_HEADER, rows);
      return {
        intent: "success",
        title: "Refresh log written",
        text: `${countOf(rows.length, "row")} added at ${address}: the refresh of ${formatMoment(shown.finishedAt)}, every change and failure. The sheet is saved with the workbook.`,
      };
    });

  const counts = report && countChanges(report.changes);
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
      {report && <PinNotices pinned={report.pinned} kept={report.snapshot.coverage?.snapshots} />}
      {report && counts && (
        <div className="refresh-report" role="region" aria-label="Refresh report">
          <Text block weight="semibold">
            {published?.by === "ribbon" ? "Refresh workbook (ribbon)" : "Refresh"} of {formatMoment(report.finishedAt)}, snapshot{" "}
            {report.snapshot.snapshotId}
          </Text>
          <Text block className="refresh-summary">
            {changesSummary(counts, report.changedFormulas)}
          </Text>
          <Text block className="refresh-credits" size={200}>
            {creditsText(report.credits)}
          </Text>
          {report.changes.length > 0 && (
            <ul aria-label="What changed" className="changes">
              {report.changes.slice(0, MAX_LISTED).map((c) => (
                <li key={`${c.kind} ${c.address}`}>
                  <Text>{changeLine(c)}</Text>{" "}
                  <Text size={200} className="change-address">
                    {c.address}
                  </Text>
                </li>
              ))}
            </ul>
          )}
          {report.changes.length > MAX_LISTED && (
            <Text size={200}>
              and {(report.changes.length - MAX_LISTED).toLocaleString("en-US")} more (Write refresh log writes them all).
            </Text>
          )}
        </div>
      )}
      {report && report.failures.length > 0 && (
        <ul className="failures" aria-label="Formulas that failed">
          {report.failures.map((f) => (
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
        {report && report.marks.length > 0 && (
          <Button onClick={() => void markChanged(report.marks)} disabled={task.busy}>
            Mark changed cells
          </Button>
        )}
        {report && (
          <Button onClick={() => void writeLog(report)} disabled={task.busy}>
            Write refresh log
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
