// The add-in session's live figures as React state: the credits (from the headers of every
// answer, the functions' and the pane's) and a counter that moves on every change to the result
// cache, so what depends on them (the status, a search's price) stays current.
import { useEffect, useState } from "react";
import type { AddinSession } from "../../shared/addin-session";
import type { CreditState } from "../../shared/credit-meter";

export function useCredits(session: AddinSession): CreditState | null {
  const [credits, setCredits] = useState<CreditState | null>(session.meter.current());
  useEffect(() => session.meter.subscribe(setCredits), [session]);
  return credits;
}

export function useCacheVersion(session: AddinSession): number {
  const [version, setVersion] = useState(0);
  useEffect(() => session.cache.onChange(() => setVersion((v) => v + 1)), [session]);
  return version;
}
