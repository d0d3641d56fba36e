// Test-only browser entry: the add-in's own excel-workbook.ts, bundled on its own (host.ts)
// and added to the pane page, so a test can call each WorkbookPort method in the page against
// the stand-in Excel. The built taskpane bundle exposes nothing for tests.
import { createExcelWorkbook, recalculateWorkbook } from "../../../src/taskpane/excel-workbook";

Object.assign(window, { __excelWorkbook: createExcelWorkbook(), __recalculateWorkbook: recalculateWorkbook });
