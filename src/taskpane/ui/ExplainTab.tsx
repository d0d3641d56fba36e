// Explain this cell: for the selected cell (a PROP formula, a value in its spill, or a frozen
// value), where its value came from (explain-cell.ts), with a link to the operation in the API
// reference and "Insert the source record beside the model". The ribbon's "Explain cell"
// opens the pane here and explains the selection at once (explain-requests.ts).
import { Button, Link, Text } from "@fluentui/react-components";
import { useCallback, useEffect, useState } from "react";
import { explainCell, type Explanation } from "../explain-cell";
import { explainRequests } from "../explain-requests";
import { refreshReports } from "../refresh-reports";
import type { CellSource } from "../workbook-types";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

export function ExplainTab() {
  const pane = usePane();
  const task = useTask();
  const [shown, setShown] = useState<{ cell: CellSource; explanation: Explanation } | null>(null);
  const { run } = task;

  // Reads the selection and explains it (inside a task: "Calculate it again" reads after recalculating).
  const read = useCallback(async () => {
    const cell = await pane.workbook.readCellSource();
    const outcome = cell.anchor ? pane.session.outcomes.outcomeOf(cell.anchor) : null;
    const explanation = explainCell({
      cell,
      outcome,
      lastChanges: refreshReports().latest()?.report.changes ?? null,
      baseUrl: pane.connection?.baseUrl ?? null,
    });
    setShown({ cell, explanation });
  }, [pane]);

  const explain = useCallback(
    () =>
      run("Reading the selected cell…", async () => {
        await read();
        return null;
      }),
    [run, read],
  );

  // Opened by the ribbon's button (or asked again while open): explain the selection now.
  useEffect(() => {
    if (explainRequests().take()) void explain();
    return explainRequests().subscribe(() => {
      explainRequests().take();
      void explain();
    });
  }, [explain]);

  const insert = (cell: CellSource, formula: string) =>
    task.run("Inserting the source record…", async () => {
      const at = await pane.workbook.writeCells(cell.sheet, { row: cell.sheetRow, column: cell.freeColumn }, [[{ formula }]]);
      return { intent: "success", title: "Source inserted", text: `${formula} is in ${at}, right of the model; it spills from there.` };
    });

  const recalculate = (cell: CellSource) =>
    task.run("Calculating the cell again…", async () => {
      await pane.workbook.recalculate([{ address: cell.anchor!, formula: cell.formula! }]);
      await read();
      return null;
    });

  const explanation = shown?.explanation;
  return (
    <div className="tab-body explain">
      <Text block>Where the selected value comes from: its function, record or market, snapshot, cost and last change.</Text>
      <div className="actions">
        <Button appearance="primary" onClick={() => void explain()} disabled={task.busy}>
          Explain the selected cell
        </Button>
      </div>
      {shown && explanation && (
        <section className="explanation" aria-label="Explanation">
          <Text block weight="semibold" className="explain-title">
            {explanation.title}
          </Text>
          <dl className="explain-facts">
            {explanation.facts.map((fact) => (
              <div key={fact.label} className="explain-fact">
                <dt>{fact.label}</dt>
                <dd>{fact.text}</dd>
              </div>
            ))}
          </dl>
          {explanation.link && (
            <Link href={explanation.link.url} target="_blank" rel="noreferrer">
              {explanation.link.text}
            </Link>
          )}
          <div className="actions">
            {explanation.insert && (
              <Button onClick={() => void insert(shown.cell, explanation.insert!)} disabled={task.busy}>
                Insert the source record beside the model
              </Button>
            )}
            {explanation.recalculate && shown.cell.anchor && (
              <Button onClick={() => void recalculate(shown.cell)} disabled={task.busy}>
                Calculate it again
              </Button>
            )}
          </div>
        </section>
      )}
      <TaskFeedback task={task} />
    </div>
  );
}
