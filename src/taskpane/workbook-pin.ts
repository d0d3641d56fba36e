// "Pin this workbook to a snapshot" and "move it to the latest", in the pane: every PROP formula
// of the workbook gets (or loses) the as_of option (formula-pin.ts), after a preview of what
// it may cost. The results the add-in holds are revalidated with their ETags under the new pin,
// so only those whose content differs in the target snapshot are billed; the preview gives the
// most that can be.
import type { AddinSession } from "../shared/addin-session";
import { repinFormula } from "./formula-pin";
import { estimateRefresh, type RefreshEstimate } from "./refresh-estimate";
import type { FormulaCell, WorkbookPort } from "./workbook-types";

export interface PinPlan {
  /** The snapshot to pin to, or null for the latest. */
  target: string | null;
  /** The formulas whose text changes, with their new text. */
  rewrites: FormulaCell[];
  /** PROP formulas in the workbook. */
  formulas: number;
  /** What revalidating the results held against the target may cost at most. */
  estimate: RefreshEstimate;
}

export interface PinDeps {
  session: AddinSession;
  workbook: WorkbookPort;
}

/**
 * What pinning to `target` (null: the latest, served as `latestId`) would change and cost. Results
 * held from the target snapshot are free to keep; any other may differ there, and is counted.
 */
export async function planPin(target: string | null, latestId: string | null, deps: PinDeps): Promise<PinPlan> {
  const cells = await deps.workbook.findPropFormulas("workbook");
  const rewrites = cells.map((c) => ({ ...c, formula: repinFormula(c.formula, target) })).filter((c, i) => c.formula !== cells[i].formula);
  const estimate = estimateRefresh(deps.session.cache.list(), target ?? latestId, { keepPinned: false });
  return { target, rewrites, formulas: cells.length, estimate };
}

/** One line for the pane, said before the user confirms. */
export function describePin(plan: PinPlan): string {
  const where = plan.target ? `snapshot ${plan.target}` : "the latest snapshot";
  if (plan.formulas === 0) return "There are no PROP formulas in this workbook.";
  if (plan.rewrites.length === 0) return `Every PROP formula already answers from ${where}: nothing to change.`;
  const n = `${plan.rewrites.length} formula${plan.rewrites.length === 1 ? "" : "s"}`;
  const { staleResults, maxCredits } = plan.estimate;
  const cost =
    maxCredits === 0
      ? "It is free: the results held already come from there."
      : `Up to ${maxCredits.toLocaleString("en-US")} credit${maxCredits === 1 ? "" : "s"}: ${staleResults} result${staleResults === 1 ? "" : "s"} held may differ there; those that do not are free.`;
  return `${n} will answer from ${where}. ${cost}`;
}

/** Writes the plan's formulas; Excel calculates each again under its new pin. */
export async function applyPin(plan: PinPlan, deps: PinDeps): Promise<number> {
  await deps.workbook.rewriteFormulas(plan.rewrites);
  return plan.rewrites.length;
}
