// The starter model (contract/model-template.ts) as an .xlsx, built with exceljs: the same sheets,
// cells and formulas the pane inserts, with column widths, bold titles and headers, number
// formats, and the cells the analyst types into shaded as inputs.
//
// How a file holds a call to an add-in's function: Excel writes a custom function of a JavaScript
// add-in into the file as `_xldudf_<NAMESPACE>_<NAME>(…)` ("PROP.SALECOMPS" is stored as
// `_xldudf_PROP_SALECOMPS`), and shows it as PROP.SALECOMPS once the add-in that defines it is
// loaded; until then the cell shows #NAME?. This builder writes the calls the same way. A file
// formula carries no "=".
import ExcelJS from "exceljs";
import type { ModelSheet, ModelTemplate } from "../../contract/model-template";

/** The fill of the input cells (Excel's "Input" style colour), as ARGB. */
const INPUT_ARGB = "FFFFCC99";

/** A formula as a file stores it: no "=", and each PROP.NAME( as Excel writes an add-in's function. */
export function fileFormula(formula: string): string {
  // Text in quotes ("PROP.X(" inside a string) is left as written: odd parts of the split are strings.
  return formula
    .replace(/^=/, "")
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(^|[^A-Za-z0-9_.])PROP\.([A-Z]+)\(/g, "$1_xldudf_PROP_$2(")))
    .join("");
}

/** The .xlsx of `template`. */
export async function modelWorkbook(template: ModelTemplate): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Property Intelligence";
  for (const sheet of template.sheets) writeSheet(workbook.addWorksheet(sheet.name), sheet);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function writeSheet(ws: ExcelJS.Worksheet, sheet: ModelSheet) {
  sheet.cells.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (cell === null) return;
      ws.getCell(r + 1, c + 1).value = typeof cell === "object" ? { formula: fileFormula(cell.formula), date1904: false } : cell;
    }),
  );
  sheet.widths.forEach((width, c) => (ws.getColumn(c + 1).width = width));
  const width = Math.max(...sheet.cells.map((row) => row.length));
  for (const r of sheet.boldRows) for (let c = 1; c <= width; c++) ws.getCell(r + 1, c).font = { bold: true };
  for (const { range, format } of sheet.formats) eachCell(ws, range, (cell) => (cell.numFmt = format));
  for (const range of sheet.inputs) {
    eachCell(ws, range, (cell) => (cell.fill = { type: "pattern", pattern: "solid", fgColor: { argb: INPUT_ARGB } }));
  }
}

function eachCell(ws: ExcelJS.Worksheet, range: string, apply: (cell: ExcelJS.Cell) => void) {
  const [from, to = from] = range.split(":").map((a) => ws.getCell(a));
  for (let r = Number(from.row); r <= Number(to.row); r++) for (let c = Number(from.col); c <= Number(to.col); c++) apply(ws.getCell(r, c));
}
