// What a search in the pane sends, and the PROP formula that sends exactly the same thing.
// Every value is read by the parser the function itself uses for that argument or option
// (argument-parsers.ts, sale-comps.ts, market.ts, company-tables.ts, param-values.ts), so
// the preview, the inserted table and the inserted formula cannot disagree about a request;
// test/taskpane/formula-equivalence.test.ts runs the built functions to hold them equal.
import type { ApiRequest, QueryValue } from "../shared/api-client";
import { ENDPOINTS, endpointPath, type EndpointSpec } from "../shared/endpoints";
import { assetTypeArg, companyTypeArg, isBlank, placeArg } from "../functions/argument-parsers";
import { uniqueNameMatch, companyArg } from "../functions/company-tables";
import { InputError } from "../functions/excel-errors";
import type { ListEnvelope } from "../contract/list-envelope";
import { MARKET_METRICS, marketPlaceArg } from "../functions/market";
import { historyTable, metricsArg } from "../functions/market-history";
import { periodBoundArg } from "../functions/history-periods";
import { propertyIdArg } from "../functions/property-history";
import type { MarketHistory } from "../contract/history";
import type { MarketSnapshot } from "../contract/records";
import { checkParam } from "../functions/param-values";
import type { ParamValue } from "../functions/option-specs";
import { fieldFormats, fieldNames } from "../functions/record-fields";
import { saleCompsSubject } from "../functions/sale-comps";
import { shapePairs, shapeTable, type Cell, type TableOptions } from "../functions/table-shape";
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
  const arg = spec.args.find((a) => a.as !== "omitted" && a.field === name);
  const query = (inputs: Record<string, ParamValue>): FieldInputs => ({
    path: {},
    query: inputs,
    normalised: String(Object.values(inputs)[0]),
  });
  if (!arg) {
    // A positional argument is a quoted literal and may hold anything; an option may not.
    if (OPTION_BREAK.test(raw)) throw new InputError(`${label} cannot contain ";" or a line break (they separate the formula's options).`);
    return query({ [name]: checkParam(paramSpec(spec.endpoint, name), raw, label) });
  }
  switch (arg.as) {
    case "omitted":
      throw new Error(`${name} is no argument the pane fills`);
    case "param":
      return query({ [name]: checkParam(paramSpec(spec.endpoint, name), raw, label) });
    case "path": {
      const read = { asset_type: assetTypeArg, company_type: companyTypeArg, property_id: propertyIdArg }[arg.param];
      const value = read(raw);
      return { path: { [arg.param]: value }, query: {}, normalised: value };
    }
    case "metrics":
      return query({ metrics: metricsArg(raw) });
    case "period":
      return query({ [arg.bound]: periodBoundArg(raw, arg.bound)! });
    case "geography":
      // A market's place may be the whole country, as PROP.MARKET and PROP.MARKETHISTORY take it.
      if (spec.endpoint === "getMarketSnapshot" || spec.endpoint === "getMarketHistory")
        return query(marketPlaceArg(raw, ENDPOINTS[spec.endpoint], label));
      return query(placeArg(raw, ENDPOINTS[spec.endpoint], label));
    case "subject":
      return query(saleCompsSubject(raw));
    case "company": {
      // As PORTFOLIO and FOOTPRINT ask: a name several companies contain is refused, not guessed.
      const company = companyArg(raw, arg.role);
      return query({ ...company, ...uniqueNameMatch(company) });
    }
  }
}

export interface EndpointCall {
  spec: EndpointSpec;
  pathParams: Record<string, string>;
  /** Paging included, exactly as the function's first page asks. */
  query: Record<string, QueryValue>;
}

/**
 * The endpoint, path parameters and query of a search's preview page: what the function's
 * first request is. Passed to the add-in's CachedApi.get, the preview and a formula inserted
 * afterwards share one cached answer, so the formula costs nothing more. Throws InputError for
 * a value checkSearch would have refused.
 */
export function endpointCallFor(search: SearchRequest): EndpointCall {
  const kind = SEARCH_KINDS[search.kind];
  const pathParams: Record<string, string> = {};
  const query: Record<string, QueryValue> = {};
  for (const field of kind.fields) {
    const raw = search.values[field.name];
    if (field.name === "limit" || isBlank(raw)) continue;
    const inputs = readField(search.kind, field.name, raw);
    Object.assign(pathParams, inputs.path);
    Object.assign(query, inputs.query);
  }
  // list-rows.ts asks for `limit` rows from `offset` 0, offset included: the same cache key.
  if (isPaged(search.kind)) Object.assign(query, { limit: search.limit, offset: 0 });
  return { spec: ENDPOINTS[kind.endpoint], pathParams, query };
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
export function formulaFor(search: SearchRequest): string {
  const kind = SEARCH_KINDS[search.kind];
  const normalised = (name: string): string | null => {
    const raw = search.values[name];
    return isBlank(raw) ? null : readField(search.kind, name, raw).normalised;
  };
  const positional = new Set(kind.args.map((a) => (a.as === "omitted" ? null : a.field)));
  const args: (string | null)[] = kind.args.map((a) => (a.as === "omitted" ? null : normalised(a.field)));
  const options = kind.fields
    .filter((f) => f.name !== "limit" && !positional.has(f.name))
    .flatMap((f) => {
      const value = normalised(f.name);
      return value === null ? [] : [`${f.name}=${value}`];
    });
  // Always stated for a list, though 25 is the functions' default too: the cell then says how
  // many rows it holds and where to ask for more.
  if (isPaged(search.kind)) options.push(`limit=${search.limit}`);
  if (options.length > 0) args.push(options.join("; "));
  while (args.length > 0 && args[args.length - 1] === null) args.pop();
  return `=PROP.${kind.fn}(${args.map((a) => (a === null ? "" : excelText(a))).join(",")})`;
}

/** Excel refuses a text constant longer than 255 characters in a formula; longer text is joined with &. */
const EXCEL_TEXT_MAX = 255;

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

/**
 * What the formula spills by default: every column, header first, dates as Excel dates and
 * rates as percentages (formatted numbers: the pane writes their values with their formats).
 */
function spill(kind: SearchKind): TableOptions {
  return {
    headers: true,
    cols: null,
    forms: { dates: "date", rates: "percent", formatted: true },
    formats: fieldFormats(SEARCH_KINDS[kind].resource),
  };
}

/** What a search's preview request answers: a page of records, a market's figures, or a market's history. */
export type SearchAnswer = ListEnvelope | MarketSnapshot | MarketHistory;

/**
 * An answer as the formula would spill it (same columns, same cells), for the preview and
 * for "Insert". Unlike the formula, an empty page is a header with no rows, not an error.
 */
export function previewRows(kind: SearchKind, body: SearchAnswer): PreviewTable {
  const spec = SEARCH_KINDS[kind];
  // Which answer it is follows from the search (its resource), as the formula's own code knows.
  if (spec.resource === "market_history") {
    // PROP.MARKETHISTORY: the period's end date, then a column per metric answered (market-history.ts).
    const series = body as MarketHistory;
    // The formula's default leaves out the period to date: with nothing else, a header alone.
    const shown = series.periods.some((p) => p.complete);
    const [header, ...rows] = historyTable(
      shown
        ? series
        : {
            ...series,
            periods: [{ period: "", period_start: "", period_end: "", complete: true, property_count: 0, thin: false, values: {} }],
          },
      series.metrics,
      spill(kind),
      { labels: false, partial: false },
    );
    return { header: header as string[], rows: shown ? rows : [], total: null, pairs: false };
  }
  if (spec.resource === "market") {
    // PROP.MARKET without a metric: one metric/value row per market figure (market.ts).
    const record: Record<string, unknown> = body as MarketSnapshot;
    const pairs = MARKET_METRICS.map((m): [string, unknown] => [m, record[m]]);
    const [header, ...rows] = shapePairs(pairs, ["metric", "value"], spill(kind), "No market figures.");
    return { header: header as string[], rows, total: null, pairs: true };
  }
  const list = body as ListEnvelope;
  // shapeTable refuses no records (a cell shows #N/A); one blank record gives the header alone.
  const columns = spec.columns ?? fieldNames(spec.resource);
  const [header, ...rows] = shapeTable(list.data.length > 0 ? list.data : [{}], columns, spill(kind), "No rows.");
  const total = typeof list.total_count === "number" ? list.total_count : null;
  return { header: header as string[], rows: list.data.length > 0 ? rows : [], total, pairs: false };
}
