// Refresh the PROP formulas of the selection, the sheet or the workbook: one free check of the
// snapshot, then each formula is calculated again with progress, and the ones that failed are
// listed with the reason.
import { Button, Radio, RadioGroup, Text } from "@fluentui/react-components";
import { useState } from "react";
import { refreshFormulas, type RefreshFailure } from "../refresh-formulas";
import { formatDay } from "../status-text";
import type { Scope } from "../workbook-types";
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

  const refresh = () =>
    task.run("Refreshing formulas", async (step) => {
      setFailures([]);
      const report = await refreshFormulas(scope, { ...pane, onProgress: (done, total) => step(done, total, "Refreshed") });
      pane.setLastRefresh(report.finishedAt);
      pane.setConnection(pane.connection && { ...pane.connection, coverage: report.snapshot.coverage });
      setFailures(report.failures);
      const data = report.snapshot.changed
        ? `The service has new data, captured ${formatDay(report.snapshot.capturedAt)} (snapshot ${report.snapshot.snapshotId}): ${report.snapshot.staleEntries} cached results were fetched again.`
        : "The snapshot is unchanged, so cached results were reused at no cost.";
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
    </div>
  );
}

function scopeName(scope: Scope): string {
  return scope === "selection" ? "selection" : scope === "sheet" ? "active sheet" : "workbook";
}
