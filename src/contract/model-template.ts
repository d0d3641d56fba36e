// "Start a model": a starter underwriting model of one subject property, built only from live
// PROP formulas. The pane inserts it as new sheets and the service serves it as an .xlsx; both
// build it from modelTemplate, so the two are the same model. The subject's id sits in one input
// cell of the first sheet and every other formula refers to it (directly or through the profile's
// cells), so typing another id there retargets the whole model. The sheets themselves are laid
// out in model-sheets.ts and model-comps.ts.
import { type ModelFormula, type ModelRequest, requestsOf } from "./model-formulas";
import { MODEL_SHEET_KEYS, MODEL_SHEET_TITLES, type ModelSheet, type ModelSheetKey, type ModelSubject } from "./model-types";
import { compsSheet } from "./model-comps";
import { MAX_MARKET_BATCH } from "./market-batch";
import { historySheet, marketSheet, ownerSheet, profileSheet } from "./model-sheets";

export type { ModelFormula, ModelRequest };
export type { ModelCell, ModelChart, ModelSheet, ModelSheetKey, ModelSubject } from "./model-types";
export { MODEL_SHEET_KEYS, MODEL_SHEET_TITLES } from "./model-types";

/** Where the service serves the model as an .xlsx (`?property_id=cp_…`): outside /v1, free, no key. */
export const MODEL_XLSX_PATH = "/templates/underwriting-model.xlsx";

export interface ModelTemplate {
  /** The subject's input cell, with its sheet. */
  subjectCell: string;
  sheets: ModelSheet[];
}

/** The sheet names for a suffix: "" gives "Model - Profile", 2 gives "Model - Profile 2". */
export function modelSheetNames(suffix: number | null = null): Record<ModelSheetKey, string> {
  const names = { ...MODEL_SHEET_TITLES };
  if (suffix !== null) for (const key of MODEL_SHEET_KEYS) names[key] = `${MODEL_SHEET_TITLES[key]} ${suffix}`;
  return names;
}

/** The starter model of `subject`, its sheets named by `names` (modelSheetNames()). */
export function modelTemplate(subject: ModelSubject, names: Record<ModelSheetKey, string> = modelSheetNames()): ModelTemplate {
  const profile = profileSheet(subject, names);
  const sheets = [profile.sheet, compsSheet(profile.refs, names), marketSheet(profile.refs, names), historySheet(profile.refs, names)];
  sheets.push(ownerSheet(profile.refs, names));
  return { subjectCell: profile.refs.subject, sheets };
}

/** Every formula cell of a sheet. */
export function sheetFormulas(sheet: ModelSheet): ModelFormula[] {
  return sheet.cells.flat().filter((c): c is ModelFormula => c !== null && typeof c === "object");
}

export interface ModelCost {
  /** Credits of the first calculation when nothing is cached (an empty list or a missing market costs less). */
  credits: number;
  /**
   * HTTP requests it makes: one per distinct call, but the calls of an operation billed per unit
   * (the markets, `costPer`) travel together, up to the batch's size a request.
   */
  requests: number;
  /** Per sheet, in order: the requests its formulas add (a request two sheets share is counted on the first). */
  sheets: Array<{ name: string; credits: number; requests: Array<ModelRequest & { credits: number }> }>;
}

/**
 * What the template's first calculation costs: one charge per distinct request its PROP formulas
 * make, at the operation's published price. Every list in the template asks for at most one
 * page (limit at most 100), so a list is one request.
 */
export function modelCost(template: ModelTemplate): ModelCost {
  const seen = new Set<string>();
  const sheets = template.sheets.map((sheet) => {
    const requests = requestsOf(sheetFormulas(sheet)).filter((r) => !seen.has(r.key));
    for (const r of requests) seen.add(r.key);
    return { name: sheet.name, credits: requests.reduce((n, r) => n + r.credits, 0), requests };
  });
  const all = sheets.flatMap((s) => s.requests);
  const batched = all.filter((r) => r.operation === "getMarketSnapshotBatch").length;
  return {
    credits: sheets.reduce((n, s) => n + s.credits, 0),
    requests: all.length - batched + Math.ceil(batched / MAX_MARKET_BATCH),
    sheets,
  };
}
