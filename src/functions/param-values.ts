// Checks one input (a cell's value, or a value from the options text) against what the
// service accepts, and puts it in the form the service expects. Every check runs before any
// request, so a typo costs nothing and the #VALUE! message says what would have worked.
import type { ParamSpec } from "../shared/endpoints";
import { PLACE_KINDS, PlaceSyntaxError, describeKinds, parsePlace, placeText, type Place } from "../contract/places";
import { stateCodeOf } from "../contract/states";
import {
  DATE_FORMS,
  DateSyntaxError,
  isRelativeDate,
  parseDateInput,
  relativeDateText,
  resolveDateInput,
  type DateBound,
} from "../contract/dates";
import { assetTypeHint, assetTypeOf, vocabularyValue } from "../contract/vocabulary";
import { nameIn, isFieldHeader } from "./field-names";
import { InputError } from "./excel-errors";
import type { ParamValue } from "./option-specs";

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
      if (spec.name === "asset_type") return assetTypeValue(spec, raw, label);
      // A value in any case and spacing (multifamily by any name), or (a sort key) by its field's label.
      const found = vocabularyValue(spec.values ?? [], String(raw)) ?? nameIn(spec.values ?? [], String(raw));
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

/** An asset type in any of its spellings (vocabulary.ts): "Multi-Family", "MF" and "Apartments" are multifamily. */
function assetTypeValue(spec: ParamSpec, raw: unknown, label: string): string {
  const text = String(raw);
  const found = assetTypeOf(text);
  if (found && (spec.values ?? []).includes(found)) return found;
  throw new InputError(
    `${label}: ${assetTypeHint(text) ?? `"${text.trim()}" is not one of ${spec.values?.join(", ")} (nor a usual spelling of one, such as Multi-Family or Hotel).`}`,
  );
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
  // A ZIP+4 code names its five-digit ZIP code, as it does as a geography.
  const zip4 = spec.kind === "zip" ? /^(\d{5})-\d{4}$/.exec(text) : null;
  if (zip4) return zip4[1];
  if (!/^\d{5}$/.test(text)) throw new InputError(`${label}: "${text}" is not ${what}.`);
  return text;
}

/**
 * A comma-separated list of names (or a range of them, read by the caller into one text), each
 * one of the input's vocabulary in any case and spacing ("Vacancy Rate" is vacancy_rate), in
 * the order given, none twice.
 */
function checkList(spec: ParamSpec, raw: unknown, label: string): string {
  const items = listItems(raw, spec.values);
  if (items.length === 0) throw new InputError(`${label} lists nothing: ${spec.help}`);
  const names: string[] = [];
  for (const item of items) {
    const found = nameIn(spec.values ?? [], item);
    if (!found) throw new InputError(`${label}: "${item}" is not one of ${spec.values?.join(", ")}.`);
    if (names.includes(found)) throw new InputError(`${label} names ${found} twice.`);
    names.push(found);
  }
  return names.join(",");
}

/**
 * The items of a list input: cells of a range or comma-separated text. Blanks, zeros (what an
 * `=IF(...,"",A1)` chain leaves) and a header (a heading cell that is none of `values`, such as
 * the "metric" heading of a PROP.MARKET spill) are skipped.
 */
export function listItems(raw: unknown, values: readonly string[] = []): string[] {
  const cells = withoutHeader(raw, (c) => isHeaderCell(c) && nameIn(values, c) === null);
  return cells
    .filter((c) => c !== null && c !== undefined && typeof c !== "boolean" && c !== 0)
    .flatMap((c) => String(c).split(","))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Words that head a column of names in the add-in's own spills (PROP.MARKET's "metric", PROP.FIELDS' "field"). */
const HEADER_WORDS = new Set(["metric", "metrics", "field", "fields", "name", "names", "value", "label", "id", "ids"]);

/** Whether a cell of a range is a heading: a column's name or label, or one of the words above. */
export function isHeaderCell(cell: unknown): boolean {
  return typeof cell === "string" && (HEADER_WORDS.has(cell.trim().toLowerCase()) || isFieldHeader(cell));
}

/**
 * The cells of a range (or one value) without its header: the first row of a range of several
 * rows, or the first cell of a single row or column, when every cell there is a heading.
 */
export function withoutHeader(raw: unknown, isHeading: (cell: unknown) => boolean = isHeaderCell): unknown[] {
  if (!Array.isArray(raw)) return [raw];
  const rows = (raw as unknown[]).map((r) => (Array.isArray(r) ? (r as unknown[]) : [r]));
  if (rows.length > 1 && rows[0].length > 1) return rows[0].every(isHeading) ? rows.slice(1).flat() : rows.flat();
  const cells = rows.flat();
  const first = cells.findIndex((c) => !(c === null || c === undefined || c === "" || c === 0));
  return first >= 0 && isHeading(cells[first]) ? cells.filter((_, i) => i !== first) : cells;
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
 * A date input in the date grammar (src/contract/dates.ts) as the service takes it: a
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
