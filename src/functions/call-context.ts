// What a function knows about its call: whether Excel is only previewing the formula, the
// signal Excel's cancellation aborts, and the session (cache, meter, gateway) to work with.
import { addinSession, type AddinSession } from "../shared/addin-session";
import type { CallContext } from "../shared/cached-api";

export interface FunctionContext extends CallContext {
  session: AddinSession;
}

/** Reads the invocation Excel passes as the last argument (absent when called from tests). */
export function contextOf(invocation?: CustomFunctions.CancelableInvocation | null, session: AddinSession = addinSession()): FunctionContext {
  const controller = new AbortController();
  if (invocation) invocation.onCanceled = () => controller.abort();
  // Typed as a string in @types/custom-functions-runtime; Excel passes a boolean.
  const preview = invocation?.isInValuePreview as unknown;
  return { session, signal: controller.signal, preview: preview === true || preview === "true" };
}
