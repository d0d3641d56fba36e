// "Refresh" in the pane: learn which snapshot the service serves (one free call), mark cached
// results from any other snapshot stale, then calculate the PROP formulas in scope again, a
// few at a time so the pane can show progress, and say which failed and why, what now shows
// another value (what the new data did to the model), and the credits the refresh spent.
import { refreshCachedResults, type AddinSession } from "../shared/addin-session";
import type { RefreshResult } from "../shared/cached-api";
import { type PinnedCell, pinnedCells } from "./pin-notices";
import type { FormulaOutcome, Scope, WorkbookPort } from "./workbook-types";
import type { CellChange } from "./cell-changes";
import type { CreditState } from "../shared/credit-meter";

/** Formulas per Excel batch: small enough for steady progress, large enough to stay quick. */
export const REFRESH_BATCH = 10;

export interface RefreshFailure extends FormulaOutcome {
  /** Why, in words: the function's own message when the add-in recorded one. */
  reason: string;
}

/** The credits a refresh spent, from the credit headers of the answers it got (the meter). */
export interface RefreshCredits {
  /** Credits charged by the answers during the refresh. */
  spent: number;
  /** Credits left before and after, when an answer said (null before the first one did). */
  remainingBefore: number | null;
  remainingAfter: number | null;
}

export interface RefreshReport {
  scope: Scope;
  snapshot: RefreshResult;
  formulas: number;
  failures: RefreshFailure[];
  /** Everything that shows another value than before the refresh, in the order the formulas were found: all of it, however long. */
  changes: CellChange[];
  /** The cells to mark as changed. */
  marks: string[];
  /** Formulas with at least one change. */
  changedFormulas: number;
  credits: RefreshCredits;
  finishedAt: string;
  /** The formulas' pins (as_of=), for the notices of pins retired or about to be (pin-notices.ts). */
  pinned?: PinnedCell[];
}

export interface RefreshDeps {
  session: AddinSession;
  workbook: WorkbookPort;
  onProgress?: (done: number, total: number) => void;
  now?: () => Date;
}

export async function refreshFormulas(scope: Scope, deps: RefreshDeps): Promise<RefreshReport> {
  const startedAt = Date.now();
  const snapshot = await refreshCachedResults(deps.session);
  // After the check, which is free and whose answer says the credits left now.
  const meterBefore = deps.session.meter.current();
  const cells = await deps.workbook.findPropFormulas(scope);
  const failures: RefreshFailure[] = [];
  const changes: CellChange[] = [];
  const marks: string[] = [];
  let changedFormulas = 0;
  deps.onProgress?.(0, cells.length);
  for (let i = 0; i < cells.length; i += REFRESH_BATCH) {
    const batch = cells.slice(i, i + REFRESH_BATCH);
    for (const outcome of await deps.workbook.recalculate(batch)) {
      if (outcome.error) failures.push({ ...outcome, reason: reasonFor(outcome, deps.session, startedAt) });
      if (outcome.changes.length > 0) changedFormulas++;
      changes.push(...outcome.changes);
      marks.push(...outcome.marks);
    }
    deps.onProgress?.(Math.min(i + batch.length, cells.length), cells.length);
  }
  // Charts bound to a spill follow it now that it may have grown (excel-charts.ts); a chart
  // that cannot be rebound must not fail the refresh that already happened.
  await deps.workbook.rebindCharts?.().catch((err: unknown) => console.warn("Refresh: bound charts were not updated", err));
  return {
    scope,
    snapshot,
    formulas: cells.length,
    failures,
    changes,
    marks,
    changedFormulas,
    credits: creditsSpent(meterBefore, deps.session.meter.current()),
    finishedAt: (deps.now?.() ?? new Date()).toISOString(),
    pinned: pinnedCells(cells),
  };
}

function creditsSpent(before: CreditState | null, after: CreditState | null): RefreshCredits {
  return {
    spent: (after?.chargedThisSession ?? 0) - (before?.chargedThisSession ?? 0),
    remainingBefore: before?.remaining ?? null,
    remainingAfter: after?.remaining ?? before?.remaining ?? null,
  };
}

/** Excel's own errors, which no PROP function raises, explained. */
const EXCEL_ERRORS: Record<string, string> = {
  "#SPILL!": "The result needs empty cells below and to the right of the formula; clear them.",
  "#REF!": "The formula refers to cells that no longer exist.",
  "#NAME?": "Excel does not know a name in the formula: is the add-in loaded, and the function spelt right?",
  "#BUSY!": "Still calculating when the refresh read it; refresh again in a moment.",
  "#CALC!": "Excel could not calculate the formula.",
};

function reasonFor(outcome: FormulaOutcome, session: AddinSession, since: number): string {
  const recorded = session.outcomes.outcomeOf(outcome.address);
  // Only what this refresh's calculation recorded: an older message may be about another formula.
  if (recorded && !recorded.ok && recorded.at >= since) return recorded.message;
  return EXCEL_ERRORS[outcome.error ?? ""] ?? `The cell shows ${outcome.error}.`;
}
