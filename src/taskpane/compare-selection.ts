// "Compare selected rows": the ids in the selected rows (following a spill back to its
// formula, a table to its header), one compare call, and a new sheet with the properties as
// columns and the fields as rows. Nothing is written unless every step succeeded.
import type { AddinSession } from "../shared/addin-session";
import { comparisonRows } from "./comparison-table";
import { propertyIdsFrom } from "./selection-ids";
import { formatMoment } from "./status-text";
import type { WorkbookPort } from "./workbook-types";

export interface CompareDeps {
  session: AddinSession;
  workbook: WorkbookPort;
  now?: () => Date;
}

export interface CompareReport {
  sheet: string;
  properties: number;
  source: string;
}

export async function compareSelectedRows(deps: CompareDeps): Promise<CompareReport> {
  const selection = await deps.workbook.readSelectedRows();
  const ids = propertyIdsFrom(selection);
  const comparison = await deps.session.api.compare(ids);
  const rows = comparisonRows(comparison);
  const at = formatMoment((deps.now?.() ?? new Date()).toISOString());
  const snapshot = comparison.snapshot?.id ? ` from snapshot ${comparison.snapshot.id}` : "";
  const sheet = await deps.workbook.writeComparisonSheet(rows, {
    title: "Comparison",
    note: `${ids.length} properties from ${selection.source}, compared on ${at}${snapshot}.`,
  });
  return { sheet, properties: ids.length, source: selection.source };
}
