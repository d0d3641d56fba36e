// The date grammar on its own: every row of the shared table resolves to its day, relative
// forms count from whatever capture date they are given, and every other input is refused
// naming the forms accepted.
import { DATE_FORMS, DateSyntaxError, isRelativeDate, parseDateInput, relativeDateText, resolveDate } from "../../src/contract/dates";
import { DATE_FORMS_TABLE, FORMS_CAPTURE, REFUSED_DATES } from "./date-forms";

test.each(DATE_FORMS_TABLE.map((f) => [f.input, f.bound, f.date] as const))("%p as a %s bound is %s", (input, bound, date) => {
  expect(resolveDate(input, bound, FORMS_CAPTURE)).toBe(date);
});

test("relative forms are spelt one way, and only they need a capture date", () => {
  for (const form of DATE_FORMS_TABLE) {
    const input = parseDateInput(form.input);
    expect({ input: form.input, relative: isRelativeDate(input) ? relativeDateText(input) : undefined }).toEqual({
      input: form.input,
      relative: form.relative,
    });
    if (!form.relative) expect(resolveDate(form.input, form.bound)).toBe(form.date);
    else expect(() => resolveDate(form.input, form.bound)).toThrow(DateSyntaxError);
  }
});

test("a year typed as a number is the year, not the date serial it would be (2026 is not 1905-07-18)", () => {
  expect(resolveDate(2026, "start")).toBe("2026-01-01");
  expect(resolveDate(2026, "end")).toBe("2026-12-31");
  expect(resolveDate(2201, "start")).toBe("1906-01-09");
});

test.each([
  ["2027-01-15", "LQ", "start", "2026-10-01"],
  ["2027-01-15", "LQ", "end", "2026-12-31"],
  ["2026-12-31", "LQ", "end", "2026-09-30"],
  ["2027-01-15", "YTD", "start", "2027-01-01"],
  ["2027-01-15", "-1M", "end", "2026-12-31"],
  ["2027-01-15", "-8Q", "start", "2025-01-01"],
  ["2024-03-31", "-1M", "end", "2024-02-29"],
])("counted from %s, %s as a %s bound is %s", (capture, input, bound, date) => {
  expect(resolveDate(input, bound as "start" | "end", capture)).toBe(date);
});

test.each(REFUSED_DATES.map((r) => [r]))("%p is refused, naming the forms", (input) => {
  expect(() => parseDateInput(input)).toThrow(DateSyntaxError);
  expect(() => parseDateInput(input)).toThrow(DATE_FORMS);
});

test("a refusal says what was wrong where it can", () => {
  expect(() => parseDateInput("2026-Q5")).toThrow(/not a quarter \(quarters are Q1 to Q4\)/);
  expect(() => parseDateInput("2026-13")).toThrow(/not a month \(months are 01 to 12\)/);
  expect(() => parseDateInput("2026-02-30")).toThrow(/no such day/);
  expect(() => parseDateInput(1899)).toThrow(/from 1900 to 2200 is a year, date serials start at 2201/);
  expect(() => parseDateInput("-8")).toThrow(/needs its unit/);
});
