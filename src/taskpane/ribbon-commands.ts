// Handlers for the ribbon's ExecuteFunction buttons (manifest.xml). taskpane.ts registers them
// with Office.actions.associate under the FunctionName the manifest uses.
import { recalculateWorkbook } from "./excel-workbook";

/** "Refresh workbook". Office waits for event.completed(), so it is called whatever happens. */
export async function refreshWorkbook(event: Office.AddinCommands.Event): Promise<void> {
  try {
    await recalculateWorkbook();
  } catch (err) {
    console.error("Refresh workbook failed", err);
  } finally {
    event.completed();
  }
}
