// "Compare selected rows": select rows of any table or spilled PROP result with a property id
// column (2 to 25 of them), then one click writes a comparison sheet.
import { Button, Text } from "@fluentui/react-components";
import { compareSelectedRows } from "../compare-selection";
import { COMPARE_MAX, COMPARE_MIN } from "../selection-ids";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

export function CompareTab() {
  const pane = usePane();
  const task = useTask();
  const compare = () =>
    task.run("Reading the selection and comparing…", async () => {
      const report = await compareSelectedRows(pane);
      return {
        intent: "success",
        title: `Sheet "${report.sheet}" added`,
        text: `${report.properties} properties from ${report.source}, side by side with the minimum, median and maximum of each numeric field.`,
      };
    });
  return (
    <div className="tab-body">
      <Text block>
        Select {COMPARE_MIN} to {COMPARE_MAX} rows of a search result or any table with a property id column (selecting any cell of each row
        is enough). The comparison goes on a new sheet: properties as columns, fields as rows. It costs 2 credits.
      </Text>
      <Button appearance="primary" onClick={() => void compare()} disabled={task.busy || !pane.connection}>
        Compare selected rows
      </Button>
      <TaskFeedback task={task} />
    </div>
  );
}
