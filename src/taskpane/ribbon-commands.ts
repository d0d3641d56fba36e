// Handlers for the ribbon's ExecuteFunction buttons (manifest.xml). taskpane.ts registers them
// with Office.actions.associate under the FunctionName the manifest uses.
import { addinSession, type AddinSession } from "../shared/addin-session";
import { createExcelWorkbook, recalculateWorkbook } from "./excel-workbook";
import { explainRequests, type ExplainRequests } from "./explain-requests";
import { refreshFormulas } from "./refresh-formulas";
import { refreshReports, type RefreshReports } from "./refresh-reports";
import type { WorkbookPort } from "./workbook-types";

export interface RibbonDeps {
  session: AddinSession;
  workbook: WorkbookPort;
  reports: RefreshReports;
  /** Recalculates the whole workbook: what is left when the snapshot check fails. */
  recalculateAll: () => Promise<void>;
}

/**
 * "Refresh workbook": the pane's Refresh of the whole workbook (the free snapshot check, then
 * every PROP formula calculated again, which answers from the cache when the snapshot is
 * unchanged), leaving its report for the pane's Refresh tab to show. When that fails (no key
 * yet, service unreachable, the workbook's formulas unreadable) the workbook is still
 * recalculated, so cells say why. Office
 * waits for event.completed(), so it is called whatever happens.
 */
export async function refreshWorkbook(event: Office.AddinCommands.Event, deps: RibbonDeps = ribbonDeps()): Promise<void> {
  try {
    const report = await refreshFormulas("workbook", deps).catch((err: unknown) => {
      console.warn(
        "Refresh: the formulas were not refreshed one by one (no key, service unreachable, or the workbook unreadable); recalculating the workbook",
        err,
      );
      return null;
    });
    if (report) deps.reports.publish(report, "ribbon");
    else await deps.recalculateAll();
  } catch (err) {
    console.error("Refresh workbook failed", err);
  } finally {
    event.completed();
  }
}

/**
 * "Explain cell": asks the pane to explain the selected cell (the pane, in this same shared
 * runtime, switches to its Explain tab and reads the selection) and shows the pane, which may
 * be closed. Office waits for event.completed(), so it is called whatever happens.
 */
export async function explainCell(
  event: Office.AddinCommands.Event,
  deps: { requests: ExplainRequests; showPane: () => Promise<void> } = {
    requests: explainRequests(),
    showPane: () => Office.addin.showAsTaskpane(),
  },
): Promise<void> {
  try {
    deps.requests.request();
    await deps.showPane();
  } catch (err) {
    console.error("Explain cell: the pane could not be shown", err);
  } finally {
    event.completed();
  }
}

function ribbonDeps(): RibbonDeps {
  return { session: addinSession(), workbook: createExcelWorkbook(), reports: refreshReports(), recalculateAll: recalculateWorkbook };
}
