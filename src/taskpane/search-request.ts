// What a search in the pane sends, and the PROP formula that sends exactly the same thing.
// A field that is one of the function's positional arguments is read by that argument's own
// reader (its FunctionArg), any other by the endpoint input's ParamSpec, as the function's
// options are; the request itself is the function's `request` called with the formula's
// arguments and options text, so the preview, the inserted table and the inserted formula
// cannot disagree about a request.
import type { ApiRequest, QueryValue } from "../shared/api-client";
import { ENDPOINTS, endpointPath, type EndpointSpec } from "../shared/endpoints";
import { isBlank } from "../functions/argument-parsers";
import type { ListEnvelope } from "../contract/list-envelope";
import type { MarketHistory } from "../contract/history";
import type { MarketSnapshot } from "../contract/records";
import { InputError } from "../functions/excel-errors";
import { checkParam } from "../functions/param-values";
import type { ParamValue } from "../functions/option-specs";
import type { Cell } from "../functions/table-shape";
import { SEARCH_KINDS, isPaged, paramSpec, type SearchKind } from "./search-kinds";

export interface SearchRequest {
  kind: SearchKind;
  /** Field name to value, normalised (as checkSearch returns them); blank fields left out. */
  values: Record<string, string>;
  /** Rows of the preview page and the formula's `limit=`, 1..100 (ignored by unpaged searches). */
  limit: number;
}

/** What one field's value becomes in the request. */
export interface FieldInputs {
  path: Record<string, string>;
  query: Record<string, ParamValue>;
  /** The value as the formula writes it; read again, it gives the same inputs. */
  normalised: string;
}

/** The formula's options are "key=value" pairs split on ";" and line breaks (options.ts). */
const OPTION_BREAK = /[;\r\n]/;

/**
 * Reads one non-blank field as the function reads the argument or option it becomes.
 * Throws InputError with a message for the user.
 */
export function readField(kind: SearchKind, name: string, raw: string): FieldInputs {
  const spec = SEARCH_KINDS[kind];
  const label = spec.fields.find((f) => f.name === name)?.label ?? name;
  const arg = spec.positional.find((p) => p.field === name)?.arg;
  if (!arg) {
    // A positional argument is a quoted literal and may hold anything; an option may not.
    if (OPTION_BREAK.test(raw)) throw new InputError(`${label} cannot contain ";" or a line break (they separate the formula's options).`);
    const value = checkParam(paramSpec(spec.endpoint, name), raw, label);
    return { path: {}, query: { [name]: value }, normalised: String(value) };
  }
  const inputs = arg.read(raw, label);
  const normalised = String(Object.values(inputs)[0]);
  if (arg.in === "path") return { path: Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)])), query: {}, normalised };
  return { path: {}, query: inputs, normalised };
}

/**
 * The formula's arguments for a search: each positional argument's normalised value (null when
 * blank or left out by the pane), and the options text (the other fields, then `limit=`).
 */
export function formulaArgs(search: SearchRequest): { args: (string | null)[]; options: string | null } {
  const kind = SEARCH_KINDS[search.kind];
  const normalised = (name: string): string | null => {
    const raw = search.values[name];
    return isBlank(raw) ? null : readField(search.kind, name, raw).normalised;
  };
  const positional = new Set(kind.positional.map((p) => p.field));
  const args = kind.positional.map((p) => (p.field === null ? null : normalised(p.field)));
  const options = kind.fields
    .filter((f) => f.name !== "limit" && !positional.has(f.name))
    .flatMap((f) => {
      const value = normalised(f.name);
      return value === null ? [] : [`${f.name}=${value}`];
    });
  // Always stated for a list, though 25 is the functions' default too: the cell then says how
  // many rows it holds and where to ask for more.
  if (isPaged(search.kind)) options.push(`limit=${search.limit}`);
  return { args, options: options.length > 0 ? options.join("; ") : null };
}

export interface EndpointCall {
  spec: EndpointSpec;
  pathParams: Record<string, string>;
  /** Paging included, exactly as the function's first page asks. */
  query: Record<string, QueryValue>;
}

/**
 * The endpoint, path parameters and query of a search's preview page: the function's own
 * `request` for the formula's arguments, so what the formula's first request is. Passed to the
 * add-in's CachedApi.get, the preview and a formula inserted afterwards share one cached
 * answer, so the formula costs nothing more. Throws InputError for a value checkSearch would
 * have refused.
 */
export function endpointCallFor(search: SearchRequest): EndpointCall {
  const { args, options } = formulaArgs(search);
  const call = SEARCH_KINDS[search.kind].def.request(args, options);
  return { spec: ENDPOINTS[call.operation], pathParams: call.params, query: call.query };
}

/** The exact GET the pane sends for a preview page. */
export function apiRequestFor(search: SearchRequest): ApiRequest {
  const { spec, pathParams, query } = endpointCallFor(search);
  return { method: "GET", path: endpointPath(spec, pathParams), query };
}

/**
 * The PROP formula that makes the same request, in Excel's en-US syntax (Range.formulas):
 * positional arguments in the function's order, an omitted one in the middle left empty,
 * trailing omitted ones dropped, and the other filters plus `limit=` in the options text.
 */
export function formulaFor(search: SearchRequest, extraOptions: string[] = []): string {
  const { args, options: typed } = formulaArgs(search);
  const parts = [...(typed === null ? [] : [typed]), ...extraOptions];
  const options = parts.length > 0 ? parts.join("; ") : null;
  const all = options === null ? [...args] : [...args, options];
  while (all.length > 0 && all[all.length - 1] === null) all.pop();
  return `=PROP.${SEARCH_KINDS[search.kind].fn}(${all.map((a) => (a === null ? "" : excelText(a))).join(",")})`;
}

/** Excel refuses a text constant longer than 255 characters in a formula; longer text is joined with &. */
const EXCEL_TEXT_MAX = 255;

/**
 * The option a chart's formula carries: a value the snapshot does not hold is #N/A there,
 * which Excel's charts show as a gap, where empty text would be drawn as 0.
 */
export const CHART_OPTIONS = ["missing=na"];

/** A text value as an Excel string literal: quotes doubled, long text in 255-character pieces. */
export function excelText(text: string): string {
  const pieces: string[] = [];
  for (let i = 0; i < text.length || pieces.length === 0; i += EXCEL_TEXT_MAX) pieces.push(text.slice(i, i + EXCEL_TEXT_MAX));
  return pieces.map((p) => `"${p.replace(/"/g, '""')}"`).join("&");
}

export interface PreviewTable {
  header: string[];
  rows: Cell[][];
  /** Matching records over all pages (lists), null for a single record. */
  total: number | null;
  /** True when each row is one field's name and value (PROP.MARKET without a metric), not one record. */
  pairs: boolean;
}

/** What a search's preview request answers: a page of records, a market's figures, or a market's history. */
export type SearchAnswer = ListEnvelope | MarketSnapshot | MarketHistory;

/**
 * An answer as the formula would spill it, for the preview and for "Insert": the function's
 * own `table` for the formula's arguments and options, so the same columns and cells, with
 * numbers carrying their formats. Unlike the formula, an empty answer is a header with no
 * rows, not an error, and a cut list has no footer row (`total` says how many match).
 */
export function previewRows(search: SearchRequest, body: SearchAnswer): PreviewTable {
  const { def } = SEARCH_KINDS[search.kind];
  const { args, options } = formulaArgs(search);
  const [header, ...rows] = def.table(body, def.request(args, options), { preview: true });
  const list = body as Partial<ListEnvelope>;
  const total =
    def.resource === "market" || def.resource === "market_history" || typeof list.total_count !== "number" ? null : list.total_count;
  // PROP.MARKET without a metric: one metric/value row per market figure (market.ts).
  return { header: header as string[], rows, total, pairs: def.resource === "market" };
}
