// A PROP function as one object: its positional arguments (what each is, how a cell's value
// becomes the request's inputs), the operation it calls, how its arguments and options become
// that operation's request, and how the answer becomes the spill (`table`). The JSDoc wrappers
// (whose signatures the metadata generator reads) call `request`, fetch, and call `table`; the
// task pane's search forms derive their fields from `args`, call the same `request` and show
// the answer through the same `table`, so a search and its formula cannot build different
// requests or show different columns.
import { ENDPOINTS, type EndpointSpec, type OperationId, type ParamSpec } from "../shared/endpoints";
import { isBlank } from "./argument-parsers";
import { checkParam } from "./param-values";
import type { OptionValue, ParamValue } from "./option-specs";
import type { ResourceName } from "./record-fields";
import type { Cell } from "./cell-values";

/** What one positional argument is, for a reader of the form and for the checks it gets. */
export type ArgKind =
  | "place"
  | "asset_type"
  | "company_type"
  | "property_id"
  /** A range or list of property ids (PROP.COMPARE): they go in the body. */
  | "property_ids"
  | "subject"
  | "company"
  | "metrics"
  | "date"
  | "metric"
  /** A field of the record (PROP.PROPERTY's field): read by the function, not sent. */
  | "field"
  /** A name the function reads itself (a catalog section, a resource, a credit item): not sent. */
  | "name"
  /** One of the operation's query inputs, checked against its ParamSpec (text, a status). */
  | "input";

export interface FunctionArg {
  /** The parameter's name in the JSDoc signature (and so in functions.json). */
  name: string;
  kind: ArgKind;
  /** What an analyst reads beside the argument's field in the pane. */
  label: string;
  /** What the value may be; for an argument filling one input, that input's help unless stated. */
  help: string;
  /** False when a blank cell is allowed (the function then leaves the input out or uses its default). */
  required: boolean;
  /** The operation's input this argument fills, when it fills exactly one (`q` for PROP.SEARCH's text). */
  input?: string;
  /** Where the inputs go: the path (asset type, company type, property id) or the query. */
  in: "path" | "query";
  /** The input schema that types the value (its kind, bounds, allowed values), when one does. */
  param?: ParamSpec;
  /**
   * The inputs a value becomes, checked as the function checks it: a blank optional argument
   * gives none (or its default). Throws InputError with a message for the user; `label` names
   * the argument in that message where the reader says which argument is wrong.
   */
  read(raw: unknown, label?: string): Record<string, ParamValue>;
}

/** A request as the contract's operation takes it: path parameters, query (paging included) and body. */
export interface FunctionRequest<Op extends OperationId | null = OperationId | null> {
  /** Null for a function answered without a request of its own (its definition says why). */
  operation: Op;
  params: Record<string, string>;
  query: Record<string, ParamValue>;
  /** The JSON body of a POST operation. */
  body?: unknown;
}

/** A request with what it was read from, for the function's own shaping of the answer. */
export interface ReadCall<Op extends OperationId | null = OperationId | null> extends FunctionRequest<Op> {
  options: Map<string, OptionValue>;
  /** The cells as Excel passed them, in the order of `args`: `table` reads the ones not sent (a field, a metric). */
  args: readonly unknown[];
}

/**
 * Where a spill is shown. The pane's preview writes numbers with their formats (it puts each
 * value and its format into the sheet itself), shows an answer with no rows as its header alone
 * (a formula's cell says #N/A with a reason instead), and leaves out a cut list's footer row
 * (the pane says how many rows match beside it). Columns and cells are the same in both.
 */
export interface SpillView {
  preview?: boolean;
}

/**
 * `C` is what a cell of the spill may hold: a value (`Cell`), or for PROP.MATCH, whose rows are
 * answered one by one, also an Excel error in the rows that are not a match.
 */
export interface FunctionDef<Answer = unknown, Op extends OperationId | null = OperationId | null, C = Cell> {
  /** The function's id, as registered: the formula calls PROP.<name>. */
  name: string;
  operation: Op;
  /** The records the answer holds (record-fields.ts): the spill's columns, when they are a resource's fields. */
  resource?: ResourceName;
  /** The columns spilled by default, when not every field of the resource. */
  columns?: readonly string[];
  /** The positional arguments, in order, before the trailing `options` text. */
  args: readonly FunctionArg[];
  /**
   * The first request the formula makes for these arguments (cells as Excel passes them, in the
   * order of `args`) and options text, every value checked first. Throws InputError.
   */
  request(args: readonly unknown[], options: unknown): ReadCall<Op>;
  /**
   * The spill of an answer to `call` (rows and header, as the options read into it ask).
   * Throws NoDataError with the cell's reason when there is nothing to show (not in a preview).
   */
  table(answer: Answer, call: ReadCall<Op>, view?: SpillView): C[][];
}

/** A function that calls one operation, as the pane's searches are. */
export type OperationDef<Answer = unknown> = FunctionDef<Answer, OperationId> & { resource: ResourceName };

/** The ParamSpec of one of an operation's query inputs (a name missing here is a bug in the caller). */
export function inputSpec(operation: OperationId | EndpointSpec, name: string): ParamSpec {
  const spec = typeof operation === "string" ? ENDPOINTS[operation] : operation;
  const found = spec.query.find((q) => q.name === name);
  if (!found) throw new Error(`${spec.operationId} has no query input ${name}`);
  return found;
}

/** The inputs of every positional argument, each read by its own reader (a blank optional one gives none). */
export function readArgs(
  args: readonly FunctionArg[],
  values: readonly unknown[],
): { params: Record<string, string>; query: Record<string, ParamValue> } {
  const params: Record<string, string> = {};
  const query: Record<string, ParamValue> = {};
  args.forEach((arg, i) => {
    const inputs = arg.read(values[i]);
    if (arg.in === "path") for (const [k, v] of Object.entries(inputs)) params[k] = String(v);
    else Object.assign(query, inputs);
  });
  return { params, query };
}

/** An argument that fills one of the operation's query inputs, checked against its ParamSpec; blank gives nothing when optional. */
export function inputArg(
  operation: OperationId,
  fields: Pick<FunctionArg, "name" | "label" | "required"> & { input: string; help?: string },
): FunctionArg {
  const param = inputSpec(operation, fields.input);
  return {
    kind: "input",
    help: param.help,
    param,
    ...fields,
    in: "query",
    read: (raw, label = fields.name) => (!fields.required && isBlank(raw) ? {} : { [fields.input]: checkParam(param, raw, label) }),
  };
}
