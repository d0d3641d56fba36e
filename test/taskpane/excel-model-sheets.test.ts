// excel-model-sheets.ts (insertSheets, sheetNames) against office-addin-mock: the load/sync
// discipline, the refusal that adds nothing when a name is taken, and what each new sheet is
// given (formulas, text kept as text, number formats, bold rows, input fill, column widths).
import { OfficeMockObject } from "office-addin-mock";
import { insertSheets, sheetNames } from "../../src/taskpane/excel-model-sheets";
import { INPUT_FILL, type NewSheet, SheetExistsError } from "../../src/taskpane/workbook-types";

type Objects = Record<string, any>;

function mockWorkbook(existing: string[]) {
  const ranges = new Map<string, any>();
  const added: string[] = [];
  const rangeAt = (key: string) => {
    if (!ranges.has(key)) ranges.set(key, { format: { font: {}, fill: {} } });
    return ranges.get(key);
  };
  const sheet = {
    activate: jest.fn(),
    getRangeByIndexes: (r: number, c: number, rows: number, cols: number) => rangeAt(`${r},${c},${rows},${cols}`),
    getRange: (a1: string) => rangeAt(a1),
  };
  const o: Objects = {};
  const root: any = new OfficeMockObject({ objects: { sheets: { load: () => o.sheets } } } as any);
  o.sheets = root.objects.sheets;
  o.sheets.items = existing.map((name) => ({ name }));
  o.sheets.add = (name: string) => (added.push(name), sheet);
  root.workbook = { worksheets: o.sheets };
  (globalThis as any).Excel = { run: async (batch: (context: unknown) => Promise<unknown>) => batch(root) };
  return { added, rangeAt, sheet };
}

const model = (name: string): NewSheet => ({
  name,
  cells: [
    ["Subject property id", "cp_0001"],
    [{ formula: '=PROP.PROPERTY($B$1,"name")' }, 12.5],
  ],
  widths: [30, 12],
  boldRows: [0],
  inputs: ["B1"],
  formats: [{ range: "B2:B2", format: "0.0%" }],
});

test("sheetNames reads the names after a load", async () => {
  mockWorkbook(["Sheet1", "Comps"]);
  await expect(sheetNames()).resolves.toEqual(["Sheet1", "Comps"]);
});

test("a name already in the workbook, in any case: refused, nothing added", async () => {
  const { added } = mockWorkbook(["model - profile"]);
  await expect(insertSheets([model("Other"), model("Model - Profile")])).rejects.toThrow(SheetExistsError);
  expect(added).toEqual([]);
});

test("each sheet is written whole: formulas, text as text, formats, bold rows, inputs, widths; the first activated", async () => {
  const { added, rangeAt, sheet } = mockWorkbook(["Sheet1"]);
  await expect(insertSheets([model("Model - Profile")])).resolves.toEqual(["Model - Profile"]);
  expect(added).toEqual(["Model - Profile"]);
  expect(rangeAt("0,0,2,2").formulas).toEqual([
    ["'Subject property id", "'cp_0001"],
    ['=PROP.PROPERTY($B$1,"name")', 12.5],
  ]);
  expect(rangeAt("1,1,1,1").numberFormat).toEqual([["0.0%"]]);
  expect(rangeAt("0,0,1,2").format.font.bold).toBe(true);
  expect(rangeAt("B1").format.fill.color).toBe(INPUT_FILL);
  expect([rangeAt("0,0,1,1").format.columnWidth, rangeAt("0,1,1,1").format.columnWidth]).toEqual([171, 68]);
  expect(sheet.activate).toHaveBeenCalled();
});
