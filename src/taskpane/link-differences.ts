// "Link a table", before anything is replaced: how the values an analyst typed in one column
// compare with what the snapshot records for the same properties, which the =PROP.PROPERTY
// formulas would show instead. Each field is compared by its kind, read from the contract's
// schema (record-fields.ts), so a field added to the record is compared with no change here.
import { CommercialProperty } from "../contract/records";
import { YEAR_NUMBERS } from "../contract/dates";
import { fromExcelSerial, toExcelSerial } from "../functions/cell-values";
import { fieldLabel } from "../functions/field-labels";
import { RESOURCES, type FieldInfo } from "../functions/record-fields";
import { isFormattedNumber } from "./cell-text";
import { displayText } from "./preview-text";
import type { CellValue } from "./workbook-types";

/**
 * How a field's values are compared, and when two of them are equal:
 *
 * - `exact`, whole numbers (years, units, stories, counts): equal only when equal; a year
 *   built of 1998 against 1999 is a difference the analyst wants to see.
 * - `relative`, amounts that are never negative (areas, acres, prices, rents, values): within
 *   0.5% of the snapshot's, which is the most rounding to three significant figures moves a
 *   figure (120,000 typed for 120,400; $12.3M for $12,340,000).
 * - `decimals`, numbers that may be negative (coordinates): within 0.0001, four decimals (about
 *   11 m of latitude); a share of a coordinate means nothing, as its zero is arbitrary.
 * - `rate`, fractions shown as percentages (occupancy): within half a percentage point, so a rate
 *   typed to the whole percent (92% for 0.9234) agrees.
 * - `date`: the same day (Excel serials, 1900 system; the time of day is left aside).
 * - `text`: equal ignoring case and surrounding spaces.
 */
export type Comparison = "exact" | "relative" | "decimals" | "rate" | "date" | "text";

const RELATIVE_TOLERANCE = 0.005;
const DECIMALS_TOLERANCE = 0.0001;
const RATE_TOLERANCE = 0.005;
/** Float noise allowed on top of a tolerance (0.925 - 0.92 is 0.005000000000000004). */
const EPSILON = 1e-9;

/** One row's two values: the typed one as the cell holds it, the snapshot's as the formula would read it. */
export interface ValuePair {
  /** Index of the row in the arrays given. */
  row: number;
  typed: number | string;
  live: number | string;
}

/** How far the differing numbers (or dates, in days) are from the snapshot's. */
export interface NumberDifferences {
  /** Rows whose typed number differs from the snapshot's. */
  count: number;
  smallestAbsolute: number;
  medianAbsolute: number;
  largestAbsolute: number;
  /** Differences relative to the snapshot's value (0.18 is 18%); null when it is 0 in every row. */
  medianRelative: number | null;
  largestRelative: number | null;
  /** The row that differs most: by the relative difference for `relative` fields, else by the absolute one. */
  largest: ValuePair;
}

export interface ColumnDifferences {
  field: string;
  comparison: Comparison;
  /** Rows compared: same + differ + typedBlank + liveMissing + bothBlank. */
  rows: number;
  same: number;
  /** Rows whose typed value differs: numbers, text, percent points and years only together. */
  differ: number;
  /** Typed cell empty where the snapshot has a value: the formula fills it. */
  typedBlank: number;
  /** A typed value where the snapshot records none: linking keeps the typed value there. */
  liveMissing: number;
  /** Empty on both sides (left empty). */
  bothBlank: number;
  /** A rate typed in percentage points (92 for 0.92) that agrees read so; counted in `differ`, as the formula shows 0.92. */
  percentPoints: number;
  /** A year typed where the snapshot has a date (2019 for 2019-06-14); counted in `differ`. */
  yearsOnly: number;
  /** The first row of `percentPoints` or `yearsOnly`, for the summary. */
  unitExample: ValuePair | null;
  /** The numbers (dates: in days) that differ, or null when none does. */
  numbers: NumberDifferences | null;
  /** Rows that differ as text (or hold text in a number or date column): how many, and the first 3. */
  text: { count: number; examples: ValuePair[] };
}

const MAX_EXAMPLES = 3;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A property field by name, as record-fields.ts describes it. */
function propertyField(field: string): FieldInfo {
  const info = RESOURCES.property.find((f) => f.name === field);
  if (!info) throw new Error(`${field} is not a field of a commercial property`);
  return info;
}

/** How a field is compared (see Comparison), from its format, type and lower bound. */
export function comparisonOf(field: string): Comparison {
  const info = propertyField(field);
  if (info.format === "date" || info.format === "datetime") return "date";
  if (info.format === "fraction") return "rate";
  if (!info.numeric) return "text";
  if (info.type.startsWith("integer")) return "exact";
  const minimum = (CommercialProperty.properties as Record<string, { minimum?: number }>)[field]?.minimum;
  return minimum !== undefined && minimum >= 0 ? "relative" : "decimals";
}

/** A typed cell as a value: null when blank, the number of a formatted number, text trimmed. */
function typedValue(cell: CellValue | undefined): number | string | boolean | null {
  if (cell === null || cell === undefined) return null;
  if (isFormattedNumber(cell)) return Number.isFinite(cell.basicValue) ? cell.basicValue : null;
  if (typeof cell === "number") return Number.isFinite(cell) ? cell : null;
  if (typeof cell === "string") return cell.trim() === "" ? null : cell.trim();
  return cell;
}

/** A plain number typed as text ("1998", "-97.74"), as a number; other text stays text. */
function asNumber(value: number | string | boolean): number | null {
  if (typeof value === "number") return value;
  return typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : null;
}

function liveValue(value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  const text = Array.isArray(value) ? value.join(", ") : String(value);
  return text.trim() === "" ? null : text;
}

function within(typed: number, live: number, comparison: Comparison): boolean {
  const gap = Math.abs(typed - live);
  if (comparison === "exact") return gap === 0;
  if (comparison === "date") return Math.floor(typed) === Math.floor(live);
  if (comparison === "relative") return gap <= RELATIVE_TOLERANCE * Math.abs(live) + EPSILON;
  if (comparison === "rate") return gap <= RATE_TOLERANCE + EPSILON;
  return gap <= DECIMALS_TOLERANCE + EPSILON;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

interface Gap {
  pair: ValuePair;
  absolute: number;
  relative: number | null;
}

function numberDifferences(gaps: Gap[], comparison: Comparison): NumberDifferences | null {
  if (gaps.length === 0) return null;
  const absolute = gaps.map((g) => g.absolute);
  const relative = gaps.flatMap((g) => (g.relative === null ? [] : [g.relative]));
  const measure = (g: Gap) => (comparison === "relative" ? (g.relative ?? Infinity) : g.absolute);
  const largest = gaps.reduce((a, b) => (measure(b) > measure(a) ? b : a));
  return {
    count: gaps.length,
    smallestAbsolute: Math.min(...absolute),
    medianAbsolute: median(absolute),
    largestAbsolute: Math.max(...absolute),
    medianRelative: relative.length > 0 ? median(relative) : null,
    largestRelative: relative.length > 0 ? Math.max(...relative) : null,
    largest: largest.pair,
  };
}

type Outcome = { kind: "same" } | { kind: "text" | "points" | "year"; pair: ValuePair } | { kind: "number"; gap: Gap };

/** How one row's typed value (not blank) compares with the snapshot's (not missing). */
function compare(row: number, typed: number | string | boolean, live: number | string, comparison: Comparison): Outcome {
  const shown = typeof typed === "boolean" ? (typed ? "TRUE" : "FALSE") : typed;
  // The snapshot's value as a number: a date as its serial.
  const liveNumber = comparison === "date" && typeof live === "string" ? toExcelSerial(live) : typeof live === "number" ? live : NaN;
  if (comparison === "text" || Number.isNaN(liveNumber)) {
    const same = String(shown).toLowerCase() === live.toString().trim().toLowerCase();
    return same ? { kind: "same" } : { kind: "text", pair: { row, typed: shown, live } };
  }
  const number = comparison === "date" && typeof typed === "string" && ISO_DATE.test(typed) ? toExcelSerial(typed) : asNumber(typed);
  if (number === null || Number.isNaN(number)) return { kind: "text", pair: { row, typed: shown, live } };
  const pair: ValuePair = { row, typed: number, live };
  if (comparison === "date" && Number.isInteger(number) && number >= YEAR_NUMBERS.min && number <= YEAR_NUMBERS.max) {
    return { kind: "year", pair };
  }
  // A rate above 1 against a fraction is read in percentage points, and never taken as agreeing.
  const points = comparison === "rate" && number > 1 && liveNumber <= 1;
  const value = points ? number / 100 : number;
  if (within(value, liveNumber, comparison)) return points ? { kind: "points", pair } : { kind: "same" };
  const absolute = comparison === "date" ? Math.abs(Math.floor(value) - Math.floor(liveNumber)) : Math.abs(value - liveNumber);
  const relative = liveNumber === 0 || comparison === "date" ? null : absolute / Math.abs(liveNumber);
  return { kind: "number", gap: { pair, absolute, relative } };
}

/**
 * Compares the typed cells of one column (`typed`, as Excel reads them: dates as serials) with
 * the snapshot's values of `field` for the same rows (`live`, as the API record holds them:
 * dates as "2019-06-14", null when not recorded). The two arrays go row by row.
 */
export function differences(field: string, typed: CellValue[], live: unknown[]): ColumnDifferences {
  if (typed.length !== live.length) throw new Error(`${typed.length} typed values against ${live.length} from the snapshot`);
  const comparison = comparisonOf(field);
  const d: ColumnDifferences = {
    field,
    comparison,
    rows: typed.length,
    same: 0,
    differ: 0,
    typedBlank: 0,
    liveMissing: 0,
    bothBlank: 0,
    percentPoints: 0,
    yearsOnly: 0,
    unitExample: null,
    numbers: null,
    text: { count: 0, examples: [] },
  };
  const gaps: Gap[] = [];

  typed.forEach((cell, row) => {
    const t = typedValue(cell);
    const l = liveValue(live[row]);
    if (t === null && l === null) d.bothBlank++;
    else if (t === null) d.typedBlank++;
    else if (l === null) d.liveMissing++;
    else {
      const outcome = compare(row, t, l, comparison);
      if (outcome.kind === "same") d.same++;
      else d.differ++;
      if (outcome.kind === "text") {
        d.text.count++;
        if (d.text.examples.length < MAX_EXAMPLES) d.text.examples.push(outcome.pair);
      }
      if (outcome.kind === "points") d.percentPoints++;
      if (outcome.kind === "year") d.yearsOnly++;
      if (outcome.kind === "points" || outcome.kind === "year") d.unitExample ??= outcome.pair;
      if (outcome.kind === "number") gaps.push(outcome.gap);
    }
  });
  d.numbers = numberDifferences(gaps, comparison);
  return d;
}

/** "3 differ", "1 differs": a count with its verb (or noun) in the right number. */
function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** "46 of 50 agree", "all 50 agree", "none of 50 agree", "1 of 1 agrees". */
function agreeing(same: number, rows: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  if (same === rows && rows > 1) return `all ${n(rows)} agree`;
  if (same === 0) return `none of ${n(rows)} agree`;
  return `${n(same)} of ${n(rows)} ${same === 1 ? "agrees" : "agree"}`;
}

/** A share as people read it: 2.1%, 0.6%, 18%. */
function percent(share: number): string {
  const p = share * 100;
  return `${p < 10 ? Number(p.toFixed(1)) : Math.round(p)}%`;
}

/** A fraction as the formula's cell shows it (0.00%): 92%, 92.34%. */
function rateText(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

/** How a value of `field` reads in the summary: 120,000; $12,500,000; 92%; 2019-06-14; 1998; "Acme". */
function valueText(value: number | string, info: FieldInfo, comparison: Comparison): string {
  if (typeof value === "string") return ISO_DATE.test(value) ? value : `"${value}"`;
  if (comparison === "date") return fromExcelSerial(value);
  // A rate typed above 1 is shown as typed (92), the snapshot's as the formula shows it (92%).
  if (comparison === "rate") return value > 1 ? displayText(value) : rateText(value);
  const text = displayText(value, info.name);
  return fieldLabel(info).includes("$") ? `$${text}` : text;
}

/** The spread of the differing numbers: "by 1 to 4 years", "by 2.1% at the median and 18% at most, in row 7: ...". */
function byHowMuch(n: NumberDifferences, info: FieldInfo, comparison: Comparison, rowNumber: (row: number) => number): string {
  const { largest } = n;
  const where = `in row ${rowNumber(largest.row)}: ${valueText(largest.typed, info, comparison)} typed, ${valueText(largest.live, info, comparison)} in the snapshot`;
  const spread = (median: string, most: string) => (n.count === 1 ? `by ${most}` : `by ${median} at the median and ${most} at most`);
  if (comparison === "rate") {
    const points = (share: number) => count(Number((share * 100).toFixed(1)), "point", "points");
    return `${spread(points(n.medianAbsolute), points(n.largestAbsolute))}, ${where}`;
  }
  if (comparison === "relative" && n.medianRelative !== null && n.largestRelative !== null) {
    return `${spread(percent(n.medianRelative), percent(n.largestRelative))}, ${where}`;
  }
  if (comparison === "relative")
    return `${spread(valueText(n.medianAbsolute, info, comparison), valueText(n.largestAbsolute, info, comparison))}, ${where}`;
  const unit = comparison === "date" ? " days" : /(^|_)year(_|$)/.test(info.name) ? " years" : "";
  const amount = (x: number) => (comparison === "decimals" ? String(Number(x.toFixed(4))) : x.toLocaleString("en-US"));
  const one = unit === "" || n.largestAbsolute !== 1 ? unit : unit.slice(0, -1);
  if (n.smallestAbsolute === n.largestAbsolute) return `by ${amount(n.largestAbsolute)}${one}`;
  return `by ${amount(n.smallestAbsolute)} to ${amount(n.largestAbsolute)}${unit}`;
}

/**
 * One sentence on a column's differences, as the pane shows it before linking: "Year built: 46
 * of 50 agree; 3 differ (by 1 to 4 years); 1 blank will be filled." A row it names is
 * `rowNumber(index)`, the index being into the arrays compared: give the sheet's row number
 * (the default, index + 1, counts the rows compared).
 */
export function differenceSummary(
  label: string,
  d: ColumnDifferences,
  { rowNumber = (index: number) => index + 1 }: { rowNumber?: (index: number) => number } = {},
): string {
  if (d.rows === 0) return `${label}: no rows to compare.`;
  const info = propertyField(d.field);
  const parts = [agreeing(d.same, d.rows)];
  if (d.numbers) parts.push(`${count(d.numbers.count, "differs", "differ")} (${byHowMuch(d.numbers, info, d.comparison, rowNumber)})`);
  if (d.text.count > 0) {
    const examples = d.text.examples.map((e) => `"${e.typed}" → ${valueText(e.live, info, d.comparison)}`).join(", ");
    const what = d.comparison === "text" ? count(d.text.count, "differs", "differ") : count(d.text.count, "holds text", "hold text");
    parts.push(`${what} (${d.text.count > d.text.examples.length ? "e.g. " : ""}${examples})`);
  }
  const unit = d.unitExample;
  if (d.percentPoints > 0 && unit) {
    const live = Number(unit.live);
    parts.push(
      `${count(d.percentPoints, "is", "are")} typed in percentage points (${displayText(unit.typed)} for ${live}; the formula shows ${rateText(live)})`,
    );
  }
  if (d.yearsOnly > 0 && unit) {
    parts.push(`${count(d.yearsOnly, "holds", "hold")} a year only (${unit.typed} where the formula shows ${unit.live})`);
  }
  if (d.typedBlank > 0) parts.push(`${count(d.typedBlank, "blank", "blanks")} will be filled`);
  if (d.liveMissing > 0) parts.push(`${count(d.liveMissing, "has", "have")} no value in the snapshot (their typed values stay)`);
  if (d.bothBlank > 0) parts.push(`${count(d.bothBlank, "is", "are")} blank with no value in the snapshot either`);
  return `${label}: ${parts.join("; ")}.`;
}
