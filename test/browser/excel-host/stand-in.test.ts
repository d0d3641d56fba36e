// The stand-in Excel host's own rules, in Node (no browser): the proxy discipline add-ins must
// follow (load, sync, null objects, a failed batch), how written input is read, and how
// custom-function results calculate and spill. Browser tests trust these.
import { excelNamespace } from "./api-workbook";
import { Calculation, CustomFunctionsError } from "./calculation";
import { WorkbookModel } from "./workbook-model";

function standIn(functions: Record<string, (...args: any[]) => unknown> = {}) {
  const model = new WorkbookModel(["Sheet1", "Rent roll"]);
  const calculation = new Calculation(model, { LIST: { matrix: [false] }, SUM2: { matrix: [true] } });
  for (const [id, fn] of Object.entries(functions)) calculation.associated.set(id, fn);
  return { model, calculation, Excel: excelNamespace({ model, calculation }) };
}

test("properties need load and sync; null objects answer after a sync; a failed call rejects the batch and skips the rest", async () => {
  const { Excel, model } = standIn();
  await Excel.run(async (context) => {
    const range = context.workbook.worksheets.getItem("Sheet1").getRange("B2:C3");
    expect(() => range.address).toThrow(/not available/);
    range.load("address,rowCount");
    expect(() => range.address).toThrow(/not available/);
    const used = context.workbook.worksheets.getItem("Sheet1").getUsedRangeOrNullObject();
    expect(() => used.isNullObject).toThrow();
    await context.sync();
    expect(range.address).toBe("Sheet1!B2:C3");
    expect(range.rowCount).toBe(2);
    expect(used.isNullObject).toBe(true);
    expect(context.workbook.worksheets.getItemOrNullObject("Nope").load("name")).toBeDefined();
  });

  await expect(
    Excel.run(async (context) => {
      context.workbook.worksheets.getItem("Sheet1").getRange("A1").values = [["before"]];
      context.workbook.worksheets.getItem("Missing").getRange("A1").values = [["never"]];
      context.workbook.worksheets.getItem("Sheet1").getRange("A2").values = [["after"]];
      await context.sync();
    }),
  ).rejects.toMatchObject({ code: "ItemNotFound" });
  expect(model.shown(model.sheets[0], 0, 0)).toBe("before");
  expect(model.shown(model.sheets[0], 1, 0)).toBeNull();
});

test("written input is read as Excel reads it; addresses quote sheet names as Excel does", async () => {
  const { Excel, model } = standIn();
  await Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem("Rent roll");
    sheet.getRange("B1").numberFormat = [["@"]];
    const range = sheet.getRange("A1:A6");
    range.values = [["'=HYPERLINK(1)"], ["+1"], ["007"], ["2024-05-01"], ["TRUE"], ["#N/A"]];
    sheet.getRange("B1").values = [["=1+1"]];
    range.load("address,values,formulas,valueTypes");
    await context.sync();
    expect(range.address).toBe("'Rent roll'!A1:A6");
    expect(range.values).toEqual([["=HYPERLINK(1)"], [1], [7], [45413], [true], ["#N/A"]]);
    // A text cell's formula is its text, without the apostrophe (as Excel's Range.formulas gives it).
    expect(range.formulas[0]).toEqual(["=HYPERLINK(1)"]);
    expect(range.valueTypes.flat()).toEqual(["String", "Double", "Double", "Double", "Boolean", "Error"]);
  });
  const rentRoll = model.sheets[1];
  expect(rentRoll.cells.get("0,0")).toMatchObject({ value: "=HYPERLINK(1)", prefixed: true });
  expect(rentRoll.cells.get("0,1")).toMatchObject({ value: "=1+1" });
  expect(rentRoll.cells.get("3,0")?.numberFormat).toBe("yyyy-mm-dd");
});

test("custom functions: arguments from cells, #BUSY! then a spill, #SPILL! when blocked, errors keep their message", async () => {
  const invocations: any[] = [];
  // The first call waits for the test, so the cell can be seen calculating.
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { Excel, model, calculation } = standIn({
    LIST: async (count: number, invocation: unknown) => {
      invocations.push(invocation);
      await gate;
      if (count < 0) throw new CustomFunctionsError("#VALUE!", "count must not be negative");
      return [["n"], ...Array.from({ length: count }, (_, i) => [i + 1])];
    },
    SUM2: async (values: number[][]) => values.flat().reduce((a, b) => a + Number(b || 0), 0),
  });
  const sheet = model.sheets[0];
  await Excel.run(async (context) => {
    const ws = context.workbook.worksheets.getItem("Sheet1");
    ws.getRange("D1").values = [[3]];
    ws.getRange("A1").formulas = [["=PROP.LIST(D1)"]];
    ws.getRange("E1").formulas = [["=PROP.SUM2(D1:D2)"]];
    await context.sync();
  });
  expect(model.shown(sheet, 0, 0)).toEqual({ error: "#BUSY!" });
  release();
  await calculation.idle();
  expect([0, 1, 2, 3, 4].map((r) => model.shown(sheet, r, 0))).toEqual(["n", 1, 2, 3, null]);
  expect(model.shown(sheet, 0, 4)).toBe(3);
  expect(invocations[0]).toMatchObject({ address: "Sheet1!A1", isInValuePreview: false });

  await Excel.run(async (context) => {
    const ws = context.workbook.worksheets.getItem("Sheet1");
    const parent = ws.getRange("A3").getSpillParentOrNullObject().load("address");
    const block = ws.getRange("A2:A3").getSpillParentOrNullObject();
    const spill = ws.getRange("A1").getSpillingToRangeOrNullObject().load("address");
    await context.sync();
    expect(parent.address).toBe("Sheet1!A1");
    expect(block.isNullObject).toBe(true);
    expect(spill.address).toBe("Sheet1!A1:A4");
  });

  // A value in the way blocks the spill; the formula reruns when the cell it reads changes.
  model.setContents(sheet, { row: 5, column: 0, rows: 1, columns: 1 }, [[{ value: "x" }]]);
  model.setContents(sheet, { row: 0, column: 3, rows: 1, columns: 1 }, [[{ value: 6 }]]);
  await calculation.idle();
  expect(model.shown(sheet, 0, 0)).toMatchObject({ error: "#SPILL!" });
  expect(model.shown(sheet, 0, 4)).toBe(6);

  model.setContents(sheet, { row: 0, column: 3, rows: 1, columns: 1 }, [[{ value: -1 }]]);
  await calculation.idle();
  expect(model.shown(sheet, 0, 0)).toEqual({ error: "#VALUE!", message: "count must not be negative" });

  model.setContents(sheet, { row: 9, column: 0, rows: 1, columns: 1 }, [[{ formula: "=SUM(A1:A3)" }]]);
  await calculation.idle();
  expect(model.shown(sheet, 9, 0)).toMatchObject({ error: "#NAME?" });
});

test("charts: series hold the cells they were given (a grown spill is not followed); settings keep JSON; onCalculated follows a result", async () => {
  let rows = 3;
  const { Excel, model, calculation } = standIn({ LIST: async () => Array.from({ length: rows }, (_, i) => [i === 0 ? "n" : i]) });
  const calculated: string[] = [];
  await Excel.run(async (context) => {
    context.workbook.worksheets.onCalculated.add((event: { address: string }) => void calculated.push(event.address));
    const sheet = context.workbook.worksheets.getItem("Sheet1");
    sheet.getRange("A1").formulas = [["=PROP.LIST(1)"]];
    await context.sync();
  });
  await calculation.idle();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(calculated).toEqual(["Sheet1!A1"]);
  await Excel.run(async (context) => {
    const sheet = context.workbook.worksheets.getItem("Sheet1");
    const chart = sheet.charts.add("Line", sheet.getRange("A1"), "Columns");
    chart.name = "Trend";
    chart.series.load("items/name");
    await context.sync();
    chart.series.items[0].setValues(sheet.getRange("A2:A3"));
    context.workbook.settings.add("bound", JSON.stringify({ chart: "Trend" }));
    await context.sync();
  });
  rows = 6;
  calculation.calculateAll();
  await calculation.idle();
  expect(model.charts.map((c) => [c.name, c.type, c.series.map((s) => s.values?.rect)])).toEqual([
    ["Trend", "Line", [{ row: 1, column: 0, rows: 2, columns: 1 }]],
  ]);
  await Excel.run(async (context) => {
    const setting = context.workbook.settings.getItemOrNullObject("bound").load("value");
    const missing = context.workbook.settings.getItemOrNullObject("other");
    const chart = context.workbook.worksheets.getItem("Sheet1").charts.getItemOrNullObject("Trend");
    await context.sync();
    expect(JSON.parse(setting.value as string)).toEqual({ chart: "Trend" });
    expect(missing.isNullObject).toBe(true);
    expect(chart.isNullObject).toBe(false);
    // A series reads one row or one column.
    chart.series.add().setValues(context.workbook.worksheets.getItem("Sheet1").getRange("A1:B2"));
    await expect(context.sync()).rejects.toMatchObject({ code: "InvalidArgument" });
  });
});
