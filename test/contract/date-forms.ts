// Dates as analysts type them, and the day each stands for: the table the grammar's unit tests,
// the service's tests (as query parameters) and the add-in's tests (as arguments and options)
// all read, so the two sides cannot disagree about what a typed date means.
import type { DateBound } from "../../src/contract/dates";

/** The capture date the relative forms below count from: the test snapshot's (DEFAULT_CAPTURED_AT). */
export const FORMS_CAPTURE = "2026-11-01";

export interface DateForm {
  /** As typed: text, or the number a cell holds. */
  input: string | number;
  /** Whether it is a lower bound (min_sale_date, from) or an upper one (max_sale_date, to, as_of). */
  bound: DateBound;
  /** The day it stands for, YYYY-MM-DD (relative forms counted from FORMS_CAPTURE). */
  date: string;
  /** A relative form: the add-in sends it in this spelling and the service resolves it. */
  relative?: string;
}

export const DATE_FORMS_TABLE: DateForm[] = [
  // A date, as text or as a date cell's serial (whole days; a date-time cell's time is dropped).
  { input: "2026-03-31", bound: "start", date: "2026-03-31" },
  { input: " 2024-02-29 ", bound: "end", date: "2024-02-29" },
  { input: 46023, bound: "start", date: "2026-01-01" },
  { input: 46023, bound: "end", date: "2026-01-01" },
  { input: "46023", bound: "start", date: "2026-01-01" },
  { input: 46023.75, bound: "end", date: "2026-01-01" },
  { input: 45473, bound: "end", date: "2024-06-30" },
  { input: 2201, bound: "start", date: "1906-01-09" },
  // A year: a whole number from 1900 to 2200, never a date serial.
  { input: 2026, bound: "start", date: "2026-01-01" },
  { input: 2026, bound: "end", date: "2026-12-31" },
  { input: "2026", bound: "start", date: "2026-01-01" },
  { input: "2020", bound: "end", date: "2020-12-31" },
  { input: 2016, bound: "start", date: "2016-01-01" },
  { input: 1900, bound: "start", date: "1900-01-01" },
  { input: 2200, bound: "end", date: "2200-12-31" },
  // A quarter.
  { input: "2026-Q1", bound: "start", date: "2026-01-01" },
  { input: "2026-Q1", bound: "end", date: "2026-03-31" },
  { input: "Q1 2026", bound: "end", date: "2026-03-31" },
  { input: "2026q2", bound: "start", date: "2026-04-01" },
  { input: "q3-2026", bound: "end", date: "2026-09-30" },
  { input: "2025 Q4", bound: "end", date: "2025-12-31" },
  // A month.
  { input: "2026-03", bound: "start", date: "2026-03-01" },
  { input: "2026-03", bound: "end", date: "2026-03-31" },
  { input: "2024-02", bound: "end", date: "2024-02-29" },
  { input: "2026-9", bound: "start", date: "2026-09-01" },
  // Relative to the capture date (2026-11-01, in 2026-Q4).
  { input: "-8Q", bound: "start", date: "2024-10-01", relative: "-8Q" },
  { input: "-8q", bound: "end", date: "2024-12-31", relative: "-8Q" },
  { input: "-3Y", bound: "start", date: "2023-01-01", relative: "-3Y" },
  { input: "-1y", bound: "end", date: "2025-12-31", relative: "-1Y" },
  { input: "-6M", bound: "start", date: "2026-05-01", relative: "-6M" },
  { input: " -12m", bound: "end", date: "2025-11-30", relative: "-12M" },
  { input: "-0Q", bound: "start", date: "2026-10-01", relative: "-0Q" },
  { input: "LQ", bound: "start", date: "2026-07-01", relative: "LQ" },
  { input: "lq", bound: "end", date: "2026-09-30", relative: "LQ" },
  { input: "YTD", bound: "start", date: "2026-01-01", relative: "YTD" },
  { input: "ytd", bound: "end", date: "2026-11-01", relative: "YTD" },
];

/** Inputs that are no form: each is refused, free, with a message naming the forms accepted. */
export const REFUSED_DATES: (string | number)[] = [
  "2026-02-30",
  "2026-13",
  "2026-Q5",
  "Q0 2026",
  1899,
  500,
  "2016.5",
  "-8",
  "-8W",
  "last quarter",
  "03/31/2026",
  "20260331",
  "soon",
];
