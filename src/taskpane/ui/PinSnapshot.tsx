// The Refresh tab's "Snapshot" section: pin every PROP formula of the workbook to one snapshot
// the service keeps, or move the workbook to the latest, each after a preview of its cost.
import { Button, Select, Text } from "@fluentui/react-components";
import { useState } from "react";
import type { KeptSnapshot } from "../../contract/snapshot-select";
import { formatDay } from "../status-text";
import { applyPin, describePin, planPin, type PinPlan } from "../workbook-pin";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useTask } from "./use-task";

export function PinSnapshot() {
  const pane = usePane();
  const task = useTask();
  const [plan, setPlan] = useState<PinPlan | null>(null);
  const coverage = pane.connection?.coverage;
  const kept: KeptSnapshot[] = (coverage as { snapshots?: KeptSnapshot[] } | undefined)?.snapshots ?? [];
  const latest = coverage?.snapshot.id ?? null;
  const choices = kept.length > 0 ? kept : coverage ? [{ ...coverage.snapshot, latest: true }] : [];
  const [chosen, setChosen] = useState<string | null>(null);
  const target = chosen ?? latest;

  const preview = (to: string | null) =>
    task.run("Reading the workbook's formulas", async () => {
      const next = await planPin(to, latest, pane);
      setPlan(next);
      return { intent: "info", title: to ? "Pin this workbook?" : "Move to the latest?", text: describePin(next) };
    });
  const confirm = (p: PinPlan) =>
    task.run("Rewriting formulas", async () => {
      const changed = await applyPin(p, pane);
      setPlan(null);
      const where = p.target ? `snapshot ${p.target}` : "the latest snapshot";
      return { intent: "success", title: "Done", text: `${changed} formula${changed === 1 ? "" : "s"} now answer from ${where}.` };
    });

  return (
    <section className="pin-snapshot" aria-label="Snapshot">
      <Text weight="semibold">Snapshot</Text>
      <Text block size={200}>
        Pin the workbook to one snapshot to keep its figures as they are (each formula gets as_of), or move it to the latest.
      </Text>
      {choices.length > 0 && (
        <Select aria-label="Snapshot to pin to" value={target ?? ""} onChange={(_, d) => setChosen(d.value)}>
          {choices.map((s) => (
            <option key={s.id} value={s.id}>
              {`${s.id}, captured ${formatDay(s.captured_at)}${s.latest ? " (latest)" : ""}`}
            </option>
          ))}
        </Select>
      )}
      <div className="button-row">
        <Button onClick={() => void preview(target)} disabled={task.busy || !target}>
          Pin workbook
        </Button>
        <Button onClick={() => void preview(null)} disabled={task.busy || !pane.connection}>
          Move to the latest
        </Button>
      </div>
      <TaskFeedback task={task} />
      {plan && plan.rewrites.length > 0 && (
        <div className="button-row">
          <Button appearance="primary" onClick={() => void confirm(plan)} disabled={task.busy}>
            {plan.target ? "Pin" : "Move"} {plan.rewrites.length} formulas
          </Button>
          <Button onClick={() => setPlan(null)} disabled={task.busy}>
            Cancel
          </Button>
        </div>
      )}
    </section>
  );
}
