// The addresses PROP.MATCH reads: one cell or a one-column range of addresses, and beside them
// the city, state and ZIP code, each blank, one value for every row, or a range of as many
// rows. By parcel number (by=apn), the same four arguments hold the parcel numbers, their
// county, their state, and no ZIP code. Each row is read on its own, before any request: a blank
// first cell is a blank row (nothing is asked), and a value that could not be sent (too long,
// TRUE or FALSE, an error value, a parcel number without its county or state) refuses its row
// alone, so one bad cell never fails the other rows.
import { ENDPOINTS, type ParamSpec } from "../shared/endpoints";
import { DEFAULT_CACHE_LIMITS } from "../shared/result-cache";
import type { MatchAsk } from "../shared/match-batching";
import { stateCodeOf } from "../contract/states";
import { isBlank, notOptions } from "./argument-parsers";
import { InputError } from "./excel-errors";
import { checkParam } from "./param-values";

/**
 * Most addresses one formula takes: half of what the result cache holds, so that every row's
 * answer stays cached and a recalculation asks (and bills) nothing again. A whole column is
 * refused, not sent.
 */
export const MAX_MATCH_ADDRESSES = DEFAULT_CACHE_LIMITS.maxEntries / 2;

/** The fields of a row, in the order of the function's arguments. */
export const ADDRESS_FIELDS = ["address", "city", "state", "zip"] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/** What the rows name a property by: its street address (the default), or its parcel number (by=apn). */
export const MATCH_BY = ["address", "apn"] as const;
export type MatchBy = (typeof MATCH_BY)[number];

/** The fields of a row by parcel number, in the order of the same four arguments (no ZIP code: null). */
export const PARCEL_FIELDS = ["apn", "county", "state", null] as const;

/** Every field a row may send: the address's four, and a parcel number with its county. */
export type MatchField = AddressField | "apn" | "county";

/** The field each of the four arguments holds, matching by `by`. */
export function argumentFields(by: MatchBy): ReadonlyArray<MatchField | null> {
  return by === "apn" ? PARCEL_FIELDS : ADDRESS_FIELDS;
}

/** One row of the addresses: blank, an address to ask for, or refused before any request (why). */
export type AddressRow = { kind: "blank" } | { kind: "ask"; ask: MatchAsk } | { kind: "refused"; error: InputError };

const specOf = (field: MatchField): ParamSpec => ENDPOINTS.matchProperty.query.find((q) => q.name === field)!;

/**
 * One cell of a field as the service takes it: text, trimmed and within the field's length; a
 * state as its code when it is one ("Texas" is TX, so both spellings are one request); a ZIP code
 * held as a number with its leading zeros back (2134 is 02134, 21341234 is ZIP+4 021341234), and
 * so a county's FIPS code (6037 is 06037). Blank: null. Throws InputError.
 */
export function readAddressCell(field: MatchField, raw: unknown, label: string = field): string | null {
  if (isBlank(raw)) return null;
  if (typeof raw === "object") throw new InputError(`${label} holds no text (an error value?); give the ${field} as text.`);
  if (field === "zip" && typeof raw === "number" && Number.isInteger(raw) && raw > 0) {
    const digits = String(raw);
    if (digits.length <= 5) return digits.padStart(5, "0");
    if (digits.length >= 7 && digits.length <= 9) return digits.padStart(9, "0");
  }
  if (field === "county" && typeof raw === "number" && Number.isInteger(raw) && raw > 0 && raw < 100_000) {
    return String(raw).padStart(5, "0");
  }
  const text = String(checkParam(specOf(field), raw, label));
  return field === "state" ? (stateCodeOf(text) ?? text) : text;
}

/**
 * The rows of the four arguments: the addresses' rows, each with its city, state and ZIP code
 * (one value standing for every row); by parcel number, the parcel numbers' rows, each with its
 * county and state. Throws InputError when the shapes do not line up, or a ZIP code is given by
 * parcel number.
 */
export function addressRows(args: readonly unknown[], by: MatchBy = "address"): AddressRow[] {
  const fields = argumentFields(by);
  const names = fields.map((field, i) => field ?? ADDRESS_FIELDS[i]);
  const columns = names.map((name, i) => column(args[i], name));
  const count = columns[0].length;
  if (count > MAX_MATCH_ADDRESSES) {
    throw new InputError(
      `${names[0]}: at most ${MAX_MATCH_ADDRESSES.toLocaleString("en-US")} rows in one formula (got ${count.toLocaleString("en-US")}); give the range of the ${by === "apn" ? "parcel numbers" : "addresses"}, not a whole column.`,
    );
  }
  names.forEach((name, i) => {
    const rows = columns[i].length;
    // Options typed one argument too early ("cols=score" as the city) are called what they are.
    if (rows === 1) notOptions(columns[i][0], name);
    if (fields[i] === null && columns[i].some((cell) => !isBlank(cell))) {
      throw new InputError(
        `${name}: by=apn takes the parcel numbers, their county and their state (PROP.MATCH(apn, county, state, , "by=apn")); leave the ZIP code out.`,
      );
    }
    if (i > 0 && rows !== 1 && rows !== count) {
      throw new InputError(
        `${name}: give one value, or a range of ${count} row${count === 1 ? "" : "s"} beside the ${by === "apn" ? "parcel numbers" : "addresses"} (got ${rows} rows).`,
      );
    }
  });
  return Array.from({ length: count }, (_, row) => {
    const cells = columns.map((cells) => (cells.length === 1 ? cells[0] : cells[row]));
    if (isBlank(cells[0])) return { kind: "blank" };
    const where = count === 1 ? "" : ` (row ${row + 1})`;
    try {
      const ask: Partial<Record<MatchField, string>> = {};
      fields.forEach((field, i) => {
        if (field === null) return;
        const value = readAddressCell(field, cells[i], `${field}${where}`);
        if (value !== null) ask[field] = value;
      });
      if (by === "apn" && ask.county === undefined && ask.state === undefined) {
        throw new InputError(
          `parcel number ${ask.apn}${where} needs its county or state: give the county (its name or 5-digit FIPS code) as the second argument, or the state as the third.`,
        );
      }
      return { kind: "ask", ask: ask as MatchAsk };
    } catch (err) {
      if (err instanceof InputError) return { kind: "refused", error: err };
      throw err;
    }
  });
}

/** The cells of one argument, top to bottom: a value is one cell; a range must be one column. */
function column(raw: unknown, field: string): unknown[] {
  if (!Array.isArray(raw)) return [raw];
  const rows = (raw as unknown[]).map((r) => (Array.isArray(r) ? (r as unknown[]) : [r]));
  if (rows.some((r) => r.length !== 1)) {
    throw new InputError(
      `${field}: give one column (one cell, or a range one column wide), not ${rows.length} by ${rows[0]?.length ?? 0}.`,
    );
  }
  return rows.length === 0 ? [null] : rows.map((r) => r[0]);
}
