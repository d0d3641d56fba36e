// Link a table: for the table around the selection, the columns whose headers name property
// fields; compare their typed values with the snapshot's (the records cost what the price
// beside the button says), then replace only the columns the analyst ticks by live formulas.
import { Button, Checkbox, Text } from "@fluentui/react-components";
import { useState } from "react";
import { compareLinked, linkPlan, readCost, type LinkPlan, type LinkedDifferences } from "../link-table";
import { columnLetters } from "../excel-addresses";
import type { SheetBlock } from "../workbook-types";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

export function LinkSection() {
  const pane = usePane();
  const task = useTask();
  const [found, setFound] = useState<{ block: SheetBlock; plan: LinkPlan } | null>(null);
  const [compared, setCompared] = useState<LinkedDifferences[] | null>(null);
  const [ticked, setTicked] = useState<Set<number>>(new Set());

  const read = () =>
    task.run("Reading the table…", async () => {
      setFound(null);
      setCompared(null);
      setTicked(new Set());
      const block = await pane.workbook.readBlock();
      const plan = linkPlan(block);
      if (typeof plan === "string") return { intent: "info", title: "Nothing to link", text: plan };
      setFound({ block, plan });
      return null;
    });

  const compare = () =>
    found &&
    task.run("Reading the properties…", async () => {
      setCompared(await compareLinked(pane.session, found.block, found.plan));
      return null;
    });

  const replace = () =>
    found &&
    compared &&
    task.run("Replacing…", async () => {
      const chosen = compared.filter((c) => ticked.has(c.column));
      const cells = chosen.flatMap((c) => c.replacements);
      const replaced = await pane.workbook.replaceCells(found.block.sheet, cells);
      setCompared(null);
      setTicked(new Set());
      const kept = cells.length - replaced;
      return {
        intent: "success",
        title: `${replaced.toLocaleString("en-US")} value${replaced === 1 ? "" : "s"} replaced by live formulas`,
        text:
          `In ${chosen.map((c) => c.header).join(", ")}.` +
          (kept > 0
            ? ` ${kept} cell${kept === 1 ? "" : "s"} changed since they were read and ${kept === 1 ? "was" : "were"} left alone.`
            : ""),
      };
    });

  const cost = found ? readCost(found.plan) : 0;
  return (
    <div className="link-table" role="group" aria-label="Link a table">
      <Text block weight="semibold">
        Link a table
      </Text>
      <Text block>
        For a table with a property id column and columns such as Year Built, Building SF, Occupancy or Last Sale Price: see how its typed
        values differ from the data, then replace the columns you tick by live PROP.PROPERTY formulas. Nothing else changes.
      </Text>
      <Button onClick={() => void read()} disabled={task.busy}>
        Read the table
      </Button>
      {found && (
        <>
          <Text block>
            Property ids in column {columnLetters(found.block.column + found.plan.idColumn)} (
            {found.plan.rowsWithId.toLocaleString("en-US")} of {found.block.rows.length.toLocaleString("en-US")} rows,{" "}
            {found.plan.ids.length.toLocaleString("en-US")} properties). Linked columns:{" "}
            {found.plan.columns.map((c) => c.header).join(", ")}.
          </Text>
          {!compared && (
            <div className="actions">
              <Button appearance="primary" onClick={() => void compare()} disabled={task.busy || !pane.connection}>
                Compare with the data
              </Button>
              <Text className="cost">
                Up to {cost.toLocaleString("en-US")} credit{cost === 1 ? "" : "s"}
              </Text>
            </div>
          )}
        </>
      )}
      {found && compared && (
        <div className="link-columns">
          {compared.map((c) => (
            <div key={c.column} className="link-column">
              <Checkbox
                checked={ticked.has(c.column)}
                disabled={c.replacements.length === 0}
                onChange={(_, d) => {
                  const next = new Set(ticked);
                  if (d.checked) next.add(c.column);
                  else next.delete(c.column);
                  setTicked(next);
                }}
                label={`Replace ${c.replacements.length.toLocaleString("en-US")} in ${c.header} by =PROP.PROPERTY(…, "${c.field}")`}
              />
              <Text block className="link-summary">
                {c.summary}
              </Text>
            </div>
          ))}
          <Button appearance="primary" onClick={() => void replace()} disabled={task.busy || ticked.size === 0}>
            Replace the ticked columns
          </Button>
        </div>
      )}
      <TaskFeedback task={task} />
    </div>
  );
}
