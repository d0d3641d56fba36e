// A cell as the analyst sees it: its value, the number format it is shown in and the text that
// format gives, read back from the workbook; and how a change of it reads: basis points for a
// percentage, per cent for an amount, days for a date. A value a PROP function returns with its
// own format (a date, a rate) carries that format on the value, not on the cell, so the shown
// format is the value's own when it has one (Range.valuesAsJson says so), else the cell's.

/** A value as Excel gives it for a cell (an error as its text, "#N/A"; an empty cell as ""). */
export type ShownValue = string | number | boolean;

export interface ShownCell {
  value: ShownValue;
  /** The number format the value is shown in ("0.00%", "yyyy-mm-dd", "General"). */
  format: string;
  /** What the cell shows ("7.84%", "2027-01-01", "1,200"). */
  text: string;
}

/** What a number format makes of a number: a percentage, a date or time, or a plain amount. */
export type FormatKind = "percent" | "date" | "number";

/**
 * The format a cell's value is shown in: the value's own, when Range.valuesAsJson gives it one
 * (a FormattedNumberCellValue, or a DoubleCellValue with a format), else the cell's number format.
 */
export function shownFormat(cellFormat: unknown, json: unknown): string {
  if (typeof json === "object" && json !== null) {
    const own = (json as { numberFormat?: unknown }).numberFormat;
    if (typeof own === "string" && own !== "") return own;
  }
  return typeof cellFormat === "string" && cellFormat !== "" ? cellFormat : "General";
}

/** A loaded value as a shown value: anything else (an entity, null) as "". */
export function shownValue(value: unknown): ShownValue {
  return typeof value === "number" || typeof value === "boolean" || typeof value === "string" ? value : "";
}

/**
 * One cell as shown, from what Excel gave for it. Excel's text is what the grid shows, except
 * that a number too wide for its column shows as "####": then the number is written out here
 * in its format instead.
 */
export function shownCell(value: unknown, format: string, text: unknown): ShownCell {
  const shown = shownValue(value);
  const excelText = typeof text === "string" ? text : "";
  const usable = excelText !== "" && !/^#+$/.test(excelText);
  return { value: shown, format, text: usable || shown === "" ? excelText : formatted(shown, format) };
}

/** The kind of a number format: "%" outside quotes makes a percentage; y, m, d, h or s a date or time. */
export function formatKind(format: string): FormatKind {
  const code = format
    .replace(/"[^"]*"/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\\./g, "");
  if (code.includes("%")) return "percent";
  if (/^general$/i.test(code.trim())) return "number";
  return /[ymdhs]/i.test(code) ? "date" : "number";
}

/**
 * The change from `before` to `after` in words: "+125 bps" for percentages (a basis point is
 * 0.01 percentage points), "-4.2%" for amounts (relative to the old amount), "+28 days" for
 * dates; "" when either side is not a number, or an amount moved from zero.
 */
export function changeText(before: ShownCell, after: ShownCell): string {
  if (typeof before.value !== "number" || typeof after.value !== "number") return "";
  const kind = formatKind(after.format);
  const diff = after.value - before.value;
  if (kind === "percent") return `${signed(diff * 10_000, 0)} bps`;
  if (kind === "date") {
    const days = Math.round(diff);
    return `${signed(days, 0)} day${Math.abs(days) === 1 ? "" : "s"}`;
  }
  if (before.value === 0) return "";
  return `${signed((diff / Math.abs(before.value)) * 100, 1)}%`;
}

/** "+125", "-4.2", "+0.04": `decimals` places, more when that would round a real change to 0. */
function signed(n: number, decimals: number): string {
  let places = decimals;
  while (places < 4 && n !== 0 && Number(n.toFixed(places)) === 0) places++;
  const text = Math.abs(n).toLocaleString("en-US", { minimumFractionDigits: places, maximumFractionDigits: places });
  return `${n < 0 ? "-" : "+"}${text}`;
}

/** Days from Excel's day zero (1899-12-30) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET = 25_569;

/**
 * A value written out in its number format, for the formats the add-in and analysts use most
 * (percentages with their decimals, dates and times, amounts with thousands separators and
 * decimals); other formats get the number as Excel's General format would show most.
 */
export function formatted(value: ShownValue, format: string): string {
  if (value === "") return "";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return value;
  const kind = formatKind(format);
  const code = format.replace(/"[^"]*"/g, "").replace(/\[[^\]]*\]/g, "");
  if (kind === "date") {
    const iso = new Date(Math.round((value - EXCEL_EPOCH_OFFSET) * 86_400_000)).toISOString();
    return /h/i.test(code) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
  }
  const decimals = /\.(0+)/.exec(code)?.[1].length ?? 0;
  if (kind === "percent") return `${(value * 100).toFixed(decimals)}%`;
  if (/general/i.test(code) || !/[0#]/.test(code)) return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
  const grouped = code.includes(",");
  const text = Math.abs(value).toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: grouped,
  });
  const currency = code.includes("$") ? "$" : "";
  return `${value < 0 ? "-" : ""}${currency}${text}`;
}
