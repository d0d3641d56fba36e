// Match a column: select the addresses (one column, or the street, city, state and ZIP columns
// of a table, or parcel numbers with their county and state), say which part each column holds
// (guessed from its header or values), match every selected row (blank rows skipped), and see
// the counts, the low-confidence matches and the credits before anything is written; then pick
// among the candidates of ambiguous rows and insert property id, matched address, score and
// status beside the table, as PROP.MATCH formulas or as values. Below it, Link a table.
import { Button, Field, Radio, RadioGroup, Select, Text } from "@fluentui/react-components";
import { useState } from "react";
import { columnLetters } from "../excel-addresses";
import {
  COLUMN_ROLES,
  INSERTED_HEADERS,
  MATCH_PRICE_TEXT,
  MAX_PANE_MATCH_ROWS,
  ROLE_LABELS,
  ambiguousRows,
  guessRoles,
  insertion,
  matchColumn,
  matchSummary,
  rolesProblem,
  rowsToMatch,
  type ColumnMatch,
  type ColumnRole,
} from "../match-column";
import { askText } from "../../shared/match-batching";
import type { SheetBlock } from "../workbook-types";
import { LinkSection } from "./LinkSection";
import { TaskFeedback } from "./TaskFeedback";
import { usePane } from "./pane-state";
import { useCredits } from "./use-live-state";
import { useTask } from "./use-task";

export function MatchTab() {
  const pane = usePane();
  const task = useTask();
  const credits = useCredits(pane.session);
  const [block, setBlock] = useState<SheetBlock | null>(null);
  const [roles, setRoles] = useState<ColumnRole[]>([]);
  const [match, setMatch] = useState<ColumnMatch | null>(null);
  const [picks, setPicks] = useState<Map<number, string>>(new Map());
  const [asFormulas, setAsFormulas] = useState(true);

  const read = () =>
    task.run("Reading the selection…", async () => {
      const found = await pane.workbook.readBlock({ wholeSelection: true });
      setBlock(found);
      setRoles(guessRoles(found));
      setMatch(null);
      setPicks(new Map());
      return null;
    });

  const run = () =>
    block &&
    task.run("Matching addresses…", async (step) => {
      const found = await matchColumn(pane.session, block, roles, (done, total) => step(done, total, "Matched"));
      setMatch(found);
      setPicks(new Map());
      return { intent: "info", title: "Nothing written yet", text: matchSummary(found) };
    });

  const insert = () =>
    block &&
    match &&
    task.run("Inserting…", async () => {
      const { at, cells, fills } = insertion(block, roles, match, picks, asFormulas);
      const address = await pane.workbook.writeCells(block.sheet, at, cells, { fills, boldFirstRow: block.headerRow === at.row });
      const unmatched = fills.filter(Boolean).length;
      setMatch(null);
      return {
        intent: "success",
        title: `Inserted at ${address}`,
        text:
          `${INSERTED_HEADERS.join(", ")} ${asFormulas ? "as PROP.MATCH formulas (answered from what was just matched: no new charge)" : "as values"}.` +
          (unmatched > 0 ? ` ${unmatched} row${unmatched === 1 ? "" : "s"} without a property are shaded.` : ""),
      };
    });

  const problem = block ? rolesProblem(roles) : null;
  const rows = block?.selectedRows.length ?? 0;
  // What the button asks: the rows with something to match (blank rows are skipped).
  const asked = block ? rowsToMatch(block, roles) : 0;
  const blank = rows - asked;
  const ambiguous = match ? ambiguousRows(match) : [];
  const columnName = (i: number) => {
    const c = block!.selectedColumns[i];
    const header = block!.header?.[c];
    const letter = columnLetters(block!.column + c);
    return header !== null && header !== undefined && header !== "" ? `${String(header)} (${letter})` : `Column ${letter}`;
  };

  return (
    <div className="tab-body">
      <Text block>
        Select the addresses: one column of whole addresses, or the street, city, state and ZIP code columns of a table, or parcel numbers
        (APN) with their county and state. Every selected row is read, blank rows skipped; selecting one cell of a column takes its block.
        Credits: {MATCH_PRICE_TEXT}.
      </Text>
      <Button onClick={() => void read()} disabled={task.busy}>
        Read the selection
      </Button>
      {block && (
        <div className="match-columns" role="group" aria-label="Columns to match">
          <Text block>
            {rows.toLocaleString("en-US")} row{rows === 1 ? "" : "s"} of {block.selection}
            {block.header ? ", under a header row" : ""}
            {blank > 0 && problem === null ? ` (${blank.toLocaleString("en-US")} blank, skipped)` : ""}.
          </Text>
          {block.selectedColumns.map((_, i) => (
            <Field key={i} label={columnName(i)}>
              <Select
                value={roles[i]}
                onChange={(_, d) => {
                  setRoles(roles.map((r, j) => (j === i ? (d.value as ColumnRole) : r)));
                  setMatch(null);
                }}
              >
                {COLUMN_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {ROLE_LABELS[role]}
                  </option>
                ))}
              </Select>
            </Field>
          ))}
          {problem && <Text className="problem">{problem}</Text>}
          {rows > MAX_PANE_MATCH_ROWS && (
            <Text className="problem">
              At most {MAX_PANE_MATCH_ROWS.toLocaleString("en-US")} rows at a time: select part of the column.
            </Text>
          )}
          <div className="actions">
            <Button
              appearance="primary"
              onClick={() => void run()}
              disabled={task.busy || !pane.connection || problem !== null || asked === 0 || rows > MAX_PANE_MATCH_ROWS}
            >
              Match {asked.toLocaleString("en-US")} {roles.includes("apn") ? "parcel number" : "address"}
              {asked === 1 ? "" : roles.includes("apn") ? "s" : "es"}
            </Button>
            <Text className="cost">
              Up to {asked.toLocaleString("en-US")} credit{asked === 1 ? "" : "s"}
              {credits?.remaining != null ? ` (${credits.remaining.toLocaleString("en-US")} left)` : ""}
            </Text>
          </div>
        </div>
      )}
      <TaskFeedback task={task} />
      {block && match && (
        <div className="match-results" role="group" aria-label="Insert the matches">
          {ambiguous.length > 0 && (
            <div className="candidates">
              <Text block weight="semibold">
                Ambiguous: pick the property, or leave the row unmatched
              </Text>
              {ambiguous.map((a) => (
                <Field key={a.row} label={`Row ${block.firstRow + a.row + 1}: ${askText(a.ask)}`}>
                  <Select
                    value={picks.get(a.row) ?? ""}
                    onChange={(_, d) => {
                      const next = new Map(picks);
                      if (d.value) next.set(a.row, d.value);
                      else next.delete(a.row);
                      setPicks(next);
                    }}
                  >
                    <option value="">Leave unmatched</option>
                    {a.candidates.map((c) => (
                      <option key={c.property_id} value={c.property_id}>
                        {c.address} ({c.property_id}, score {c.score.toFixed(2)})
                      </option>
                    ))}
                  </Select>
                </Field>
              ))}
            </div>
          )}
          <RadioGroup
            value={asFormulas ? "formulas" : "values"}
            onChange={(_, d) => setAsFormulas(d.value === "formulas")}
            aria-label="Insert as"
          >
            <Radio value="formulas" label="As PROP.MATCH formulas (follow the data)" />
            <Radio value="values" label="As values" />
          </RadioGroup>
          <Button appearance="primary" onClick={() => void insert()} disabled={task.busy}>
            Insert {INSERTED_HEADERS.length} columns beside the table
          </Button>
        </div>
      )}
      <LinkSection />
    </div>
  );
}
