// Entry of the task pane page, which is also the add-in's shared runtime: functions.js runs
// in this same page (see webpack.config.js). The only module that waits for Office.onReady
// and touches the DOM; the pane itself is React (ui/App.tsx) over plain modules.
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { addinSession } from "../shared/addin-session";
import { officeStorageIfAvailable } from "../shared/settings";
import { watchBoundCharts } from "./excel-charts";
import { createExcelWorkbook } from "./excel-workbook";
import { explainCell, refreshWorkbook } from "./ribbon-commands";
import { App } from "./ui/App";

Office.onReady(() => {
  // Office.actions only exists where ribbon commands do (not in a plain browser).
  Office.actions?.associate("refreshWorkbook", refreshWorkbook);
  Office.actions?.associate("explainCell", explainCell);
  // Charts bound to spills follow them while the runtime is loaded, pane open or not (Excel
  // only; a plain browser has no Excel to watch).
  if (typeof Excel !== "undefined") watchBoundCharts().catch((err: unknown) => console.warn("Bound charts are not watched", err));
  // Without the pane's markup (the runtime loaded headless, as the bundle tests do) only the
  // ribbon commands above are wanted.
  const root = document.getElementById("root");
  if (!root) return;
  const storage = officeStorageIfAvailable();
  if (!storage) {
    root.textContent = "Open this pane from Excel: it keeps your API key in Office's storage, which a plain browser does not have.";
    return;
  }
  const hostWarning = excelApiSupported()
    ? undefined
    : "This version of Excel lacks the Excel JavaScript API 1.12 (dynamic arrays) the pane uses to insert, compare, refresh and freeze. Connecting and searching work; the rest needs Microsoft 365.";
  const services = {
    session: addinSession(),
    workbook: createExcelWorkbook(),
    storage,
    accountUrl: (baseUrl: string) => `${baseUrl}/account`,
  };
  createRoot(root).render(createElement(App, { services, hostWarning }));
});

/** False only when Office says this Excel lacks ExcelApi 1.12; true when it cannot tell (a plain browser). */
function excelApiSupported(): boolean {
  const requirements = Office.context?.requirements;
  return requirements ? requirements.isSetSupported("ExcelApi", "1.12") : true;
}
