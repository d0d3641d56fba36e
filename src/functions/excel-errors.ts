// The one place where failures become Excel errors. Bad input is #VALUE! (the formula must
// change); everything else (no data, bad key, no credits, network, timeout) is #N/A, so the
// cell says why in its error message instead of showing a wrong number.
// Each call's outcome is also noted under its cell's address, because Excel shows the pane
// only "#N/A", never the message: after a Refresh the pane lists what failed and why. A value's
// outcome carries the requests it answered from (the call's trace), for "Explain this cell".
import type { AddinSession } from "../shared/addin-session";
import { ApiError, unreachableAdvice } from "../shared/api-error";
import { contextOf, type FunctionContext } from "./call-context";
import { isMissing, type Cell } from "./cell-values";

/** An argument that cannot be right; thrown before any request is made. */
export class InputError extends Error {
  override readonly name = "InputError";
}

/** The request succeeded but there is nothing to show. */
export class NoDataError extends Error {
  override readonly name = "NoDataError";
}

/**
 * A cell of a spill that may hold an error of its own: Excel shows an error (with its message)
 * in one cell of a dynamic array and the values in the others. PROP.MATCH answers each address
 * on its own, so an address that is not a match is an error in its row only.
 */
export type SpillCell = Cell | CustomFunctions.Error;

export function isErrorCell(cell: unknown): cell is CustomFunctions.Error {
  return cell instanceof CustomFunctions.Error;
}

// Excel shows the message in the cell's error flyout; long text is cut there anyway.
const MAX_MESSAGE_LENGTH = 250;

/**
 * Runs a function's body with the context of its invocation, turns anything it throws into a
 * CustomFunctions.Error, and records the outcome under the calling cell's address (when Excel
 * gave one). Not recorded: formula-edit previews (the cell may never hold that formula) and
 * cancelled calls (Excel discards their result, and the call that replaced them may already
 * have recorded its own).
 */
export async function withExcelErrors<T>(
  invocation: CustomFunctions.Invocation | null | undefined,
  body: (ctx: FunctionContext) => Promise<T>,
  session?: AddinSession,
): Promise<T> {
  let ctx: FunctionContext | undefined;
  try {
    ctx = contextOf(invocation, session);
    const result = missingAsNotAvailable(await body(ctx));
    const address = recordedAddress(ctx);
    const sources = ctx.trace?.provenance();
    if (address) ctx.session.outcomes.recordSuccess(address, sources && { functionName: functionNameOf(invocation), ...sources });
    return result;
  } catch (err) {
    const error = toExcelError(err);
    const address = ctx && recordedAddress(ctx);
    if (ctx && address) ctx.session.outcomes.recordFailure(address, error.code, error.message ?? "");
    throw error;
  }
}

const MISSING_MESSAGE = "No value in the snapshot (missing=na shows it as #N/A, a gap in a chart).";

/**
 * A result with its missing=na values (MISSING) as Excel's #N/A: in a spill, that cell alone;
 * a single value, the whole result (thrown, so its outcome is recorded as a failure).
 */
function missingAsNotAvailable<T>(result: T): T {
  if (isMissing(result)) throw new NoDataError(MISSING_MESSAGE);
  if (!Array.isArray(result) || !result.some((row) => Array.isArray(row) && row.some(isMissing))) return result;
  const notAvailable = excelError(CustomFunctions.ErrorCode.notAvailable, MISSING_MESSAGE);
  return result.map((row: unknown) => (Array.isArray(row) ? row.map((cell) => (isMissing(cell) ? notAvailable : cell)) : row)) as T;
}

/** "PROP.MARKET" for the invocation's "MARKET" (Excel gives the id without the namespace); null when absent. */
function functionNameOf(invocation: CustomFunctions.Invocation | null | undefined): string | null {
  const name = invocation?.functionName;
  if (typeof name !== "string" || name === "") return null;
  return /^PROP\./i.test(name) ? name.toUpperCase() : `PROP.${name.toUpperCase()}`;
}

/** The cell to record a call's outcome under; null for a preview, a cancelled call or no address. */
function recordedAddress(ctx: FunctionContext): string | null {
  return ctx.address !== undefined && !ctx.preview && !ctx.signal?.aborted ? ctx.address : null;
}

export function toExcelError(err: unknown): CustomFunctions.Error {
  if (err instanceof CustomFunctions.Error) return err;
  if (err instanceof InputError) return excelError(CustomFunctions.ErrorCode.invalidValue, err.message);
  if (err instanceof NoDataError) return excelError(CustomFunctions.ErrorCode.notAvailable, err.message);
  if (err instanceof ApiError) return fromApiError(err);
  // A bug of ours: keep the details in the log, give the cell something to go on.
  console.error("PROP function failed", err);
  return excelError(CustomFunctions.ErrorCode.notAvailable, "Unexpected error in the add-in; see the browser console.");
}

function fromApiError(err: ApiError): CustomFunctions.Error {
  const { invalidValue, notAvailable } = CustomFunctions.ErrorCode;
  if (err.status === 400 || err.status === 413 || err.status === 415 || err.status === 422) {
    // The field's own words, unless the message already says them (a place refusal does).
    const field = err.errors[0];
    const where = field && !err.message.includes(field.detail) ? ` (${field.pointer}: ${field.detail})` : "";
    return excelError(invalidValue, `${err.message}${where}`);
  }
  switch (err.status) {
    case 401:
      return excelError(notAvailable, `API key not accepted: ${err.message} Reconnect in the Property Intelligence pane.`);
    case 402:
    case 404:
      return excelError(notAvailable, err.message);
    case 429:
      return excelError(notAvailable, `Too many requests; try again shortly. ${err.message}`);
  }
  if (err.status >= 500) {
    // 5xx details are for the log; the cell gets the request id to quote.
    console.error("PROP service error", err.status, err.code, err.message, err.requestId);
    const ref = err.requestId ? ` (request ${err.requestId})` : "";
    return excelError(notAvailable, `The service had a problem${ref}; try again later.`);
  }
  // No answer at all: say what to do, with the URL the client's message names.
  if (err.status === 0 && (err.code === "network_error" || err.code === "timeout")) {
    const url = /\b(https?:\/\/[^\s:]+(?::\d+)?[^\s:]*)/.exec(err.message)?.[1] ?? null;
    return excelError(notAvailable, `${err.message.replace(/\.?$/, ".")} ${unreachableAdvice(url)}`);
  }
  // Not configured, cancelled, unreadable answer, other 4xx.
  return excelError(notAvailable, err.message);
}

function excelError(code: CustomFunctions.ErrorCode, message: string): CustomFunctions.Error {
  const text = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
  return new CustomFunctions.Error(code, text);
}
