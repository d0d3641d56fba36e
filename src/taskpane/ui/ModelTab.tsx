// "Start a model": pick the subject (an address, a property id, or the selected cell), see what
// the model's first calculation costs, and insert it as new sheets of live PROP formulas, or
// download the same model as an .xlsx from the service. A sheet name already in the workbook is
// asked about: the model goes in under new names, never over a sheet.
import { Button, Field, Input, Link, Radio, RadioGroup, Select, Text } from "@fluentui/react-components";
import { useState } from "react";
import { modelTemplate, type ModelSubject } from "../../contract/model-template";
import type { MatchCandidate } from "../../contract/property-match";
import { findSubject, freeSuffix, insertModel, modelCostText, modelXlsxUrl, sheetClashes, type SubjectInput } from "../start-model";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useCredits } from "./use-live-state";
import { useTask } from "./use-task";

type SourceKind = SubjectInput["kind"];

export function ModelTab() {
  const pane = usePane();
  const task = useTask();
  const credits = useCredits(pane.session);
  const [kind, setKind] = useState<SourceKind>("address");
  const [text, setText] = useState("");
  const [subject, setSubject] = useState<ModelSubject | null>(null);
  const [choice, setChoice] = useState<{ address: string; candidates: MatchCandidate[] } | null>(null);
  const [clashes, setClashes] = useState<{ names: string[]; suffix: number } | null>(null);

  const find = () =>
    task.run(kind === "address" ? "Matching the address…" : "Reading the subject…", async () => {
      setSubject(null);
      setChoice(null);
      setClashes(null);
      const input: SubjectInput = kind === "selection" ? { kind } : { kind, text };
      const answer = await findSubject(input, {
        match: (ask) => pane.session.api.match(ask),
        readSelectedRows: () => pane.workbook.readSelectedRows(),
      });
      if (answer.kind === "choose") {
        setChoice(answer);
        return { intent: "warning", title: "Several properties", text: `"${answer.address}" may be any of these: pick one.` };
      }
      setSubject(answer.subject);
      return null;
    });

  const insert = (suffix: number | null) =>
    subject &&
    task.run("Inserting the model…", async () => {
      const existing = await pane.workbook.sheetNames();
      const clash = sheetClashes(existing, suffix);
      if (clash.length > 0) {
        setClashes({ names: clash, suffix: freeSuffix(existing) });
        return { intent: "warning", title: "Nothing inserted", text: `The workbook already has ${clash.map((n) => `"${n}"`).join(", ")}.` };
      }
      setClashes(null);
      const done = await insertModel(pane.workbook, subject, suffix);
      const charts = done.chartProblems.length > 0 ? ` Charts not added: ${done.chartProblems[0]}` : ` ${done.charts.length} charts.`;
      return {
        intent: "success",
        title: `Model inserted: ${done.sheets.length} sheets`,
        text: `${done.sheets.join(", ")}. The formulas calculate now and refresh and pin like any others.${charts}`,
      };
    });

  const template = subject ? modelTemplate(subject) : null;
  return (
    <div className="tab-body">
      <Text block>
        A starter underwriting model of one property, on new sheets of live PROP formulas: its profile, a sale-comp grid with adjustment
        columns and statistics, the market of its city, county and metro, ten years of rent, vacancy and cap rate, and its owner&apos;s
        portfolio and tenants.
      </Text>
      <RadioGroup value={kind} onChange={(_, d) => setKind(d.value as SourceKind)} aria-label="Subject from" layout="horizontal">
        <Radio value="address" label="An address" />
        <Radio value="id" label="A property id" />
        <Radio value="selection" label="The selected cell" />
      </RadioGroup>
      {kind !== "selection" && (
        <Field label={kind === "address" ? "Address" : "Property id"}>
          <Input
            value={text}
            onChange={(_, d) => setText(d.value)}
            placeholder={kind === "address" ? "623 Washington Blvd, Austin, TX 78721" : "cp_0001a2b3"}
          />
        </Field>
      )}
      <Button onClick={() => void find()} disabled={task.busy || !pane.connection}>
        {kind === "selection" ? "Use the selected cell" : kind === "address" ? "Match the address (1 credit if matched)" : "Use this id"}
      </Button>
      {choice && (
        <Field label="Pick the property">
          <Select
            value=""
            onChange={(_, d) => {
              const picked = choice.candidates.find((c) => c.property_id === d.value);
              if (!picked) return;
              setSubject({ propertyId: picked.property_id, label: picked.address });
              setChoice(null);
            }}
          >
            <option value="">Choose…</option>
            {choice.candidates.map((c) => (
              <option key={c.property_id} value={c.property_id}>
                {c.address} ({c.property_id}, score {c.score.toFixed(2)})
              </option>
            ))}
          </Select>
        </Field>
      )}
      {subject && template && (
        <div className="model-subject" role="group" aria-label="The model">
          <Text block weight="semibold">
            Subject: {subject.label ? `${subject.label} (${subject.propertyId})` : subject.propertyId}
          </Text>
          <Text block className="cost">
            {modelCostText(template, credits?.remaining ?? null)}
          </Text>
          <div className="actions">
            <Button appearance="primary" onClick={() => void insert(null)} disabled={task.busy}>
              Insert the model
            </Button>
            {pane.connection && (
              <Link href={modelXlsxUrl(pane.connection.baseUrl, subject.propertyId)} target="_blank">
                Download the .xlsx
              </Link>
            )}
          </div>
          {clashes && (
            <Button onClick={() => void insert(clashes.suffix)} disabled={task.busy}>
              Insert with new names (suffix {clashes.suffix})
            </Button>
          )}
        </div>
      )}
      <TaskFeedback task={task} />
    </div>
  );
}
