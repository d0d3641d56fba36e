// The shapes of the starter model's template (model-template.ts builds it): its sheets, cells,
// charts and subject, apart so the modules that lay out the sheets can name them.
import type { ModelFormula } from "./model-formulas";

/** One cell of the template: a label or value, a formula, or empty. */
export type ModelCell = string | number | ModelFormula | null;

/** A line chart over a spill, in the shape of the pane's ChartSpec (workbook-types.ts). */
export interface ModelChart {
  /** The spilling formula's cell, with its sheet: "'Model - History'!A7". */
  anchor: string;
  kind: "line" | "column";
  title: string;
  /** Zero-based spill column of the x values (row 0 of the spill is its header) and the columns plotted. */
  xColumn: number;
  yColumns: number[];
  /** Top-left cell of the chart, with its sheet. */
  placeAt: string;
}

export interface ModelSheet {
  /** What the sheet is, stable across names: "profile", "comps", "market", "history", "owner". */
  key: ModelSheetKey;
  /** The sheet's name in the workbook ("Model - Profile", or with a suffix: "Model - Profile 2"). */
  name: string;
  /** Rows of cells from A1, rectangular. */
  cells: ModelCell[][];
  /** Column widths, in characters, from column A. */
  widths: number[];
  /** Zero-based rows shown bold (titles and header rows). */
  boldRows: number[];
  /** Ranges ("B4", "L9:P18") the analyst types into: shown as input cells. */
  inputs: string[];
  /** Number formats of ranges the PROP functions do not format themselves (Excel arithmetic, inputs). */
  formats: Array<{ range: string; format: string }>;
  charts: ModelChart[];
  /** What the sheet holds and how it behaves, for the docs and the pane. */
  notes: string[];
}

export const MODEL_SHEET_KEYS = ["profile", "comps", "market", "history", "owner"] as const;
export type ModelSheetKey = (typeof MODEL_SHEET_KEYS)[number];

/** The sheet names, before any suffix. */
export const MODEL_SHEET_TITLES: Record<ModelSheetKey, string> = {
  profile: "Model - Profile",
  comps: "Model - Sale comps",
  market: "Model - Market",
  history: "Model - History",
  owner: "Model - Owner & tenants",
};

export interface ModelSubject {
  propertyId: string;
  /** How the pane names the subject (its address, say); written beside the id, not used by any formula. */
  label?: string;
}
