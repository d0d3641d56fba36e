// The add-in's view of the v1 endpoints: paths, credit costs and the query inputs
// each accepts, with enough type information to check an input before a request is made.
// None of it is restated here: it is derived from the operations, schemas and costs the
// server's routes are defined by (src/contract/operations.ts, queries.ts,
// credit-costs.ts). test/addin/endpoints-contract.test.ts holds the result equal to the
// OpenAPI document the server generates.
import { SNAPSHOT_SELECTORS } from "../contract/snapshot-select";
import type { TObject, TSchema } from "@sinclair/typebox";
import { CREDIT_COSTS, type OperationName } from "../contract/credit-costs";
import { OPERATIONS } from "../contract/operations";
import { PLACE_KINDS, describeKinds, type PlaceKind } from "../contract/places";
import { DATE_INPUT_BOUNDS, type DateBound } from "../contract/dates";
import { PLACE_KINDS_OF, QUERIES } from "../contract/queries";
import { MARKET_HISTORY_METRIC_NAMES, MarketHistoryQuery, PROPERTY_EVENT_TYPES, PropertyHistoryQuery } from "../contract/history";

export type ParamKind =
  | "place"
  | "city"
  | "state"
  | "zip"
  | "fips"
  | "metro"
  | "company_id"
  | "property_id"
  | "text"
  | "enum"
  | "name_list"
  | "number"
  | "integer"
  | "date";

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** Allowed values (enum), or allowed items (name_list: comma-separated, each one of these). */
  values?: readonly string[];
  /** The kinds of place a `place` input takes. */
  places?: readonly PlaceKind[];
  /** A date input: which end of a year, quarter or month it stands for (src/contract/dates.ts). */
  bound?: DateBound;
  min?: number;
  /** True when `min` itself is not allowed (a radius must be more than 0). */
  exclusiveMin?: boolean;
  max?: number;
  /** Text length bounds. */
  minLength?: number;
  maxLength?: number;
  /** Units and meaning: the service's description of the input, or its spreadsheet wording (EXCEL_HELP). */
  help: string;
}

export interface EndpointSpec {
  operationId: string;
  method: "GET" | "POST";
  /** Path with `{name}` placeholders. */
  path: string;
  /** Credits a successful call costs (published in the catalog); 304s and errors cost nothing. */
  cost: number;
  /** Query inputs other than paging. */
  query: readonly ParamSpec[];
  /** Whether the endpoint returns a list envelope paged by `limit` and `offset`. */
  paged: boolean;
}

/**
 * Help texts worded for a spreadsheet (a catalog formula to look a value up, an Excel date, the
 * bounds the message does not otherwise state), where the service's description is worded
 * for an HTTP client. Every other input's help is the service's description.
 */
const EXCEL_HELP: Record<string, string> = {
  metro_id: 'Metro id, e.g. metro-austin-tx (see =PROP.CATALOG("metros")).',
  subtype: 'Property subtype, e.g. warehouse (see =PROP.CATALOG("asset_types")).',
  min_sale_date: "Earliest sale date: a date, a date cell, a year (2026), a quarter (2026-Q1), a month (2026-03), -3Y, LQ or YTD.",
  max_sale_date: "Latest sale date: a date, a date cell, a year (2026), a quarter (2026-Q4), a month (2026-03), -1Y, LQ or YTD.",
  max_distance_miles: "Search radius around a subject property, miles (more than 0, at most 250; default 25).",
};

/** The kind of a patterned text input; a five-digit code is a ZIP code or a county FIPS code. */
const PATTERN_KINDS: Record<string, (name: string) => ParamKind> = {
  "^[A-Za-z]{2}$": () => "state",
  "^[0-9]{5}$": () => "fips",
  "^[0-9]{5}(-[0-9]{4})?$": () => "zip",
  "^metro-[a-z0-9-]+$": () => "metro",
  "^co_[A-Za-z0-9-]+$": () => "company_id",
  "^cp_[A-Za-z0-9-]+$": () => "property_id",
};

/**
 * Comma-separated inputs (a list of names in one query value), by their schema's pattern; the
 * names each may hold are the contract's vocabulary for that input.
 */
export const LIST_PATTERNS = ["^[a-z0-9_]+(,[a-z0-9_]+)*$", "^[a-z_]+(,[a-z_]+)*$"];
const LIST_VALUES: Record<string, readonly string[]> = {
  metrics: MARKET_HISTORY_METRIC_NAMES,
  event_type: PROPERTY_EVENT_TYPES,
};

/**
 * The query schema of each operation: those of queries.ts, and the history operations' own
 * (contract/history.ts builds on queries.ts, so queries.ts cannot list them without a cycle).
 */
const QUERY_SCHEMAS: Partial<Record<OperationName, TObject>> = {
  ...QUERIES,
  getMarketHistory: MarketHistoryQuery,
  getPropertyHistory: PropertyHistoryQuery,
};

/** One query input as the add-in checks it, read from the service's schema of it. */
function paramOf(operationId: OperationName, name: string, schema: TSchema): ParamSpec {
  const help = EXCEL_HELP[name] ?? schema.description;
  if (!help) throw new Error(`query input ${name} has no description`);
  // Places are read with the place grammar, as the service reads them.
  if (name === "geography") {
    const places = (PLACE_KINDS_OF as Partial<Record<OperationName, readonly PlaceKind[]>>)[operationId] ?? PLACE_KINDS;
    return { name, kind: "place", places, help: `A place: ${describeKinds(places)}.` };
  }
  if (name === "city") return { name, kind: "city", help };
  // Dates are read with the date grammar, as the service reads them.
  if (name in DATE_INPUT_BOUNDS) return { name, kind: "date", bound: DATE_INPUT_BOUNDS[name as keyof typeof DATE_INPUT_BOUNDS], help };
  if (schema.enum) return { name, kind: "enum", values: schema.enum, help };
  if (schema.type === "number" || schema.type === "integer") {
    const spec: ParamSpec = { name, kind: schema.type, min: schema.minimum ?? schema.exclusiveMinimum, help };
    if (schema.exclusiveMinimum !== undefined) spec.exclusiveMin = true;
    if (schema.maximum !== undefined) spec.max = schema.maximum;
    return spec;
  }
  if (schema.type !== "string") throw new Error(`query input ${name} has a type the add-in cannot check: ${schema.type}`);
  if (schema.pattern && LIST_PATTERNS.includes(schema.pattern)) {
    const values = LIST_VALUES[name];
    if (!values) throw new Error(`list input ${name} has no vocabulary in the add-in`);
    return { name, kind: "name_list", values, help };
  }
  if (schema.pattern) {
    const kind = PATTERN_KINDS[schema.pattern];
    if (!kind) throw new Error(`query input ${name} has a pattern the add-in does not know: ${schema.pattern}`);
    return { name, kind: kind(name), help };
  }
  return { name, kind: "text", minLength: schema.minLength, maxLength: schema.maxLength, help };
}

function queryOf(operationId: OperationName): ParamSpec[] {
  const schema = QUERY_SCHEMAS[operationId];
  // The snapshot selectors are the call's pin (the functions' as_of option, CallContext.pin),
  // added to every request of the call, not a filter of one endpoint.
  return schema
    ? Object.entries(schema.properties)
        .filter(([name]) => !(name in SNAPSHOT_SELECTORS))
        .map(([name, s]) => paramOf(operationId, name, s))
    : [];
}

function endpoint<Id extends OperationName>(operationId: Id) {
  const { method, path, paged } = OPERATIONS[operationId];
  return { operationId, method, path, paged, cost: CREDIT_COSTS[operationId], query: queryOf(operationId) } satisfies EndpointSpec;
}

export const ENDPOINTS = Object.fromEntries((Object.keys(OPERATIONS) as OperationName[]).map((id) => [id, endpoint(id)])) as {
  [Id in OperationName]: ReturnType<typeof endpoint<Id>>;
};

export type OperationId = keyof typeof ENDPOINTS;

/** `/v1/commercial/assets/{asset_type}/analysis` with its placeholders filled (and encoded). */
export function endpointPath(spec: EndpointSpec, params: Record<string, string> = {}): string {
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${spec.operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The endpoint a concrete request path belongs to (for credit counting); null if none. */
export function endpointFor(method: string, path: string): EndpointSpec | null {
  for (const spec of Object.values(ENDPOINTS) as EndpointSpec[]) {
    if (spec.method !== method) continue;
    const pattern = new RegExp(`^${spec.path.replace(/\{\w+\}/g, "[^/]+")}$`);
    if (pattern.test(path)) return spec;
  }
  return null;
}
