// What one operation of the v1 API is: its name (the OpenAPI operationId), method and path, the
// schemas of its path parameters, query, body and answer, what a call costs, whether it
// answers a paged list, and how the documentation describes it (tag, summary, description and
// what its 400 and 404 can mean). The service registers its routes from these definitions, the OpenAPI
// document publishes them, and the add-in calls by them (src/shared/api-client.ts), so nothing
// about an operation is written twice.
import { Type, type Static, type TObject, type TOptional, type TProperties, type TSchema } from "@sinclair/typebox";
import { PagingQuery } from "./paging";
import { SNAPSHOT_SELECTORS } from "./snapshot-select";
import { QueryObject } from "./queries";

/** The query members every list operation takes after its own inputs. */
type PagingMembers = { limit: TOptional<typeof PagingQuery.limit>; offset: TOptional<typeof PagingQuery.offset> };
/** The snapshot selectors every operation takes. */
type SelectorMembers = {
  snapshot: TOptional<typeof SNAPSHOT_SELECTORS.snapshot>;
  as_of: TOptional<typeof SNAPSHOT_SELECTORS.as_of>;
};

/** An operation's whole query: its own inputs, paging when it is paged, and the snapshot selectors. */
export type FullQuery<I extends TObject, Paged extends boolean> = TObject<
  I["properties"] & (Paged extends true ? PagingMembers : Record<never, never>) & SelectorMembers
>;

/** What an operation states. */
export interface OperationSpec<
  Paged extends boolean,
  P extends TObject | undefined,
  I extends TObject,
  B extends TObject | undefined,
  R extends TSchema,
> {
  method: "GET" | "POST";
  /** OpenAPI path syntax: `{name}` for a path parameter. */
  path: string;
  /** Answers a list envelope paged by `limit` and `offset`. */
  paged: Paged;
  /** Credits a successful call costs (per `costPer` when given, else per call); 304s and errors cost nothing. */
  cost: number;
  /** What a call billed per unit is charged per (a market answered). */
  costPer?: string;
  params?: P;
  /** The query inputs other than paging and the snapshot selectors; none when absent. */
  inputs?: I;
  /** A JSON body (the operation is then a POST). */
  body?: B;
  /** The most bytes its body may have: DEFAULT_BODY_LIMIT unless the body's rows need more. */
  bodyLimit?: number;
  /** The answer of a 200. Problems (4xx, 5xx) are the Problem record (contract/problem.ts). */
  response: R;
  /** The group the documentation lists the operation under. */
  tag: string;
  /** One line: what the operation answers (the OpenAPI summary, the catalog's). */
  summary: string;
  /** What it does and refuses, for people (the OpenAPI description, before its cost). */
  description: string;
  /**
   * When the operation answers 404 (`not_found`): something the caller names (a record, an asset
   * type, a geography) is not in the snapshot. Operations that name nothing have none, and the
   * OpenAPI document declares their 404 only for a snapshot not kept.
   */
  notFound?: string;
  /** What a 400 can mean besides a request that fails its schemas (`validation_failed`). */
  badRequest?: string;
}

/** An operation as everything else reads it. */
export interface Operation<
  Name extends string = string,
  Paged extends boolean = boolean,
  P extends TObject | undefined = TObject | undefined,
  I extends TObject = TObject,
  B extends TObject | undefined = TObject | undefined,
  R extends TSchema = TSchema,
> extends Omit<OperationSpec<Paged, P, I, B, R>, "params" | "inputs" | "body"> {
  name: Name;
  /** The path parameters; undefined when the path has none. */
  params: P;
  inputs: I;
  /** The JSON body; undefined for an operation that takes none. */
  body: B;
  /** The query as a request may send it: the inputs, paging if paged, and `snapshot`/`as_of`. */
  query: FullQuery<I, Paged>;
  /** The 200 answer, by status (the shape OpenAPI and Fastify take). */
  responses: { 200: R };
}

/** The most bytes a request's body may have, unless its operation says otherwise (`bodyLimit`). */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** One operation, its query completed with paging and the snapshot selectors. */
export function defineOperation<
  Name extends string,
  Paged extends boolean,
  R extends TSchema,
  P extends TObject | undefined = undefined,
  I extends TObject = TObject<Record<never, never>>,
  B extends TObject | undefined = undefined,
>(name: Name, spec: OperationSpec<Paged, P, I, B, R>): Operation<Name, Paged, P, I, B, R> {
  const inputs = spec.inputs ?? (QueryObject({}) as TObject as I);
  const paging: TProperties = spec.paged ? { limit: Type.Optional(PagingQuery.limit), offset: Type.Optional(PagingQuery.offset) } : {};
  const selectors = { snapshot: Type.Optional(SNAPSHOT_SELECTORS.snapshot), as_of: Type.Optional(SNAPSHOT_SELECTORS.as_of) };
  // Built from the members FullQuery names; TypeScript cannot follow the conditional spread.
  const members: TProperties = { ...inputs.properties, ...paging, ...selectors };
  const query = Type.Object(members, { additionalProperties: inputs.additionalProperties }) as TObject as FullQuery<I, Paged>;
  return {
    ...spec,
    name,
    params: spec.params as P,
    inputs,
    body: spec.body as B,
    query,
    responses: { 200: spec.response },
  };
}

/** The static type of an operation's 200 answer. */
export type AnswerOf<O extends Operation> = Static<O["response"]>;

/** Keys of `P` a request must send: neither optional nor defaulted. */
type RequiredKeys<P extends TProperties> = {
  [K in keyof P]: P[K] extends TOptional<TSchema> ? never : P[K] extends { default: unknown } ? never : K;
}[keyof P];

/** A query as a caller sends it: what the schema requires, and any of the rest. */
export type QueryToSend<Q extends TObject> = Partial<Static<Q>> & Pick<Static<Q>, RequiredKeys<Q["properties"]> & keyof Static<Q>>;

/** The parts of a call of `O`: path parameters, query and body, each only where the operation has it. */
export type CallParts<O extends Operation> = (O["params"] extends TObject ? { params: Static<O["params"]> } : { params?: undefined }) &
  (RequiredKeys<O["query"]["properties"]> extends never ? { query?: QueryToSend<O["query"]> } : { query: QueryToSend<O["query"]> }) &
  (O["body"] extends TObject ? { body: Static<O["body"]> } : { body?: undefined });

/** `/v1/commercial/assets/{asset_type}/analysis` with its placeholders filled in (and encoded). */
export function fillPath(operation: Pick<Operation, "name" | "path">, params: Record<string, string> = {}): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.name} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
