// Shapes records into what a spill returns: a rectangle, header row first, one column per
// field in a stable order, each value as a cell Excel can compute with (cell-values.ts). Also
// the options every table function shares (headers, cols, limit, offset, dates, rates) and
// their checks, which run before any request.
import { AS_OF_OPTION } from "./snapshot-pin";
import { MAX_OFFSET } from "../contract/paging";
import { VALUE_OPTIONS, toCell, valueForms, type Cell, type ValueFormat, type ValueForms } from "./cell-values";
import { InputError, NoDataError } from "./excel-errors";
import type { LocalOption, OptionValue } from "./option-specs";
import { RESOURCES, fieldFormats, type ResourceName } from "./record-fields";
import { nameIn } from "./field-names";

/** Most rows one table formula fetches (10 pages of 100); docs/functions.md states it. */
export const MAX_ROWS = 1000;
export const DEFAULT_ROWS = 25;

export type { Cell };

export const HEADERS_OPTION: LocalOption = { name: "headers", kind: "boolean", help: "false leaves out the header row." };
export const COLS_OPTION: LocalOption = { name: "cols", kind: "list", help: "Columns to show, in order, e.g. cols=name,year_built." };
export const LIMIT_OPTION: LocalOption = {
  name: "limit",
  kind: "count",
  min: 1,
  max: MAX_ROWS,
  help: `rows to return, 1..${MAX_ROWS}; more than 100 fetches further pages, each billed.`,
};
export const OFFSET_OPTION: LocalOption = {
  name: "offset",
  kind: "count",
  min: 0,
  max: MAX_OFFSET,
  help: `rows to skip, 0..${MAX_OFFSET}.`,
};

export const FOOTER_OPTION: LocalOption = {
  name: "footer",
  kind: "boolean",
  help: 'false leaves out the "25 of 367 rows" footer row a cut list ends with; true shows it on every list.',
};

/** What every table function takes: its shape, its values' forms, and the snapshot it answers from. */
export const SHAPE_OPTIONS = [HEADERS_OPTION, COLS_OPTION, ...VALUE_OPTIONS, AS_OF_OPTION];
/** The shaping and paging options of a list function. */
export const LIST_OPTIONS = [...SHAPE_OPTIONS, LIMIT_OPTION, OFFSET_OPTION, FOOTER_OPTION];

export interface TableOptions {
  headers: boolean;
  /** Columns in order; null for every field. */
  cols: string[] | null;
  /** How dates and rates come out. */
  forms: ValueForms;
  /** The dates, moments and rates among the columns (or among the names of name/value rows). */
  formats: Record<string, ValueFormat>;
}

/**
 * `cols` as the fields' names: each column named by its name or label (field-names.ts), none
 * twice. A column no field has is refused, naming =PROP.FIELDS.
 */
export function colsNamed(cols: readonly string[], fields: readonly string[], resource: string): string[] {
  const unknown = cols.filter((c) => nameIn(fields, c) === null);
  if (unknown.length) {
    throw new InputError(
      `cols: ${unknown.join(", ")} ${unknown.length > 1 ? "are not fields" : "is not a field"} here; =PROP.FIELDS("${resource}") lists them.`,
    );
  }
  const named = cols.map((c) => nameIn(fields, c)!);
  const twice = named.find((name, i) => named.indexOf(name) !== i);
  if (twice) throw new InputError(`cols: names ${twice} twice.`);
  return named;
}

/**
 * Reads the shaping options, checking `cols` against the fields the records will have
 * (`fields` null: the caller checks them against the answer).
 */
export function tableOptions(options: Map<string, OptionValue>, fields: readonly string[] | null, resource: string): TableOptions {
  const given = (options.get("cols") as string[] | undefined) ?? null;
  const cols = given && fields ? colsNamed(given, fields, resource) : given;
  return {
    headers: (options.get("headers") as boolean | undefined) ?? true,
    cols,
    forms: valueForms(options),
    formats: resource in RESOURCES ? fieldFormats(resource as ResourceName) : {},
  };
}

export function pagingOptions(options: Map<string, OptionValue>): { limit: number; offset: number } {
  return {
    limit: (options.get("limit") as number | undefined) ?? DEFAULT_ROWS,
    offset: (options.get("offset") as number | undefined) ?? 0,
  };
}

/**
 * Records as a spill: header row (unless headers=false) then one row per record. Columns are
 * `cols`, else every field except `object` (every row says the same thing there).
 * An empty result is an error with `emptyMessage`, never an empty or blank spill.
 */
export function shapeTable(
  records: readonly Record<string, unknown>[],
  fields: readonly string[],
  options: TableOptions,
  emptyMessage: string,
): Cell[][] {
  if (records.length === 0) throw new NoDataError(emptyMessage);
  return shapeRows(records, fields, options);
}

/**
 * A list's records as a spill (shapeTable's rows), then the `footer` row when there is one.
 * Nothing matching is the header row alone, so =ROWS(A1#)-1 is 0; with headers=false, where
 * no row would be left, it is one marker row saying so (`emptyMessage`).
 */
export function shapeList(
  records: readonly Record<string, unknown>[],
  fields: readonly string[],
  options: TableOptions,
  footer: string | null,
  emptyMessage: string,
): Cell[][] {
  const table = shapeRows(records, fields, options);
  const width = (options.cols ?? fields.filter((f) => f !== "object")).length;
  // Text in the first cell and empty text after it: the spill stays a rectangle, and SUM,
  // AVERAGE, MEDIAN, MIN, MAX and COUNT over a column skip the row.
  const note = (text: string): Cell[] => [text, ...Array<Cell>(width - 1).fill("")];
  if (footer !== null) table.push(note(footer));
  if (table.length === 0) table.push(note(emptyMessage));
  return table;
}

function shapeRows(records: readonly Record<string, unknown>[], fields: readonly string[], options: TableOptions): Cell[][] {
  const columns = options.cols ?? fields.filter((f) => f !== "object");
  const rows = records.map((record) => columns.map((c) => toCell(record[c], options.formats[c], options.forms)));
  return options.headers ? [[...columns], ...rows] : rows;
}

/**
 * The footer row's text: which rows of how many the list shows, and how to see the rest, e.g.
 * "25 of 367 rows (limit=25); raise limit= or page with offset=25."
 */
export function listFooter(shown: number, total: number, paging: { limit: number; offset: number }): string {
  const last = paging.offset + shown;
  const which = paging.offset === 0 || shown === 0 ? `${shown} of ${total} rows` : `rows ${paging.offset + 1}-${last} of ${total}`;
  if (shown === 0 && total > 0) return `${which}: offset=${paging.offset} is past the last row.`;
  if (last >= total) return `${which}.`;
  const asked = paging.offset === 0 ? `limit=${paging.limit}` : `offset=${paging.offset}, limit=${paging.limit}`;
  const more = paging.limit < MAX_ROWS ? `raise limit= or page with offset=${last}` : `page with offset=${last}`;
  return `${which} (${asked}); ${more}.`;
}

/** Name/value pairs as a two-column spill (one record read down rather than across). */
export function shapePairs(
  pairs: readonly [string, unknown][],
  header: [string, string],
  options: TableOptions,
  emptyMessage: string,
): Cell[][] {
  const chosen = options.cols
    ? options.cols.map((c): readonly [string, unknown] => pairs.find(([name]) => name === c) ?? [c, null])
    : pairs;
  if (chosen.length === 0) throw new NoDataError(emptyMessage);
  const rows = chosen.map(([name, value]): Cell[] => [name, toCell(value, options.formats[name], options.forms)]);
  return options.headers ? [[...header], ...rows] : rows;
}
