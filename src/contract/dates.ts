// The date grammar: every date input of the service (query parameters) and of the add-in
// (function arguments and options) reads its value with it, so a typed value means one thing
// on both sides. Each form names a span of days; a lower bound (`start`) takes its first day,
// an upper bound (`end`) its last:
//
// - a date, 2026-03-31 (one day), or a date cell: an Excel date serial, 2201 and above;
// - a year, 2026: a whole number from 1900 to 2200 is a year, never a date serial;
// - a quarter, 2026-Q1 (also 2026Q1, Q1 2026, q1-2026); a month, 2026-03;
// - relative to the capture date of the snapshot answering: -8Q, -3Y, -6M (the quarter, year or
//   month that many before the one holding the capture date), LQ (the last complete quarter:
//   the one before the quarter holding the capture date) and YTD (1 January of the capture
//   date's year to the capture date).
//
// Relative forms resolve where the capture date is known: the service, against the snapshot
// that answers the call (a pinned call's included). The add-in checks their syntax and sends
// them as written (in canonical spelling); it resolves the other forms itself.
import { quarterEnd, quarterOf, quarterStart } from "./periods";

/** Which end of its span a date input stands for: a lower bound's first day, an upper bound's last. */
export type DateBound = "start" | "end";

export type RelativeUnit = "Q" | "Y" | "M";

/** A date input as read, before it is resolved to a day. */
export type DateInput =
  | { kind: "date"; date: string }
  | { kind: "year"; year: number }
  | { kind: "quarter"; year: number; quarter: number }
  | { kind: "month"; year: number; month: number }
  | { kind: "relative"; count: number; unit: RelativeUnit }
  | { kind: "last_quarter" }
  | { kind: "ytd" };

/** Whole numbers in this range are years, not date serials (serial 2026 would be 1905-07-18). */
export const YEAR_NUMBERS = { min: 1900, max: 2200 } as const;

/** Date serials read as dates: 2201 (1906-01-09) to 2958465 (9999-12-31). */
export const DATE_SERIALS = { min: YEAR_NUMBERS.max + 1, max: 2_958_465 } as const;

/** Most periods a relative form counts back (-999Q). */
export const MAX_RELATIVE_COUNT = 999;

/** The forms accepted, as every refusal states them. */
export const DATE_FORMS =
  "a date (YYYY-MM-DD such as 2026-03-31, or a date cell), a year (2026), a quarter (2026-Q1 or Q1 2026), a month (2026-03), " +
  "or a date relative to the snapshot's capture date (-8Q, -3Y, -6M, LQ for the last complete quarter, YTD)";

/** The forms that name a fixed day (as_of takes only these). */
export const FIXED_DATE_FORMS =
  "a date (YYYY-MM-DD such as 2026-03-31, or a date cell), a year (2026), a quarter (2026-Q1 or Q1 2026) or a month (2026-03)";

/**
 * The bound each date input of the API stands for, by name (one name is one concept in every
 * operation). The service resolves these parameters with the grammar before a handler runs;
 * the add-in checks and resolves the same inputs with the same bounds.
 */
export const DATE_INPUT_BOUNDS = {
  min_sale_date: "start",
  max_sale_date: "end",
  from: "start",
  to: "end",
  as_of: "end",
} as const satisfies Record<string, DateBound>;
export type DateInputName = keyof typeof DATE_INPUT_BOUNDS;

/** Longest text a date input may be ("Q1 2026", "2958465.75"...): anything longer is no form. */
export const DATE_INPUT_MAX_LENGTH = 24;

/** A date input refused: its message names the forms accepted. */
export class DateSyntaxError extends Error {}

/** How the schema of a date input describes it, for the bound it stands for. */
export function dateInputHelp(bound: DateBound): string {
  const edge = bound === "start" ? "first" : "last";
  return (
    `Takes ${DATE_FORMS}. A year, quarter or month stands for its ${edge} day here; -8Q, -3Y and -6M are the quarter, ` +
    `year or month that many before the one holding the capture date of the snapshot answering (its ${edge} day), LQ the ` +
    `quarter before the one holding it, YTD the year to the capture date. A whole number from ${YEAR_NUMBERS.min} to ` +
    `${YEAR_NUMBERS.max} is a year; one from ${DATE_SERIALS.min} up is an Excel date serial. Anything else is refused ` +
    "free of charge (400 validation_failed)."
  );
}

const pad = (n: number) => String(n).padStart(2, "0");

function refuse(text: string, what = "a date"): never {
  throw new DateSyntaxError(`"${text}" is not ${what}; write ${DATE_FORMS}.`);
}

/** The day a date serial names (its whole days; 1899-12-30 is day 0, as Excel counts). */
export function serialDate(serial: number): string {
  return new Date((Math.floor(serial) - 25_569) * 86_400_000).toISOString().slice(0, 10);
}

function numberInput(value: number, text: string): DateInput {
  if (!Number.isFinite(value)) refuse(text);
  if (Number.isInteger(value) && value >= YEAR_NUMBERS.min && value <= YEAR_NUMBERS.max) return { kind: "year", year: value };
  if (value < DATE_SERIALS.min) {
    refuse(
      text,
      `a date (a whole number from ${YEAR_NUMBERS.min} to ${YEAR_NUMBERS.max} is a year, date serials start at ${DATE_SERIALS.min})`,
    );
  }
  if (value >= DATE_SERIALS.max + 1) refuse(text, `a date (date serials end at ${DATE_SERIALS.max}, 9999-12-31)`);
  return { kind: "date", date: serialDate(value) };
}

/** Reads a date input (text or a cell's number); DateSyntaxError names the forms when it is none. */
export function parseDateInput(raw: string | number): DateInput {
  if (typeof raw === "number") return numberInput(raw, String(raw));
  const text = raw.trim();
  const word = text.toUpperCase().replace(/\s+/g, " ");
  if (text.length === 0) throw new DateSyntaxError(`No date given; write ${DATE_FORMS}.`);
  if (text.length > DATE_INPUT_MAX_LENGTH) refuse(text.slice(0, DATE_INPUT_MAX_LENGTH) + "…");
  if (/^\d+(\.\d+)?$/.test(word)) return numberInput(Number(word), text);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(word);
  if (day) {
    const [y, m, d] = day.slice(1).map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    if (y < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
      refuse(text, "a date (no such day)");
    }
    return { kind: "date", date: word };
  }
  const yearFirst = /^(\d{4}) ?-? ?Q([1-4])$/.exec(word);
  if (yearFirst) return { kind: "quarter", year: Number(yearFirst[1]), quarter: Number(yearFirst[2]) };
  const quarterFirst = /^Q([1-4]) ?-? ?(\d{4})$/.exec(word);
  if (quarterFirst) return { kind: "quarter", year: Number(quarterFirst[2]), quarter: Number(quarterFirst[1]) };
  if (/^(\d{4} ?-? ?Q\d+|Q\d+ ?-? ?\d{4})$/.test(word)) refuse(text, "a quarter (quarters are Q1 to Q4)");
  const month = /^(\d{4})-(\d{1,2})$/.exec(word);
  if (month) {
    const m = Number(month[2]);
    if (m < 1 || m > 12) refuse(text, "a month (months are 01 to 12)");
    return { kind: "month", year: Number(month[1]), month: m };
  }
  const relative = /^- ?(\d{1,3}) ?([QYM])$/.exec(word);
  if (relative) return { kind: "relative", count: Number(relative[1]), unit: relative[2] as RelativeUnit };
  if (word === "LQ") return { kind: "last_quarter" };
  if (word === "YTD") return { kind: "ytd" };
  if (/^-\d+$/.test(word)) refuse(text, "a date (a relative date needs its unit: -8Q, -3Y or -6M)");
  return refuse(text);
}

/** Whether the input is relative to a capture date (it resolves only where that date is known). */
export function isRelativeDate(input: DateInput): boolean {
  return input.kind === "relative" || input.kind === "last_quarter" || input.kind === "ytd";
}

/** A relative input's canonical spelling ("-8q" is -8Q, "ytd" is YTD): what the add-in sends. */
export function relativeDateText(input: DateInput): string {
  if (input.kind === "relative") return `-${input.count}${input.unit}`;
  if (input.kind === "last_quarter") return "LQ";
  if (input.kind === "ytd") return "YTD";
  throw new Error(`${input.kind} is not a relative date`);
}

function yearEdge(year: number, bound: DateBound): string {
  return bound === "start" ? `${year}-01-01` : `${year}-12-31`;
}

function monthEdge(index: number, bound: DateBound): string {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  if (bound === "start") return `${year}-${pad(month)}-01`;
  return `${year}-${pad(month)}-${pad(new Date(Date.UTC(year, month, 0)).getUTCDate())}`;
}

function quarterEdge(index: number, bound: DateBound): string {
  return bound === "start" ? quarterStart(index) : quarterEnd(index);
}

/**
 * The day an input stands for as the bound given, YYYY-MM-DD. A relative input needs the
 * capture date (YYYY-MM-DD) it counts from; without one it is refused.
 */
export function resolveDateInput(input: DateInput, bound: DateBound, capture?: string): string {
  switch (input.kind) {
    case "date":
      return input.date;
    case "year":
      return yearEdge(input.year, bound);
    case "quarter":
      return quarterEdge(input.year * 4 + input.quarter - 1, bound);
    case "month":
      return monthEdge(input.year * 12 + input.month - 1, bound);
  }
  if (capture === undefined)
    throw new DateSyntaxError(`${relativeDateText(input)} needs a capture date to count from; write ${FIXED_DATE_FORMS}.`);
  const year = Number(capture.slice(0, 4));
  switch (input.kind) {
    case "last_quarter":
      return quarterEdge(quarterOf(capture) - 1, bound);
    case "ytd":
      return bound === "start" ? `${year}-01-01` : capture;
    case "relative": {
      if (input.unit === "Y") return yearEdge(year - input.count, bound);
      if (input.unit === "Q") return quarterEdge(quarterOf(capture) - input.count, bound);
      return monthEdge(year * 12 + Number(capture.slice(5, 7)) - 1 - input.count, bound);
    }
  }
}

/** Reads and resolves one date input: the day it stands for as `bound`, counted from `capture` when relative. */
export function resolveDate(raw: string | number, bound: DateBound, capture?: string): string {
  return resolveDateInput(parseDateInput(raw), bound, capture);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a value is a resolved day (YYYY-MM-DD), as opposed to a relative form still to resolve. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE.test(value);
}
