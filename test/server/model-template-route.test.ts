// The starter model as an .xlsx: served without a key, outside /v1, and read back with exceljs it
// is the template the pane inserts, sheet for sheet and formula for formula.
import ExcelJS from "exceljs";
import { MODEL_XLSX_PATH, modelTemplate } from "../../src/contract/model-template";
import { fileFormula } from "../../src/server/plugins/model-workbook";
import { startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ email: null });
});
afterAll(() => svc?.app.close());

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

test("the model's .xlsx holds every sheet and formula of the template, with no key asked", async () => {
  const id = String(svc.snapshot.prepare("SELECT id FROM properties ORDER BY id LIMIT 1").pluck().get());
  const res = await svc.app.inject({ method: "GET", url: `${MODEL_XLSX_PATH}?property_id=${id}` });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toBe(XLSX);
  expect(res.headers["content-disposition"]).toBe(`attachment; filename="underwriting-model-${id}.xlsx"`);
  expect(res.headers["x-credits-charged"]).toBeUndefined();

  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const template = modelTemplate({ propertyId: id });
  expect(book.worksheets.map((w) => w.name)).toEqual(template.sheets.map((s) => s.name));
  let formulas = 0;
  for (const sheet of template.sheets) {
    const ws = book.getWorksheet(sheet.name)!;
    sheet.cells.forEach((row, r) =>
      row.forEach((cell, c) => {
        const read = ws.getCell(r + 1, c + 1);
        if (cell !== null && typeof cell === "object") {
          formulas++;
          // As Excel stores an add-in's function, read back to the formula the pane writes.
          expect(read.formula).toBe(fileFormula(cell.formula));
          expect(`=${read.formula.replace(/_xldudf_PROP_([A-Z]+)\(/g, "PROP.$1(")}`).toBe(cell.formula);
        } else expect(read.value ?? null).toBe(cell);
      }),
    );
    sheet.widths.forEach((w, c) => expect(ws.getColumn(c + 1).width).toBe(w));
    expect(ws.getCell(sheet.boldRows[0] + 1, 1).font?.bold).toBe(true);
    for (const input of sheet.inputs) expect(ws.getCell(input.split(":")[0]).fill).toMatchObject({ pattern: "solid" });
  }
  expect(formulas).toBeGreaterThan(80);
  expect(book.getWorksheet(template.sheets[0].name)!.getCell("B4").value).toBe(id);
  expect(book.getWorksheet(template.sheets[1].name)!.getCell("M9").numFmt).toBe("0.0%");
});

test("a malformed or missing property id is a 400 problem, and nothing is built", async () => {
  for (const query of ["?property_id=co_0001", "?property_id=", "", "?property_id=cp_1&x=2"]) {
    const res = await svc.app.inject({ method: "GET", url: `${MODEL_XLSX_PATH}${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 400, code: "validation_failed" });
  }
});

test("Excel's form of an add-in's function: PROP.NAME( becomes _xldudf_PROP_NAME(, text left alone", () => {
  expect(fileFormula('=IFERROR(PROP.PROPERTY($B$4,"name"),"PROP.X(")')).toBe('IFERROR(_xldudf_PROP_PROPERTY($B$4,"name"),"PROP.X(")');
});
