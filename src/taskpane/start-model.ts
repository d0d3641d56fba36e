// "Start a model": the subject (a property id, an address matched through the service, or the
// selected cell), what the model's first calculation will cost (modelCost, from the template's
// own formulas), the sheet names (never over an existing sheet: a clash is asked about, and the
// answer is a free suffix), and the insert itself: the sheets, then a chart per chart spec.
import type { MatchCandidate, PropertyMatch } from "../contract/property-match";
import {
  MODEL_XLSX_PATH,
  type ModelSheet,
  type ModelSubject,
  type ModelTemplate,
  modelCost,
  modelSheetNames,
  modelTemplate,
} from "../contract/model-template";
import type { MatchAsk } from "../shared/match-batching";
import type { CellInput, NewSheet, SelectedRows, WorkbookPort } from "./workbook-types";

/** The same shape as the functions check (src/functions/param-values.ts). */
const PROPERTY_ID = /^cp_[A-Za-z0-9-]+$/;

/** A subject the pane cannot take; the message is what it shows (nothing was spent). */
export class SubjectError extends Error {
  override readonly name = "SubjectError";
}

export type SubjectInput = { kind: "id"; text: string } | { kind: "address"; text: string } | { kind: "selection" };

/** The subject, or the candidates of an ambiguous address to pick from. */
export type SubjectAnswer = { kind: "subject"; subject: ModelSubject } | { kind: "choose"; address: string; candidates: MatchCandidate[] };

export interface SubjectSources {
  match(ask: MatchAsk): Promise<PropertyMatch>;
  readSelectedRows(): Promise<SelectedRows>;
}

export async function findSubject(input: SubjectInput, sources: SubjectSources): Promise<SubjectAnswer> {
  if (input.kind === "id") return { kind: "subject", subject: { propertyId: checkedId(input.text) } };
  if (input.kind === "address") return matchAddress(input.text, sources);
  const selection = await sources.readSelectedRows();
  const ids = idsIn(selection);
  if (ids.length === 1) return { kind: "subject", subject: { propertyId: ids[0] } };
  if (ids.length > 1) {
    throw new SubjectError(`The selection holds ${ids.length} property ids (${ids.slice(0, 3).join(", ")}…): select the cell of one.`);
  }
  // No id: a selected cell holding an address is matched like a typed one.
  const texts = selection.rows.flat().filter((v): v is string => typeof v === "string" && v.trim() !== "");
  if (selection.rows.length === 1 && texts.length === 1 && /\d/.test(texts[0])) return matchAddress(texts[0], sources);
  throw new SubjectError(`${selection.source} holds no property id (like cp_0001a2b3): select the cell of one, or type an address.`);
}

function checkedId(raw: string): string {
  const id = raw.trim();
  if (!PROPERTY_ID.test(id)) throw new SubjectError(`"${id}" is not a property id; ids look like cp_0001a2b3.`);
  return id;
}

async function matchAddress(raw: string, sources: SubjectSources): Promise<SubjectAnswer> {
  const address = raw.trim().replace(/\s+/g, " ");
  if (address === "") throw new SubjectError("Type the subject's address, such as 623 Washington Blvd, Austin, TX 78721.");
  const found = await sources.match({ address });
  if (found.status === "matched" && found.property_id) {
    return { kind: "subject", subject: { propertyId: found.property_id, label: found.matched_address ?? address } };
  }
  if (found.status === "ambiguous" && found.candidates.length > 0) return { kind: "choose", address, candidates: found.candidates };
  throw new SubjectError(found.detail ?? `No property matches "${address}".`);
}

/** The distinct property ids in the selected rows (an id column's first, when the header names one). */
function idsIn(selection: SelectedRows): string[] {
  const header = selection.header?.map((h) => String(h ?? "").toLowerCase()) ?? [];
  const column = ["property_id", "id"].map((name) => header.indexOf(name)).find((i) => i >= 0);
  const values = column !== undefined && selection.rows.length > 1 ? selection.rows.map((r) => r[column]) : selection.rows.flat();
  const ids: string[] = [];
  for (const v of values) if (typeof v === "string" && PROPERTY_ID.test(v.trim()) && !ids.includes(v.trim())) ids.push(v.trim());
  return ids;
}

/** The model's sheet names that the workbook already has (case aside, as Excel compares them). */
export function sheetClashes(existing: string[], suffix: number | null = null): string[] {
  const taken = new Set(existing.map((n) => n.toLowerCase()));
  return Object.values(modelSheetNames(suffix)).filter((n) => taken.has(n.toLowerCase()));
}

/** The first suffix, from 2, under which none of the model's sheets exists. */
export function freeSuffix(existing: string[]): number {
  let n = 2;
  while (sheetClashes(existing, n).length > 0) n++;
  return n;
}

/** "About 11 credits for the first calculation: Profile 1, Sale comps 2, …" */
export function modelCostText(template: ModelTemplate, creditsLeft: number | null): string {
  const cost = modelCost(template);
  const parts = cost.sheets.map((s) => `${s.name.replace(/^Model - /, "").replace(/ \d+$/, "")} ${s.credits}`);
  const left = creditsLeft === null ? "" : ` You have ${creditsLeft.toLocaleString("en-US")} left.`;
  return (
    `About ${cost.credits} credits for the first calculation (${cost.requests} requests): ${parts.join(", ")}. ` +
    `Less when a list is empty or the subject has no metro; recalculating costs nothing.${left}`
  );
}

/** A template sheet as the workbook writes it. */
export function newSheet(sheet: ModelSheet): NewSheet {
  const cells: CellInput[][] = sheet.cells.map((row) => row.map((c) => (c !== null && typeof c === "object" ? { formula: c.formula } : c)));
  return { name: sheet.name, cells, widths: sheet.widths, boldRows: sheet.boldRows, inputs: sheet.inputs, formats: sheet.formats };
}

export interface InsertedModel {
  sheets: string[];
  charts: string[];
  /** Why charts could not be added (the sheets are in place all the same). */
  chartProblems: string[];
}

/**
 * Adds the model's sheets (named with `suffix` when given) and then its charts. The workbook
 * refuses, adding nothing, when a sheet of those names exists (SheetExistsError).
 */
export async function insertModel(workbook: WorkbookPort, subject: ModelSubject, suffix: number | null): Promise<InsertedModel> {
  const template = modelTemplate(subject, modelSheetNames(suffix));
  const sheets = await workbook.insertSheets(template.sheets.map(newSheet));
  const charts: string[] = [];
  const chartProblems: string[] = [];
  for (const spec of template.sheets.flatMap((s) => s.charts)) {
    try {
      charts.push(await workbook.insertChart(spec));
    } catch (err) {
      chartProblems.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { sheets, charts, chartProblems };
}

/** The link to download the model of `propertyId` from the service at `baseUrl`. */
export function modelXlsxUrl(baseUrl: string, propertyId: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${MODEL_XLSX_PATH}?property_id=${encodeURIComponent(propertyId)}`;
}
