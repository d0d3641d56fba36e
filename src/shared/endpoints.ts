// The add-in's view of the v1 endpoints: paths, credit costs and the query inputs
// each accepts, with enough type information to check an input before a request is made.
// None of it is restated here: it is derived from the operations the server's routes are
// defined by (src/contract/operations.ts), each input's kind from its schema's `x-input`
// annotation (src/contract/input-kinds.ts). test/addin/endpoints-contract.test.ts holds the result equal to the
// OpenAPI document the server generates.
import type { TSchema } from "@sinclair/typebox";
import { OPERATIONS, type OperationName } from "../contract/operations";
import { fillPath, type Operation } from "../contract/operation";
import { PLACE_KINDS, describeKinds, type PlaceKind } from "../contract/places";
import type { DateBound } from "../contract/dates";
import { inputKindOf, type InputKind } from "../contract/input-kinds";

/** An input's spreadsheet kind (its schema's annotation), or what its type makes it. */
export type ParamKind = InputKind | "text" | "enum" | "number" | "integer";

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

/**
 * Comma-separated inputs (a list of names in one query value) match one of these patterns; the
 * names each may hold are its schema's `x-values` (contract/input-kinds.ts).
 */
export const LIST_PATTERNS = ["^[a-z0-9_]+(,[a-z0-9_]+)*$", "^[a-z_]+(,[a-z_]+)*$"];

/** One query input as the add-in checks it, read from the service's schema of it. */
function paramOf(name: string, schema: TSchema): ParamSpec {
  const help = EXCEL_HELP[name] ?? schema.description;
  if (!help) throw new Error(`query input ${name} has no description`);
  const input = inputKindOf(schema);
  // Places are read with the place grammar, as the service reads them.
  if (input?.kind === "place") {
    const places = input["x-places"] ?? PLACE_KINDS;
    return { name, kind: "place", places, help: `A place: ${describeKinds(places)}.` };
  }
  // Dates are read with the date grammar, as the service reads them.
  if (input?.kind === "date") return { name, kind: "date", bound: input["x-date-bound"], help };
  if (input?.kind === "name_list") {
    const values = input["x-values"];
    if (!values) throw new Error(`list input ${name} has no x-values`);
    return { name, kind: "name_list", values, help };
  }
  if (input) return { name, kind: input.kind, help };
  if (schema.enum) return { name, kind: "enum", values: schema.enum, help };
  if (schema.type === "number" || schema.type === "integer") {
    const spec: ParamSpec = { name, kind: schema.type, min: schema.minimum ?? schema.exclusiveMinimum, help };
    if (schema.exclusiveMinimum !== undefined) spec.exclusiveMin = true;
    if (schema.maximum !== undefined) spec.max = schema.maximum;
    return spec;
  }
  if (schema.type !== "string") throw new Error(`query input ${name} has a type the add-in cannot check: ${schema.type}`);
  if (schema.pattern) throw new Error(`query input ${name} has a pattern but no x-input annotation: ${schema.pattern}`);
  return { name, kind: "text", minLength: schema.minLength, maxLength: schema.maxLength, help };
}

/**
 * An operation's inputs: its query without paging and the snapshot selectors. The selectors are
 * the call's pin (the functions' as_of option, CallContext.pin), added to every request of the
 * call, not a filter of one endpoint.
 */
function queryOf(operation: Operation): ParamSpec[] {
  return Object.entries(operation.inputs.properties).map(([name, s]) => paramOf(name, s));
}

function endpoint<Id extends OperationName>(operationId: Id) {
  const operation = OPERATIONS[operationId];
  const { method, path, paged, cost } = operation;
  return { operationId, method, path, paged, cost, query: queryOf(operation) } satisfies EndpointSpec;
}

export const ENDPOINTS = Object.fromEntries((Object.keys(OPERATIONS) as OperationName[]).map((id) => [id, endpoint(id)])) as {
  [Id in OperationName]: ReturnType<typeof endpoint<Id>>;
};

export type OperationId = keyof typeof ENDPOINTS;

/** `/v1/commercial/assets/{asset_type}/analysis` with its placeholders filled (and encoded). */
export function endpointPath(spec: EndpointSpec, params: Record<string, string> = {}): string {
  return fillPath({ name: spec.operationId, path: spec.path }, params);
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
