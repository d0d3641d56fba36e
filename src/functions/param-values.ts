// Checks one input (a cell's value, or a value from the options text) against what the
// service accepts, and puts it in the form the service expects. Every check runs before any
// request, so a typo costs nothing and the #VALUE! message says what would have worked.
import type { ParamSpec } from "../shared/endpoints";
import { PLACE_KINDS, PlaceSyntaxError, describeKinds, parsePlace, placeText, type Place } from "../shared/contract/places";
import { stateCodeOf } from "../shared/contract/states";
import {
  DATE_FORMS,
  DateSyntaxError,
  isRelativeDate,
  parseDateInput,
  relativeDateText,
  resolveDateInput,
  type DateBound,
} from "../shared/contract/dates";
import { InputError } from "./excel-errors";

export type ParamValue = string | number;

const PATTERNS: Partial<Record<ParamSpec["kind"], { test: RegExp; example: string; what: string }>> = {
  metro: { test: /^metro-[a-z0-9-]+$/i, example: "metro-austin-tx", what: "a metro id" },
  company_id: { test: /^co_[A-Za-z0-9-]+$/, example: "co_0001a2b3", what: "a company id" },
  property_id: { test: /^cp_[A-Za-z0-9-]+$/, example: "cp_0001a2b3", what: "a property id" },
};

/** Spaces, underscores and hyphens are one separator: "Health Care" is health-care. */
export function canonical(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "-");
}

export function checkParam(spec: ParamSpec, raw: unknown, label: string = spec.name): ParamValue {
  if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) {
    throw new InputError(`${label} is empty: ${spec.help}`);
  }
  if (typeof raw === "boolean") throw new InputError(`${label} cannot be TRUE or FALSE: ${spec.help}`);
  switch (spec.kind) {
    case "place":
      return placeValue(spec, raw, label);
    case "city": {
      const city = readPlace(raw, label);
      if (city.kind !== "city")
        throw new InputError(`${label}: "${String(raw).trim()}" is not a city name; give one such as "Austin" or "Austin, TX".`);
      return placeText(city);
    }
    case "state": {
      const code = stateCodeOf(String(raw));
      if (!code) throw new InputError(`${label}: "${String(raw).trim()}" is not a US state; give a code such as TX (or the name, Texas).`);
      return code;
    }
    case "metro":
      return matchPattern(spec, raw, label).toLowerCase();
    case "company_id":
    case "property_id":
      return matchPattern(spec, raw, label);
    case "zip":
    case "fips":
      return fiveDigits(spec, raw, label);
    case "enum": {
      const wanted = canonical(String(raw));
      const found = spec.values?.find((v) => canonical(v) === wanted);
      if (!found) throw new InputError(`${label}: "${String(raw).trim()}" is not one of ${spec.values?.join(", ")}.`);
      return found;
    }
    case "name_list":
      return checkList(spec, raw, label);
    case "number":
    case "integer":
      return checkNumber(spec, raw, label);
    case "date":
      return checkDate(raw, label, spec.bound ?? "start");
    case "text": {
      const text = String(raw).trim();
      if (spec.minLength !== undefined && text.length < spec.minLength) {
        throw new InputError(`${label} is too short (at least ${spec.minLength} characters): ${spec.help}`);
      }
      if (spec.maxLength !== undefined && text.length > spec.maxLength) {
        throw new InputError(`${label} is too long (at most ${spec.maxLength} characters).`);
      }
      return text;
    }
  }
}

function readPlace(raw: unknown, label: string): Place {
  try {
    return parsePlace(raw);
  } catch (err) {
    if (err instanceof PlaceSyntaxError) throw new InputError(`${label}: ${err.message}`);
    throw err;
  }
}

const KIND_WORDS: Record<Place["kind"], string> = {
  state: "a state",
  county: "a county",
  city: "a city",
  zip: "a ZIP code",
  metro: "a metro",
};

/**
 * A place in any form of the place grammar, as its canonical text ("austin tx" -> "Austin, TX"),
 * so every spelling of one place is one request. A kind the endpoint cannot serve is refused here.
 */
function placeValue(spec: ParamSpec, raw: unknown, label: string): string {
  const place = readPlace(raw, label);
  const kinds = spec.places ?? PLACE_KINDS;
  if (!kinds.includes(place.kind)) {
    throw new InputError(`${label}: "${String(raw).trim()}" is ${KIND_WORDS[place.kind]}; this function takes ${describeKinds(kinds)}.`);
  }
  return placeText(place);
}

function matchPattern(spec: ParamSpec, raw: unknown, label: string): string {
  const pattern = PATTERNS[spec.kind]!;
  const text = String(raw).trim();
  if (!pattern.test.test(text)) throw new InputError(`${label}: "${text}" is not ${pattern.what} such as ${pattern.example}.`);
  return text;
}

/** ZIP and FIPS codes: a cell may hold 02134 as the number 2134, so numbers are zero-padded. */
function fiveDigits(spec: ParamSpec, raw: unknown, label: string): string {
  const what = spec.kind === "zip" ? "a five-digit ZIP code such as 78701" : "a five-digit county FIPS code such as 48453";
  if (typeof raw === "number") {
    if (!Number.isInteger(raw) || raw < 0 || raw > 99_999) throw new InputError(`${label}: ${raw} is not ${what}.`);
    return String(raw).padStart(5, "0");
  }
  const text = String(raw).trim();
  if (!/^\d{5}$/.test(text)) throw new InputError(`${label}: "${text}" is not ${what}.`);
  return text;
}

/**
 * A comma-separated list of names (or a range of them, read by the caller into one text), each
 * one of the input's vocabulary in any case and spacing ("Vacancy Rate" is vacancy_rate), in
 * the order given, none twice.
 */
function checkList(spec: ParamSpec, raw: unknown, label: string): string {
  const items = listItems(raw);
  if (items.length === 0) throw new InputError(`${label} lists nothing: ${spec.help}`);
  const names: string[] = [];
  for (const item of items) {
    const wanted = canonical(item).replace(/-/g, "_");
    const found = spec.values?.find((v) => v === wanted);
    if (!found) throw new InputError(`${label}: "${item}" is not one of ${spec.values?.join(", ")}.`);
    if (names.includes(found)) throw new InputError(`${label} names ${found} twice.`);
    names.push(found);
  }
  return names.join(",");
}

/** The items of a list input: cells of a range or comma-separated text, blanks skipped. */
export function listItems(raw: unknown): string[] {
  const cells = Array.isArray(raw) ? (raw as unknown[]).flat() : [raw];
  return cells
    .filter((c) => c !== null && c !== undefined && typeof c !== "boolean")
    .flatMap((c) => String(c).split(","))
    .map((s) => s.trim())
    .filter(Boolean);
}

function checkNumber(spec: ParamSpec, raw: unknown, label: string): number {
  // "1,000,000" and "1_000_000" read as the number a person meant.
  const value = typeof raw === "number" ? raw : Number(String(raw).trim().replace(/[,_]/g, ""));
  if (!Number.isFinite(value) || (typeof raw === "string" && String(raw).trim() === "")) {
    throw new InputError(`${label}: "${String(raw).trim()}" is not a number. ${spec.help}`);
  }
  if (spec.kind === "integer" && !Number.isInteger(value)) throw new InputError(`${label} must be a whole number, not ${value}.`);
  if (spec.min !== undefined && spec.exclusiveMin && value <= spec.min)
    throw new InputError(`${label} must be more than ${spec.min}, not ${value}.`);
  if (spec.min !== undefined && value < spec.min) throw new InputError(`${label} must be at least ${spec.min}, not ${value}.`);
  if (spec.max !== undefined && value > spec.max) throw new InputError(`${label} must be at most ${spec.max}, not ${value}.`);
  return value;
}

/**
 * A date input in the date grammar (src/shared/contract/dates.ts) as the service takes it: a
 * fixed form as the day it stands for as `bound` (a year 2026 as 2026-01-01 or 2026-12-31, a
 * date cell as its day); a relative form (-8Q, LQ, YTD) in its canonical spelling, resolved by
 * the service against the capture date of the snapshot answering. Anything else is #VALUE!
 * naming the forms, before any request.
 */
export function checkDate(raw: unknown, label: string, bound: DateBound): string {
  if (typeof raw === "boolean") throw new InputError(`${label} cannot be TRUE or FALSE: write ${DATE_FORMS}.`);
  if (typeof raw !== "string" && typeof raw !== "number")
    throw new InputError(`${label}: ${String(raw)} is not a date; write ${DATE_FORMS}.`);
  try {
    const input = parseDateInput(raw);
    return isRelativeDate(input) ? relativeDateText(input) : resolveDateInput(input, bound);
  } catch (err) {
    if (err instanceof DateSyntaxError) throw new InputError(`${label}: ${err.message}`);
    throw err;
  }
}
