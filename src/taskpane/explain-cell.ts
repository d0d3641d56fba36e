// "Explain this cell": where the selected value came from, in words. From the cell (its
// formula or the spill it is in, its comment), the outcome the function recorded under the
// formula's cell (cell-outcomes.ts: the requests it answered from), and the last refresh's
// changes. Plain functions over plain data: ExplainTab shows what explainCell returns.
import type { CellOutcome } from "../shared/cell-outcomes";
import { cellKey } from "../shared/cell-outcomes";
import { operationOf } from "../shared/cell-provenance";
import type { CellChange } from "./cell-changes";
import { factsText, FACT_LABELS, parseFacts, provenanceFacts, type Fact } from "./provenance-facts";
import { fieldOfCell, formulaCall } from "./explain-fields";
import type { CellSource, CellValue } from "./workbook-types";

export type ExplainStatus = "explained" | "frozen" | "not-recorded" | "failed" | "no-formula";

export interface Explanation {
  status: ExplainStatus;
  /** One line saying what the cell is. */
  title: string;
  facts: Fact[];
  /** The operation in the service's API reference. */
  link: { text: string; url: string } | null;
  /** The formula "Insert the source record beside the model" writes; null when there is no one record or market. */
  insert: string | null;
  /** Offer "Calculate it again": the cell has a formula whose sources are not recorded. */
  recalculate: boolean;
}

export interface ExplainInput {
  cell: CellSource;
  /** The outcome recorded under the formula's cell (outcomes.outcomeOf(cell.anchor)). */
  outcome: CellOutcome | null;
  /** The last refresh's changes, or null when none ran in this session. */
  lastChanges: CellChange[] | null;
  /** The service the pane is connected to, for the API reference link. */
  baseUrl: string | null;
}

export function explainCell({ cell, outcome, lastChanges, baseUrl }: ExplainInput): Explanation {
  if (!cell.formula) return cell.note && parseFacts(cell.note).length > 0 ? explainFrozen(cell) : noFormula(cell);
  const call = formulaCall(cell.formula);
  if (!call) return noFormula(cell);
  const facts: Fact[] = [{ label: "Function", text: `${call.name}(${call.args.join(", ")})` }];
  const where = cell.anchor && cell.anchor !== cell.address ? ` in the spill of ${cell.anchor}` : "";
  if (outcome && !outcome.ok) {
    facts.push({ label: "Error", text: `${outcome.code} ${outcome.message}` });
    return { status: "failed", title: `${cell.address}${where} failed`, facts, link: null, insert: null, recalculate: true };
  }
  const record = rowFirst(outcome?.ok ? (outcome.provenance ?? null) : null, cell);
  if (!record || record.sources.length === 0) {
    facts.push({
      label: "Source",
      text:
        record && outcome
          ? "This function answers without a request (from the add-in's own copy of the contract)."
          : "Not recorded: the cell was calculated before the pane opened, or too long ago to be kept. Calculate it again to see its source.",
    });
    return {
      status: record ? "explained" : "not-recorded",
      title: `${cell.address}${where}: ${shown(cell.value)}`,
      facts,
      link: null,
      insert: null,
      recalculate: !record,
    };
  }
  const [, ...rest] = provenanceFacts(cell.formula, record);
  const main = record.sources[0];
  // A cell of a list's spill: its row's own record (the id column), as the spill shows it.
  const rowRecord = rowIdentity(cell);
  if (rowRecord)
    rest.splice(
      rest.findIndex((f) => f.label === FACT_LABELS.snapshot),
      0,
      { label: "Row", text: rowRecord.text },
    );
  const field = fieldOfCell(call, cell);
  if (field) facts.push({ label: "Field", text: field });
  facts.push(...rest);
  facts.push({ label: "Last refresh", text: changeText(cell.address, lastChanges) });
  const operation = operationOf(main.method, main.path);
  const link =
    baseUrl && operation
      ? {
          text: `${operation.name} in the API reference`,
          url: `${baseUrl.replace(/\/+$/, "")}/docs/api#/${encodeURIComponent(operation.tag)}/${operation.name}`,
        }
      : null;
  return {
    status: "explained",
    title: `${cell.address}${where}: ${shown(cell.value)}`,
    facts,
    link,
    insert: insertFormula(rowRecord?.id ?? main.answer.id ?? null, main),
    recalculate: false,
  };
}

/**
 * The record with the source of the cell's own row first, when the call asked for several rows
 * (a PROP.MATCH over a range: one source per address) and the row shows the property one of
 * them matched; otherwise as recorded.
 */
function rowFirst<T extends { sources: Array<{ answer: { id?: string; match?: unknown } }> }>(
  record: T | null,
  cell: CellSource,
): T | null {
  if (!record || record.sources.length < 2) return record;
  const shown = new Set([cell.value, ...(cell.rowValues ?? [])].filter((v): v is string => typeof v === "string" && v !== ""));
  const at = record.sources.findIndex((s) => s.answer.match !== undefined && s.answer.id !== undefined && shown.has(s.answer.id));
  if (at <= 0) return record;
  return { ...record, sources: [record.sources[at], ...record.sources.filter((_, i) => i !== at)] };
}

/** A frozen value: no formula, and a comment "Freeze as values" wrote. */
function explainFrozen(cell: CellSource): Explanation {
  const facts = parseFacts(cell.note!);
  const record = facts.find((f) => f.label === FACT_LABELS.record || f.label === FACT_LABELS.market);
  const id = record?.text.split(",")[0].trim() ?? null;
  const formula = facts.find((f) => f.label === FACT_LABELS.formula)?.text ?? null;
  return {
    status: "frozen",
    title: `${cell.address}: a frozen value (${shown(cell.value)}); its comment keeps where it came from`,
    facts,
    link: null,
    insert: id && /^cp_/.test(id) ? `=PROP.DETAILS("${id}")` : formula,
    recalculate: false,
  };
}

function noFormula(cell: CellSource): Explanation {
  return {
    status: "no-formula",
    title: `${cell.address} holds no PROP formula`,
    facts: [
      {
        label: "Cell",
        text: "Select a cell holding a PROP formula, a value in its spill, or a value frozen by Freeze as values (it has a comment).",
      },
    ],
    link: null,
    insert: null,
    recalculate: false,
  };
}

/** The row's id, name and address, when the spill has an id column (a property, a sale, a listing). */
function rowIdentity(cell: CellSource): { id: string; text: string } | null {
  if (!cell.header || !cell.rowValues || cell.row === 0) return null;
  const column = (names: string[]) => cell.header!.findIndex((h) => typeof h === "string" && names.includes(h.trim().toLowerCase()));
  const idAt = column(["id", "property_id", "property id"]);
  const id = idAt >= 0 ? cell.rowValues[idAt] : null;
  if (typeof id !== "string" || id === "") return null;
  const pick = (names: string[]) => {
    const at = column(names);
    return at >= 0 && typeof cell.rowValues![at] === "string" ? (cell.rowValues![at] as string) : null;
  };
  const parts = [id, pick(["name", "property_name", "property name"]), pick(["address", "street address"]), pick(["city"])];
  return { id, text: parts.filter(Boolean).join(", ") };
}

/** What the last refresh did to the cell: "changed 6.1% -> 5.8% (-30 bps)", "unchanged", or that none ran. */
function changeText(address: string, changes: CellChange[] | null): string {
  if (changes === null) return "No refresh has run since the pane opened.";
  const key = cellKey(address);
  const change = changes.find((c) => c.kind === "changed" && cellKey(c.address) === key);
  if (change) return `changed ${change.before || "(empty)"} -> ${change.after || "(empty)"}${change.change ? ` (${change.change})` : ""}`;
  if (changes.some((c) => c.kind === "added" && c.address.includes(":") && rowHolds(c.address, key)))
    return "its row was added by the last refresh";
  return "unchanged at the last refresh";
}

/** Whether the row range ("Sheet1!A7:F7") holds the cell key ("sheet1!C7"). */
function rowHolds(range: string, key: string): boolean {
  const [sheet, cells] = cellKey(range).split("!");
  const [cellSheet, cell] = key.split("!");
  const [from, to] = cells.split(":");
  const row = (a: string) => Number(/\d+$/.exec(a)?.[0]);
  const col = (a: string) => /^[A-Z]+/.exec(a)?.[0] ?? "";
  const within = (c: string) => c.length > col(from).length || (c.length === col(from).length && c >= col(from));
  const before = (c: string) => c.length < col(to).length || (c.length === col(to).length && c <= col(to));
  return sheet === cellSheet && row(cell) === row(from) && within(col(cell)) && before(col(cell));
}

/** The formula that inserts the value's source: the record's details, or the market's figures. */
function insertFormula(id: string | null, main: { answer: { place?: string; assetType?: string }; query: Record<string, string> }) {
  if (id && /^cp_/.test(id)) return `=PROP.DETAILS("${id}")`;
  const place = main.query.geography ?? main.answer.place;
  if (main.answer.assetType && place && main.answer.place) return `=PROP.MARKET("${place}","${main.answer.assetType}")`;
  return null;
}

function shown(value: CellValue): string {
  if (value === null || value === "") return "(empty)";
  if (typeof value === "object") return String(value.basicValue);
  return String(value);
}

/** The explanation as plain text (title, then one line per fact), as the pane's copy button gives it. */
export function explanationText(explanation: Explanation): string {
  const link = explanation.link ? `\nAPI reference: ${explanation.link.url}` : "";
  return `${explanation.title}\n${factsText(explanation.facts)}${link}`;
}
