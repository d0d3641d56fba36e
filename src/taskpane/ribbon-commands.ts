// Handlers for the ribbon's ExecuteFunction buttons (manifest.xml). taskpane.ts registers them
// with Office.actions.associate under the FunctionName the manifest uses.
import { refreshCachedResults } from "../shared/addin-session";
import { recalculateWorkbook } from "./excel-workbook";

/**
 * "Refresh workbook": first the explicit revalidation (which snapshot does the service serve
 * now? free), then a full recalculation, which PROP formulas answer from the cache when the
 * snapshot is unchanged. Office waits for event.completed(), so it is called whatever happens.
 */
export async function refreshWorkbook(event: Office.AddinCommands.Event): Promise<void> {
  try {
    // A failed check (no key yet, service unreachable) still recalculates: cells then say why.
    await refreshCachedResults().catch((err: unknown) => console.error("Refresh: snapshot check failed", err));
    await recalculateWorkbook();
  } catch (err) {
    console.error("Refresh workbook failed", err);
  } finally {
    event.completed();
  }
}
