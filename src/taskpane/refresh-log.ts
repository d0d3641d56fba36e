// The "Refresh log" sheet: the whole report of a refresh, every change and every failure, as
// rows appended under the earlier refreshes', so the model keeps its own record of what each
// new snapshot did to it. One summary row per refresh (when, which snapshot, the credits it
// spent, what changed), then one row per change or failure.
import { changesSummary, countChanges, countOf } from "./cell-changes";
import type { RefreshCredits, RefreshReport } from "./refresh-formulas";
import type { CellValue } from "./workbook-types";

export const REFRESH_LOG_SHEET = "Refresh log";

export const REFRESH_LOG_HEADER = ["Refreshed at (UTC)", "Snapshot", "Credits spent", "Cell", "Row", "Column", "Before", "After", "Change"];

/** Days from Excel's day zero (1899-12-30) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET = 25_569;

/** The rows one refresh adds to the log. */
export function refreshLogRows(report: RefreshReport): CellValue[][] {
  const at: CellValue = {
    type: "Double",
    basicValue: Date.parse(report.finishedAt) / 86_400_000 + EXCEL_EPOCH_OFFSET,
    numberFormat: "yyyy-mm-dd hh:mm",
  };
  const snapshot = report.snapshot.snapshotId;
  const failed = report.failures.length > 0 ? `, ${report.failures.length} failed` : "";
  const summary = `${countOf(report.formulas, "formula")} refreshed (${scopeName(report.scope)})${failed}. ${changesSummary(countChanges(report.changes), report.changedFormulas)} ${creditsText(report.credits)}`;
  return [
    [at, snapshot, report.credits.spent, "", summary, "", "", "", ""],
    ...report.changes.map((c) => [at, snapshot, null, c.address, c.row, c.column, c.before, c.after, c.change]),
    ...report.failures.map((f) => [at, snapshot, null, f.address, "Formula failed", "", "", f.error ?? "", f.reason]),
  ];
}

/** "2 credits spent (998 → 996 left).", "No credits spent." */
export function creditsText(credits: RefreshCredits): string {
  const left =
    credits.remainingBefore !== null && credits.remainingAfter !== null
      ? ` (${credits.remainingBefore.toLocaleString("en-US")} → ${credits.remainingAfter.toLocaleString("en-US")} left)`
      : "";
  return credits.spent === 0 ? `No credits spent${left}.` : `${countOf(credits.spent, "credit")} spent${left}.`;
}

export function scopeName(scope: RefreshReport["scope"]): string {
  return scope === "selection" ? "selection" : scope === "sheet" ? "active sheet" : "workbook";
}
