// Freeze as values: the PROP formulas in the selection become plain values (with their whole
// spills), each with a note saying when, from which formula and which snapshot. For models
// that must not move. Asks once before it changes anything.
import { Button, Text } from "@fluentui/react-components";
import { useState } from "react";
import { freezeNote } from "../freeze-note";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

export function FreezeTab() {
  const pane = usePane();
  const task = useTask();
  const [confirming, setConfirming] = useState(false);

  const freeze = () =>
    task.run("Freezing formulas…", async () => {
      setConfirming(false);
      const snapshot = pane.connection?.coverage.snapshot ?? null;
      const now = new Date();
      // Each comment carries the provenance its function recorded, as Explain shows it.
      const sourceOf = (address: string) => {
        const outcome = pane.session.outcomes.outcomeOf(address);
        return outcome?.ok ? (outcome.provenance ?? null) : null;
      };
      const frozen = await pane.workbook.freezeSelection((cell) => freezeNote(cell, snapshot, now, sourceOf(cell.address)));
      if (frozen.length === 0) {
        return {
          intent: "info",
          title: "No PROP formulas in the selection",
          text: "Select the cells of the PROP formulas to freeze (a spill's first cell is enough).",
        };
      }
      return {
        intent: "success",
        title: `${frozen.length} formula${frozen.length === 1 ? "" : "s"} frozen`,
        text: `${frozen.map((f) => f.valuesAddress).join(", ")} now hold values. Each has a note with the formula and the snapshot.`,
      };
    });

  return (
    <div className="tab-body">
      <Text block>
        Replaces the PROP formulas in the selection with their current values, so the model no longer changes on refresh. A note on each
        cell keeps the formula and the snapshot. Excel's Undo does not undo add-in edits.
      </Text>
      {confirming ? (
        <div className="actions" role="group" aria-label="Confirm freeze">
          <Button appearance="primary" onClick={() => void freeze()} disabled={task.busy}>
            Yes, freeze them
          </Button>
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
        </div>
      ) : (
        <Button appearance="primary" onClick={() => setConfirming(true)} disabled={task.busy}>
          Freeze selection as values
        </Button>
      )}
      <TaskFeedback task={task} />
    </div>
  );
}
