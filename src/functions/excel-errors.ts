// The one place where failures become Excel errors. Bad input is #VALUE! (the formula must
// change); everything else (no data, bad key, no credits, network, timeout) is #N/A, so the
// cell says why in its error message instead of showing a wrong number.
import { ApiError } from "../shared/api-error";

/** An argument that cannot be right; thrown before any request is made. */
export class InputError extends Error {
  override readonly name = "InputError";
}

/** The request succeeded but there is nothing to show. */
export class NoDataError extends Error {
  override readonly name = "NoDataError";
}

// Excel shows the message in the cell's error flyout; long text is cut there anyway.
const MAX_MESSAGE_LENGTH = 250;

/** Runs a function body and turns anything it throws into a CustomFunctions.Error. */
export async function withExcelErrors<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw toExcelError(err);
  }
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
    const field = err.errors[0];
    const where = field ? ` (${field.pointer}: ${field.detail})` : "";
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
  // Not configured, network failure, timeout, cancelled, unreadable answer, other 4xx.
  return excelError(notAvailable, err.message);
}

function excelError(code: CustomFunctions.ErrorCode, message: string): CustomFunctions.Error {
  const text = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
  return new CustomFunctions.Error(code, text);
}
