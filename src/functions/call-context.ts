// What a function knows about its call: whether Excel is only previewing the formula, the
// signal Excel's cancellation aborts, the cell it was called from, the trace its requests
// note their sources in, and the session (cache, meter, gateway, cell outcomes) to work with.
import { addinSession, type AddinSession } from "../shared/addin-session";
import type { CallContext } from "../shared/cached-requests";
import { RequestTrace } from "../shared/cell-provenance";

export interface FunctionContext extends CallContext {
  session: AddinSession;
  /** The calling cell ("Sheet1!B2"), when the function's metadata has requiresAddress. */
  address?: string;
}

/** Reads the invocation Excel passes as the last argument (absent when called from tests). */
export function contextOf(invocation?: CustomFunctions.Invocation | null, session: AddinSession = addinSession()): FunctionContext {
  const controller = new AbortController();
  // Excel calls onCanceled only for cancelable functions; setting it on another invocation is harmless.
  if (invocation) (invocation as CustomFunctions.CancelableInvocation).onCanceled = () => controller.abort();
  // Typed as a string in @types/custom-functions-runtime; Excel passes a boolean.
  const preview = invocation?.isInValuePreview as unknown;
  const context: FunctionContext = {
    session,
    signal: controller.signal,
    preview: preview === true || preview === "true",
    // Where each answer came from, kept with the cell's outcome (cell-provenance.ts).
    trace: new RequestTrace(),
  };
  if (typeof invocation?.address === "string" && invocation.address !== "") context.address = invocation.address;
  return context;
}
