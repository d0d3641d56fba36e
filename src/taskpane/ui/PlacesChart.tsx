// "Chart across places", under a market's preview: one figure of one asset type in several
// places, written as a block (a place a row, each beside its =PROP.MARKET formula) with a
// native column chart bound to it (chart-choices.ts, excel-charts.ts). A place typed under the
// block, with the formula filled down, joins the chart at the next calculation.
import { Button, Field, Select, Text, Textarea } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { ENDPOINTS } from "../../shared/endpoints";
import { marketFigures, placesBlock, placesChartSpec, placesOf } from "../chart-choices";
import { cellAddress, parseCell, splitAddress } from "../excel-addresses";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

export function PlacesChart({ geography, assetType }: { geography: string; assetType: string }) {
  const pane = usePane();
  const task = useTask();
  const figures = useMemo(() => marketFigures(), []);
  const [metric, setMetric] = useState(figures.find((f) => f.field === "vacancy_rate")?.field ?? figures[0].field);
  const [places, setPlaces] = useState(geography);
  const [error, setError] = useState("");
  const cost = ENDPOINTS.getMarketSnapshot.cost;

  function insert() {
    let list: string[];
    try {
      list = placesOf(places);
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    setError("");
    const figure = figures.find((f) => f.field === metric)!;
    void task.run("Writing the places and their chart…", async () => {
      // The block goes at the selection's top-left cell, as Insert puts a table there.
      const { address } = await pane.workbook.readSelectedRows();
      const { sheet, cells } = splitAddress(address);
      const at = parseCell(cells.split(":")[0]);
      const written = await pane.workbook.writeCells(sheet, at, placesBlock(list, assetType, metric, at), { boldFirstRow: true });
      const anchor = `'${sheet.replace(/'/g, "''")}'!${cellAddress(at.row, at.column)}`;
      const name = await pane.workbook.insertChart(placesChartSpec(anchor, assetType, figure));
      return {
        intent: "success",
        title: "Chart inserted",
        text: `"${name}": ${figure.label} in ${list.length} places, from ${written}. Add a place under the block and fill the formula down: the chart takes it in at the next calculation.`,
      };
    });
  }

  return (
    <section className="places-chart" aria-label="Chart across places">
      <Text weight="semibold">Chart across places</Text>
      <Field label="Figure">
        <Select value={metric} onChange={(_, d) => setMetric(d.value)}>
          {figures.map((f) => (
            <option key={f.field} value={f.field}>
              {f.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Places" hint="One a line: states, counties, metros, cities or ZIP codes." validationMessage={error || undefined}>
        <Textarea value={places} onChange={(_, d) => setPlaces(d.value)} resize="vertical" />
      </Field>
      <div className="actions">
        <Button onClick={insert} disabled={task.busy} aria-describedby="places-cost">
          Insert chart
        </Button>
        <Text id="places-cost" size={200} className="cost">
          Writes a =PROP.MARKET formula a place and a column chart of them: {cost} credit{cost === 1 ? "" : "s"} a place not already
          fetched.
        </Text>
      </div>
      <TaskFeedback task={task} />
    </section>
  );
}
