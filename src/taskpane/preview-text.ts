// What the search preview shows, as text: each cell as Excel would show it (a date as
// 2026-03-15, a rate as 6.25%, an amount with thousands separators), and a name/value result
// (PROP.MARKET without a metric) read as people read it: labelled figures first, then what the
// record describes (its id, place, asset type, date). The preview is only a view: Insert
// writes the rows previewRows made, as the formula spills them.
import { DATETIME_FORMAT, DATE_FORMAT, fromExcelSerial } from "../functions/cell-values";
import { RESOURCES } from "../functions/record-fields";
import { isFormattedNumber } from "./cell-text";
import { fieldLabel, isFigure } from "../functions/field-labels";
import { SEARCH_KINDS, type SearchKind } from "./search-kinds";
import type { PreviewTable } from "./search-request";

/** Fields holding a year (year_built, assessment_year): shown as typed, 1998 not 1,998. */
const YEAR_FIELD = /(^|_)year(_|$)/;

/** One value of a preview row as the cell shows it; "" for a missing value. `field` names its field, if known. */
export function displayText(value: unknown, field?: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "";
    return value.toLocaleString("en-US", { maximumFractionDigits: 2, useGrouping: !(field && YEAR_FIELD.test(field)) });
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (isFormattedNumber(value)) return formattedText(value.basicValue, value.numberFormat);
  if (typeof value === "string") return value;
  return String(value);
}

/** A number in one of the formats the functions give dates and rates (cell-values.ts). */
function formattedText(value: number, format: string): string {
  if (!Number.isFinite(value)) return "";
  if (format === DATE_FORMAT) return fromExcelSerial(value);
  if (format === DATETIME_FORMAT) {
    const minutes = Math.round(value * 24 * 60);
    const ofDay = minutes % (24 * 60);
    const time = `${String(Math.floor(ofDay / 60)).padStart(2, "0")}:${String(ofDay % 60).padStart(2, "0")}`;
    return `${fromExcelSerial((minutes - ofDay) / (24 * 60))} ${time}`;
  }
  const percent = /^0(?:\.(0+))?%$/.exec(format);
  if (percent) return `${(value * 100).toFixed(percent[1]?.length ?? 0)}%`;
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

export interface PreviewRow {
  cells: string[];
  /** The field a name/value row shows (its label is in cells[0]), for a tooltip. */
  field?: string;
}

export interface PreviewView {
  columns: string[];
  rows: PreviewRow[];
}

/**
 * The preview of a result. A list keeps the spill's columns (field names, as the inserted
 * table's header) and order. Name/value rows get labels, the figures (counts, amounts, rates)
 * before the rows that say what the record is, each group in the contract's order.
 */
export function previewView(kind: SearchKind, table: PreviewTable): PreviewView {
  if (!table.pairs)
    return { columns: table.header, rows: table.rows.map((row) => ({ cells: row.map((cell, i) => displayText(cell, table.header[i])) })) };
  const fields = new Map(RESOURCES[SEARCH_KINDS[kind].resource].map((f) => [f.name, f]));
  const rows = table.rows.map((row) => {
    const name = String(row[0]);
    const field = fields.get(name);
    return {
      figure: field ? isFigure(field) : false,
      row: { cells: [field ? fieldLabel(field) : name, displayText(row[1], name)], field: name },
    };
  });
  return {
    columns: ["Field", "Value"],
    rows: [...rows.filter((r) => r.figure), ...rows.filter((r) => !r.figure)].map((r) => r.row),
  };
}
