// excel-workbook.ts against office-addin-mock: each test builds the few Excel objects its
// method touches. The mocks enforce the load/sync discipline (a property reads as an error
// string until loaded and synced, and loading a property the mock lacks throws), so these
// tests catch a missing load or sync; what Excel itself does with the calls is what the
// browser test with the stand-in host checks.
import { OfficeMockObject } from "office-addin-mock";
import { CHANGED_FILL, MARK_RULE, MAX_SELECTED_ROWS, createExcelWorkbook } from "../../src/taskpane/excel-workbook";
import { TargetNotEmptyError } from "../../src/taskpane/workbook-types";

type Data = Record<string, unknown>;
type Objects = Record<string, any>;

/**
 * A mock request context: `objects(o)` returns the Excel objects by name (each one is synced
 * with the context, as every object of a batch is); their methods reach each other through
 * `o`. The workbook is a plain object made after them (nothing on it is loaded). `wire` then
 * sets what a mock cannot hold as data: collection items, and isNullObject, which Excel
 * answers after any sync without a load.
 */
function mockExcel(objects: (o: Objects) => Record<string, Data>, workbook: (o: Objects) => Data, wire: (o: Objects) => void = () => {}) {
  // The proxy reads `root` only when a test's callback asks for an object, after it is made.
  const o = new Proxy({} as Objects, { get: (_, name: string) => root.objects[name] });
  const data = objects(o);
  const root: any = new OfficeMockObject({ objects: data });
  root.workbook = workbook(o);
  for (const name of Object.keys(data)) root.objects[name].isNullObject = false;
  wire(o);
  (globalThis as any).Excel = { run: async (batch: (context: unknown) => Promise<unknown>) => batch(root) };
  return o;
}

function range(address: string, row: number, column: number, rows: number, columns: number, extra: Data = {}): Data {
  return { address, rowIndex: row, columnIndex: column, rowCount: rows, columnCount: columns, ...extra };
}

/**
 * A collection whose items (mocks among the objects) the test sets in `wire`. Its load()
 * loads "items/name" on the items, as Excel's does, and returns the collection.
 */
function collection(extra: Data = {}): Data {
  return {
    load(spec: string) {
      const paths = spec.split(",").map((p) => p.trim().replace(/^items\//, ""));
      for (const item of this.items as any[]) if (typeof item.load === "function") item.load(paths.join(","));
      return this;
    },
    ...extra,
  };
}

/** getRangeByIndexes that serves only the blocks a test expects to be read (a stray read fails). */
function byIndexes(o: Objects, blocks: Record<string, string>) {
  return (row: number, column: number, rows: number, columns: number) => {
    const name = blocks[`${row},${column},${rows},${columns}`];
    if (!name) throw new Error(`unexpected read of ${rows}x${columns} at ${row},${column}`);
    return o[name];
  };
}

/**
 * What a range loaded for how its cells are shown holds: values and their types, the cells' own formats
 * ("General" unless given), Excel's text and valuesAsJson (each value's own format, if any).
 */
function shown(values: unknown[][], text?: string[][], json?: unknown[][]): Data {
  return {
    values,
    valueTypes: values.map((row) => row.map((v) => (v === "" ? "Empty" : typeof v === "number" ? "Double" : "String"))),
    numberFormat: values.map((row) => row.map(() => "General")),
    text: text ?? values.map((row) => row.map(String)),
    valuesAsJson: json ?? values.map((row) => row.map((v) => ({ type: typeof v === "number" ? "Double" : "String", basicValue: v }))),
  };
}

const SEARCH = '=PROP.SEARCH("warehouse","TX","limit=5")';
const LONG = '=PROP.SEARCH("warehouse","Travis County, TX","limit=50")';

/** An Excel with ExcelApi 1.16 (Range.valuesAsJson), as Microsoft 365 is. */
beforeEach(() => {
  (globalThis as any).Office = { context: { requirements: { isSetSupported: (set: string) => set === "ExcelApi" } } };
});

afterEach(() => {
  delete (globalThis as any).Excel;
  delete (globalThis as any).Office;
});

describe("readSelectedRows", () => {
  test("in a table: the table's header and the whole table rows the selection covers", async () => {
    mockExcel(
      (o) => ({
        selection: range("Sheet1!B3:B4", 2, 1, 2, 1, { worksheet: {}, getTables: () => o.tables }),
        tables: collection(),
        table: { name: "Comps", getHeaderRowRange: () => o.header, getDataBodyRange: () => o.body },
        header: { values: [["id", "name"]] },
        body: range("Sheet1!A2:B6", 1, 0, 5, 2),
        used: range("Sheet1!A1:B6", 0, 0, 6, 2),
        rows: {
          values: [
            ["cp_2", "Beta"],
            ["cp_3", ""],
          ],
        },
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) => {
        o.tables.items = [o.table];
        o.selection.worksheet.getUsedRangeOrNullObject = () => o.used;
        o.selection.worksheet.getRangeByIndexes = byIndexes(o, { "2,0,2,2": "rows" });
      },
    );
    expect(await createExcelWorkbook().readSelectedRows()).toEqual({
      address: "Sheet1!B3:B4",
      header: ["id", "name"],
      rows: [
        ["cp_2", "Beta"],
        ["cp_3", null],
      ],
      source: 'table "Comps"',
    });
  });

  test("in a spill: follows the cell back to its formula; the spill's first row is the header", async () => {
    const sheet: Data = {};
    mockExcel(
      (o) => ({
        selection: range("Sheet1!B3:B4", 2, 1, 2, 1, { worksheet: sheet, getTables: () => o.tables }),
        tables: collection(),
        used: range("Sheet1!A1:D9", 0, 0, 9, 4),
        inSpill: { getSpillParentOrNullObject: () => o.anchor },
        anchor: { address: "Sheet1!A1", formulas: [[LONG]], getSpillingToRangeOrNullObject: () => o.spill },
        spill: range("Sheet1!A1:D6", 0, 0, 6, 4),
        header: { values: [["id", "name", "city", "size"]] },
        rows: {
          values: [
            ["cp_2", "Beta", "Austin", 12000],
            ["cp_3", "Gamma", "Waco", 8000],
          ],
        },
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) => {
        o.tables.items = [];
        Object.assign(o.selection.worksheet, {
          getUsedRangeOrNullObject: () => o.used,
          // Both probed cells (B3 and B4) are in the spill.
          getCell: () => o.inSpill,
          getRangeByIndexes: byIndexes(o, { "0,0,1,4": "header", "2,0,2,4": "rows" }),
        });
      },
    );
    const read = await createExcelWorkbook().readSelectedRows();
    expect(read.header).toEqual(["id", "name", "city", "size"]);
    expect(read.rows).toEqual([
      ["cp_2", "Beta", "Austin", 12000],
      ["cp_3", "Gamma", "Waco", 8000],
    ]);
    // A long formula is cut short in the message.
    expect(read.source).toBe(`the spill of ${LONG.slice(0, 39)}… at Sheet1!A1`);
  });

  test("a whole-column selection in a plain block is cut to the used range; the block's first row is the header", async () => {
    mockExcel(
      (o) => ({
        selection: range("Sheet1!B:B", 0, 1, 1_048_576, 1, { worksheet: {}, getTables: () => o.tables }),
        tables: collection(),
        used: range("Sheet1!A1:C4", 0, 0, 4, 3),
        notSpilled: { getSpillParentOrNullObject: () => o.noParent },
        noParent: { address: "", formulas: [[""]] },
        topLeft: { getSurroundingRegion: () => o.region },
        region: range("Sheet1!A1:C4", 0, 0, 4, 3),
        header: { values: [["id", "name", "size"]] },
        rows: {
          values: [
            ["cp_1", "Alpha", 1],
            ["cp_2", "Beta", 2],
            ["cp_3", "Gamma", 3],
          ],
        },
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) => {
        o.tables.items = [];
        o.noParent.isNullObject = true;
        Object.assign(o.selection.worksheet, {
          getUsedRangeOrNullObject: () => o.used,
          getCell: () => o.notSpilled,
          getRangeByIndexes: byIndexes(o, { "0,1,1,1": "topLeft", "0,0,1,3": "header", "1,0,3,3": "rows" }),
        });
      },
    );
    const read = await createExcelWorkbook().readSelectedRows();
    expect(read).toEqual({
      address: "Sheet1!B:B",
      header: ["id", "name", "size"],
      rows: [
        ["cp_1", "Alpha", 1],
        ["cp_2", "Beta", 2],
        ["cp_3", "Gamma", 3],
      ],
      source: "Sheet1!A1:C4",
    });
  });

  test("an empty sheet gives no rows; a selection of too many table rows is refused", async () => {
    mockExcel(
      (o) => ({
        selection: range("Sheet1!A1", 0, 0, 1, 1, { worksheet: {}, getTables: () => o.tables }),
        tables: collection(),
        used: range("", 0, 0, 0, 0),
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) => {
        o.tables.items = [];
        o.used.isNullObject = true;
        o.selection.worksheet.getUsedRangeOrNullObject = () => o.used;
      },
    );
    expect(await createExcelWorkbook().readSelectedRows()).toEqual({ address: "Sheet1!A1", header: null, rows: [], source: "Sheet1!A1" });

    const big = MAX_SELECTED_ROWS + 1;
    mockExcel(
      (o) => ({
        selection: range(`Sheet1!A2:A${big + 1}`, 1, 0, big, 1, { worksheet: {}, getTables: () => o.tables }),
        tables: collection(),
        table: { name: "Big", getHeaderRowRange: () => o.header, getDataBodyRange: () => o.body },
        header: { values: [["id"]] },
        body: range(`Sheet1!A2:A${big + 1}`, 1, 0, big, 1),
        used: range(`Sheet1!A1:A${big + 1}`, 0, 0, big + 1, 1),
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) => {
        o.tables.items = [o.table];
        o.selection.worksheet.getUsedRangeOrNullObject = () => o.used;
      },
    );
    await expect(createExcelWorkbook().readSelectedRows()).rejects.toThrow(/select at most 5,000/);
  });
});

describe("readBlock", () => {
  // Address and City under a header, a blank row after the third address, two more below it.
  const values = [
    ["Address", "City"],
    ["1 Main St", "Austin"],
    ["2 Main St", "Austin"],
    ["3 Main St", "Austin"],
    ["", ""],
    ["5 Main St", "Austin"],
    ["6 Main St", "Austin"],
  ];
  function sheetWithBlankRow(selection: Data, cells: Record<string, string>) {
    mockExcel(
      (o) => ({
        selection: { ...selection, worksheet: { name: "Sheet1" }, getTables: () => o.tables },
        tables: collection(),
        used: range("Sheet1!A1:B7", 0, 0, 7, 2),
        topLeft: { getSurroundingRegion: () => o.region },
        // Excel's region around A1 ends at the blank row.
        region: range("Sheet1!A1:B4", 0, 0, 4, 2),
        whole: { values, formulas: values },
        upToBlank: { values: values.slice(0, 4), formulas: values.slice(0, 4) },
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) => {
        o.tables.items = [];
        Object.assign(o.selection.worksheet, {
          getUsedRangeOrNullObject: () => o.used,
          getRangeByIndexes: byIndexes(o, { "0,0,1,1": "topLeft", ...cells }),
        });
      },
    );
  }

  test("wholeSelection reads every selected row past a blank row, which stays a row of its own", async () => {
    sheetWithBlankRow(range("Sheet1!A1:B7", 0, 0, 7, 2), { "0,0,7,2": "whole" });
    const block = await createExcelWorkbook().readBlock({ wholeSelection: true });
    expect(block.header).toEqual(["Address", "City"]);
    expect(block.headerRow).toBe(0);
    expect(block.firstRow).toBe(1);
    expect(block.rows).toEqual(values.slice(1).map((row) => row.map((v) => (v === "" ? null : v))));
    expect(block.selectedRows).toEqual([0, 1, 2, 3, 4, 5]);
    expect(block.selectedColumns).toEqual([0, 1]);
  });

  test("a whole-column selection is read to the used range's last row", async () => {
    sheetWithBlankRow(range("Sheet1!A:B", 0, 0, 1_048_576, 2), { "0,0,7,2": "whole" });
    const block = await createExcelWorkbook().readBlock({ wholeSelection: true });
    expect(block.selectedRows).toHaveLength(6);
    expect(block.rows[5]).toEqual(["6 Main St", "Austin"]);
  });

  test("without wholeSelection, the block around the first cell ends at the blank row", async () => {
    sheetWithBlankRow(range("Sheet1!A1:B7", 0, 0, 7, 2), { "0,0,4,2": "upToBlank" });
    const block = await createExcelWorkbook().readBlock();
    expect(block.rows).toHaveLength(3);
    expect(block.selectedRows).toEqual([0, 1, 2]);
  });
});

describe("insertTable and insertFormula", () => {
  function tableTarget(formulas: unknown[][], overlapping: unknown[] = []) {
    const add = jest.fn((..._args: unknown[]) => o.newTable);
    const o = mockExcel(
      (o) => ({
        active: { getResizedRange: (rows: number, columns: number) => (rows === 2 && columns === 1 ? o.target : undefined) },
        target: {
          address: "Sheet1!C2:D4",
          formulas,
          getTables: () => o.overlapping,
          worksheet: { tables: { add } },
          format: { autofitColumns: jest.fn() },
        },
        overlapping: collection(),
        tables: collection(),
        names: collection(),
        newTable: {},
      }),
      (o) => ({ getActiveCell: () => o.active, tables: o.tables, names: o.names }),
      (o) => {
        o.overlapping.items = overlapping;
        o.tables.items = [{ name: "Comps" }];
        o.names.items = [{ name: "Comps_2" }];
      },
    );
    return { o, add };
  }

  const rows = [
    ["name", "sold"],
    ["Alpha", '=HYPERLINK("http://x")'],
    ["'-escaped", null],
  ];

  test("writes the values (every text as text), makes a named, styled, fitted table", async () => {
    const { o, add } = tableTarget([
      ["", ""],
      ["", ""],
      ["", ""],
    ]);
    expect(await createExcelWorkbook().insertTable(rows, { name: "Comps" })).toBe("Sheet1!C2:D4");
    // Every text with Excel's text prefix (a text that begins with one keeps it: two).
    expect(o.target.values).toEqual([
      ["'name", "'sold"],
      ["'Alpha", '\'=HYPERLINK("http://x")'],
      ["''-escaped", ""],
    ]);
    expect(o.target.numberFormat).toEqual([
      ["General", "General"],
      ["General", "General"],
      ["General", "General"],
    ]);
    expect(add).toHaveBeenCalledWith("Sheet1!C2:D4", true);
    // "Comps" is a table and "Comps_2" a defined name already.
    expect(o.newTable.name).toBe("Comps_3");
    expect(o.newTable.style).toBe("TableStyleMedium2");
    expect(o.target.format.autofitColumns).toHaveBeenCalled();
  });

  test("a date or a rate is written as its number, with its number format on that cell", async () => {
    const { o } = tableTarget([
      ["", ""],
      ["", ""],
      ["", ""],
    ]);
    const dated = [
      ["sale_date", "cap_rate"],
      [
        { type: "Double" as const, basicValue: 46096, numberFormat: "yyyy-mm-dd" },
        { type: "Double" as const, basicValue: 0.0625, numberFormat: "0.00%" },
      ],
      ["", 0.5],
    ];
    await createExcelWorkbook().insertTable(dated, { name: "Comps" });
    expect(o.target.values).toEqual([
      ["'sale_date", "'cap_rate"],
      [46096, 0.0625],
      ["", 0.5],
    ]);
    expect(o.target.numberFormat).toEqual([
      ["General", "General"],
      ["yyyy-mm-dd", "0.00%"],
      ["General", "General"],
    ]);
  });

  test.each([
    [
      "a cell holds a value",
      [
        ["", ""],
        ["", 5],
        ["", ""],
      ],
      [],
    ],
    [
      "a cell holds a formula",
      [
        ["", ""],
        ["", ""],
        ["=A1", ""],
      ],
      [],
    ],
    [
      "the cells belong to a table",
      [
        ["", ""],
        ["", ""],
        ["", ""],
      ],
      [{ name: "Other" }],
    ],
  ])("refuses, writing nothing, when %s", async (_case, formulas, overlapping) => {
    const { o, add } = tableTarget(formulas, overlapping);
    const failure = createExcelWorkbook().insertTable(rows, { name: "Comps" });
    await expect(failure).rejects.toBeInstanceOf(TargetNotEmptyError);
    await expect(failure).rejects.toMatchObject({ address: "Sheet1!C2:D4" });
    expect(Array.isArray(o.target.values)).toBe(false);
    expect(Array.isArray(o.target.numberFormat)).toBe(false);
    expect(add).not.toHaveBeenCalled();
  });

  test("insertFormula writes into an empty active cell and refuses a taken one", async () => {
    let o = mockExcel(
      () => ({ cell: { address: "Sheet1!H1", formulas: [[""]] } }),
      (o) => ({ getActiveCell: () => o.cell }),
    );
    expect(await createExcelWorkbook().insertFormula(SEARCH)).toBe("Sheet1!H1");
    expect(o.cell.formulas).toEqual([[SEARCH]]);

    o = mockExcel(
      () => ({ cell: { address: "Sheet1!B2", formulas: [["spilled value"]] } }),
      (o) => ({ getActiveCell: () => o.cell }),
    );
    await expect(createExcelWorkbook().insertFormula(SEARCH)).rejects.toMatchObject({ name: "TargetNotEmptyError", address: "Sheet1!B2" });
    expect(o.cell.formulas).toEqual([["spilled value"]]);
  });
});

test("writeComparisonSheet: a uniquely named sheet, bold header row and first column, formats, note, frozen, active", async () => {
  const added: string[] = [];
  const o = mockExcel(
    (o) => ({
      sheets: collection({ add: (name: string) => (added.push(name), o.sheet) }),
      sheet: { activate: jest.fn(), freezePanes: { freezeAt: jest.fn() } },
      all: { format: { autofitColumns: jest.fn() } },
      headerRow: { format: { font: {} } },
      firstColumn: { format: { font: {} } },
      note: { format: { font: {} } },
    }),
    (o) => ({ worksheets: o.sheets }),
    (o) => {
      o.sheets.items = [{ name: "Comparison" }];
      o.sheet.getRangeByIndexes = byIndexes(o, { "0,0,3,3": "all", "0,0,1,3": "headerRow", "0,0,3,1": "firstColumn", "4,0,1,1": "note" });
    },
  );
  const rows = [
    ["Field", "Alpha", "Beta"],
    ["year_built", 1998, 2004],
    ["cap_rate", 0.065, null],
  ];
  expect(await createExcelWorkbook().writeComparisonSheet(rows, { title: "comparison", note: "=As of today" })).toBe("comparison (2)");
  expect(added).toEqual(["comparison (2)"]);
  expect(o.all.values).toEqual([
    ["'Field", "'Alpha", "'Beta"],
    ["'year_built", 1998, 2004],
    ["'cap_rate", 0.065, ""],
  ]);
  expect(o.all.numberFormat).toEqual([
    ["General", "General", "General"],
    ["General", "0", "0"],
    ["General", "#,##0.0##", "General"],
  ]);
  expect(o.headerRow.format.font.bold).toBe(true);
  expect(o.firstColumn.format.font.bold).toBe(true);
  expect(o.note.values).toEqual([["'=As of today"]]);
  expect(o.note.format.font.italic).toBe(true);
  expect(o.sheet.freezePanes.freezeAt).toHaveBeenCalledWith("A1");
  expect(o.sheet.activate).toHaveBeenCalled();
});

describe("findPropFormulas", () => {
  // A PROP formula; a text typed as '=PROP.X (its formula equals its value); a formula without
  // PROP; PROP only inside a string; a PROP call nested in another function.
  const formulas = [
    [SEARCH, "=PROP.X()", "=SUM(1,2)"],
    ['="PROP.SEARCH"', "", '=IFERROR(prop.market(A1,"rent"),0)'],
  ];
  const values = [
    ["id", "=PROP.X()", 3],
    ["PROP.SEARCH", "", 0],
  ];

  function sheetWith(o: Objects, used: string, chunk: string) {
    return { getUsedRangeOrNullObject: () => o[used], getRangeByIndexes: byIndexes(o, { "0,0,2,3": chunk }) };
  }

  test("on the active sheet: anchors that call PROP, with Excel's quoted sheet name", async () => {
    mockExcel(
      (o) => ({
        sheet: {},
        used: range("'Rent roll'!A1:C2", 0, 0, 2, 3),
        chunk: { formulas, values },
        sheets: collection({ getActiveWorksheet: () => o.sheet }),
      }),
      (o) => ({ worksheets: o.sheets }),
      (o) => Object.assign(o.sheet, sheetWith(o, "used", "chunk")),
    );
    expect(await createExcelWorkbook().findPropFormulas("sheet")).toEqual([
      { address: "'Rent roll'!A1", formula: SEARCH },
      { address: "'Rent roll'!C2", formula: formulas[1][2] },
    ]);
  });

  test("in the workbook: every sheet's used range, skipping empty sheets", async () => {
    mockExcel(
      () => ({
        first: { name: "Sheet1" },
        empty: { name: "Notes" },
        used: range("Sheet1!A1:C2", 0, 0, 2, 3),
        none: range("", 0, 0, 0, 0),
        chunk: { formulas, values },
        sheets: collection(),
      }),
      (o) => ({ worksheets: o.sheets }),
      (o) => {
        o.sheets.items = [o.empty, o.first];
        o.none.isNullObject = true;
        Object.assign(o.first, sheetWith(o, "used", "chunk"));
        o.empty.getUsedRangeOrNullObject = () => o.none;
      },
    );
    const found = await createExcelWorkbook().findPropFormulas("workbook");
    expect(found.map((cell) => cell.address)).toEqual(["Sheet1!A1", "Sheet1!C2"]);
  });

  test("in the selection: its anchors, and the formula of the spill it starts in", async () => {
    mockExcel(
      (o) => ({
        selection: range("Sheet1!C3:D4", 2, 2, 2, 2, { worksheet: {}, getCell: () => o.topLeft }),
        topLeft: { getSpillParentOrNullObject: () => o.anchor },
        anchor: { address: "Sheet1!A1", formulas: [[SEARCH]] },
        used: range("Sheet1!A1:D4", 0, 0, 4, 4),
        chunk: {
          formulas: [
            ["", ""],
            ["=PROP.CREDITS()", ""],
          ],
          values: [
            ["", ""],
            [990, ""],
          ],
        },
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) =>
        Object.assign(o.selection.worksheet, {
          getUsedRangeOrNullObject: () => o.used,
          getRangeByIndexes: byIndexes(o, { "2,2,2,2": "chunk" }),
        }),
    );
    expect(await createExcelWorkbook().findPropFormulas("selection")).toEqual([
      { address: "Sheet1!A1", formula: SEARCH },
      { address: "Sheet1!C4", formula: "=PROP.CREDITS()" },
    ]);
  });
});

test("recalculate calculates each cell, waits out #BUSY!, reports errors, missing sheets and the cells that changed value", async () => {
  let syncs = 0;
  const o = mockExcel(
    (o) => ({
      sheet: { name: "Sheet1", getRange: (a1: string) => (a1 === "A1" ? o.a1 : o.b9) },
      gone: { name: "" },
      a1: {
        ...range("Sheet1!A1", 0, 0, 1, 1),
        ...shown([["old"]]),
        valueTypes: [["String"]],
        calculate: jest.fn(),
        getSpillingToRangeOrNullObject: () => o.noSpill,
      },
      b9: {
        ...range("Sheet1!B9", 8, 1, 1, 1),
        ...shown([["#N/A"]]),
        valueTypes: [["Error"]],
        calculate: jest.fn(),
        getSpillingToRangeOrNullObject: () => o.noSpill,
      },
      noSpill: { ...range("", 0, 0, 0, 0), ...shown([]) },
      sheets: collection({ getItemOrNullObject: (name: string) => (name === "Sheet1" ? o.sheet : o.gone) }),
    }),
    (o) => ({ worksheets: o.sheets }),
    (o) => {
      o.gone.isNullObject = true;
      o.noSpill.isNullObject = true;
    },
  );
  // The second sync reads the values before; A1 then shows #BUSY! at the first read after
  // calculate() (the fourth sync), then its value.
  const root = (globalThis as any).Excel;
  const run = root.run;
  root.run = (batch: (c: any) => Promise<unknown>) =>
    run(async (context: any) => {
      const sync = context.sync.bind(context);
      context.sync = async () => {
        await sync();
        syncs++;
        if (syncs === 3) Object.assign(o.a1, { ...shown([["#BUSY!"]]), valueTypes: [["Error"]] });
        if (syncs === 4) Object.assign(o.a1, { ...shown([["id"]]), valueTypes: [["String"]] });
      };
      return batch(context);
    });
  const cells = [
    { address: "Sheet1!A1", formula: SEARCH },
    { address: "Sheet1!B9", formula: "=PROP.MARKET(1)" },
    { address: "'Old sheet'!A1", formula: "=PROP.CREDITS()" },
  ];
  expect(await createExcelWorkbook().recalculate(cells)).toEqual([
    {
      ...cells[0],
      error: null,
      changes: [{ address: "Sheet1!A1", kind: "changed", row: "", column: "", before: "old", after: "id", change: "" }],
      marks: ["Sheet1!A1"],
    },
    { ...cells[1], error: "#N/A", changes: [], marks: [] },
    { ...cells[2], error: "#REF!", changes: [], marks: [] },
  ]);
  expect(o.a1.calculate).toHaveBeenCalledTimes(1);
  expect(o.b9.calculate).toHaveBeenCalledTimes(1);
  expect(await createExcelWorkbook().recalculate([])).toEqual([]);
});

test("recalculate reports a change as the cell shows it (the value's own format), with the labels at the start of its row and the top of its column", async () => {
  const rate = (v: number) => ({ type: "FormattedNumber", basicValue: v, numberFormat: "0.00%" });
  let syncs = 0;
  const o = mockExcel(
    (o) => ({
      sheet: { name: "Model", getRange: () => o.d5, getRangeByIndexes: byIndexes(o, { "4,0,1,3": "left", "0,3,4,1": "above" }) },
      sheets: collection({ getItemOrNullObject: () => o.sheet }),
      d5: {
        ...range("Model!D5", 4, 3, 1, 1),
        ...shown([[0.0629]], [["6.29%"]], [[rate(0.0629)]]),
        valueTypes: [["Double"]],
        calculate: jest.fn(),
        getSpillingToRangeOrNullObject: () => o.noSpill,
      },
      noSpill: { ...range("", 0, 0, 0, 0), ...shown([]) },
      // A5:C5: the row's label, then other figures of the row; D1:D4: the column's header, a gap, then figures.
      left: shown([["TX industrial vacancy", 0.05, 0.06]]),
      above: shown([["Q3 2026"], [""], ["2026"], [0.061]]),
    }),
    (o) => ({ worksheets: o.sheets }),
    (o) => (o.noSpill.isNullObject = true),
  );
  const root = (globalThis as any).Excel;
  const run = root.run;
  root.run = (batch: (c: any) => Promise<unknown>) =>
    run(async (context: any) => {
      const sync = context.sync.bind(context);
      context.sync = async () => {
        await sync();
        if (++syncs === 3) Object.assign(o.d5, shown([[0.0784]], [["7.84%"]], [[rate(0.0784)]]));
      };
      return batch(context);
    });
  const [outcome] = await createExcelWorkbook().recalculate([
    { address: "Model!D5", formula: '=PROP.MARKET("TX","industrial","vacancy_rate")' },
  ]);
  expect(outcome.changes).toEqual([
    {
      address: "Model!D5",
      kind: "changed",
      row: "TX industrial vacancy",
      column: "2026",
      before: "6.29%",
      after: "7.84%",
      change: "+155 bps",
    },
  ]);
  expect(outcome.marks).toEqual(["Model!D5"]);
});

test("appendRows makes the sheet with its bold, frozen header, then appends under what it holds, text as text", async () => {
  const added: string[] = [];
  const rows = [[{ type: "Double" as const, basicValue: 46352.5, numberFormat: "yyyy-mm-dd hh:mm" }, "snap_1", 2, "=x"]];
  // A new sheet: the header goes to row 1, the rows under it.
  let o = mockExcel(
    (o) => ({
      sheets: collection({ getItemOrNullObject: () => o.missing, add: (name: string) => (added.push(name), o.sheet) }),
      missing: {},
      sheet: { freezePanes: { freezeRows: jest.fn() } },
      used: range("", 0, 0, 0, 0),
      header: { format: { font: {} } },
      target: range("'Refresh log'!A2:D2", 1, 0, 1, 4),
      all: { format: { autofitColumns: jest.fn() } },
    }),
    (o) => ({ worksheets: o.sheets }),
    (o) => {
      o.missing.isNullObject = true;
      o.used.isNullObject = true;
      o.sheet.getUsedRangeOrNullObject = () => o.used;
      o.sheet.getRangeByIndexes = byIndexes(o, { "0,0,1,4": "header", "1,0,1,4": "target", "0,0,2,4": "all" });
    },
  );
  expect(await createExcelWorkbook().appendRows("Refresh log", ["At", "Snapshot", "Credits", "Cell"], rows)).toBe("'Refresh log'!A2:D2");
  expect(added).toEqual(["Refresh log"]);
  expect(o.header.values).toEqual([["'At", "'Snapshot", "'Credits", "'Cell"]]);
  expect(o.header.format.font.bold).toBe(true);
  expect(o.sheet.freezePanes.freezeRows).toHaveBeenCalledWith(1);
  expect(o.target.values).toEqual([[46352.5, "'snap_1", 2, "'=x"]]);
  expect(o.target.numberFormat).toEqual([["yyyy-mm-dd hh:mm", "General", "General", "General"]]);

  // The sheet is there with 7 rows: the next refresh goes under them, and the header is not written again.
  o = mockExcel(
    (o) => ({
      sheets: collection({ getItemOrNullObject: () => o.sheet }),
      sheet: {},
      used: range("'Refresh log'!A1:I7", 0, 0, 7, 9),
      target: range("'Refresh log'!A8:D8", 7, 0, 1, 4),
      all: { format: { autofitColumns: jest.fn() } },
    }),
    (o) => ({ worksheets: o.sheets }),
    (o) => {
      o.sheet.getUsedRangeOrNullObject = () => o.used;
      o.sheet.getRangeByIndexes = byIndexes(o, { "7,0,1,4": "target", "0,0,8,4": "all" });
    },
  );
  expect(await createExcelWorkbook().appendRows("Refresh log", ["At", "Snapshot", "Credits", "Cell"], rows)).toBe("'Refresh log'!A8:D8");
  expect(o.target.values).toEqual([[46352.5, "'snap_1", 2, "'=x"]]);
});

describe("freezeSelection", () => {
  function frozenSetup(existingComment: boolean) {
    const add = jest.fn();
    const reply = jest.fn();
    const o = mockExcel(
      (o) => ({
        selection: range("Sheet1!A1:B1", 0, 0, 1, 2, { worksheet: {}, getCell: () => o.topLeft }),
        topLeft: { getSpillParentOrNullObject: () => o.noParent },
        noParent: { address: "", formulas: [[""]] },
        used: range("Sheet1!A1:D6", 0, 0, 6, 4),
        chunk: { formulas: [[SEARCH, "id"]], values: [["id", "id"]] },
        cell: {
          address: "Sheet1!A1",
          values: [["id"]],
          valueTypes: [["String"]],
          numberFormat: [["General"]],
          valuesAsJson: [[{ type: "String", basicValue: "id" }]],
          clear: jest.fn(),
          getSpillingToRangeOrNullObject: () => o.spill,
        },
        spill: {
          address: "Sheet1!A1:B3",
          values: [
            ["id", "size"],
            ["=cp_1", 1200],
            ["", 0.0548],
          ],
          valueTypes: [
            ["String", "String"],
            ["String", "Double"],
            ["Empty", "Double"],
          ],
          // The cells' own formats: the rate's 0.00% is the value's, as a PROP function returns it.
          numberFormat: [
            ["General", "General"],
            ["General", "#,##0"],
            ["General", "General"],
          ],
          valuesAsJson: [
            [
              { type: "String", basicValue: "id" },
              { type: "String", basicValue: "size" },
            ],
            [
              { type: "String", basicValue: "=cp_1" },
              { type: "Double", basicValue: 1200 },
            ],
            [
              { type: "Empty", basicValue: "" },
              { type: "FormattedNumber", basicValue: 0.0548, numberFormat: "0.00%" },
            ],
          ],
        },
        comments: collection(),
        comment: { id: "c1", replies: { add: reply }, getLocation: () => o.location },
        location: { address: "Sheet1!A1" },
      }),
      (o) => ({ getSelectedRange: () => o.selection, comments: { add } }),
      (o) => {
        o.noParent.isNullObject = true;
        o.comments.items = existingComment ? [o.comment] : [];
        Object.assign(o.selection.worksheet, {
          getUsedRangeOrNullObject: () => o.used,
          getRangeByIndexes: byIndexes(o, { "0,0,1,2": "chunk" }),
          getRange: (a1: string) => (a1 === "A1" ? o.cell : undefined),
          comments: o.comments,
        });
      },
    );
    return { o, add, reply };
  }

  test("clears the formula, writes its spill back as values (text kept as text), leaves a comment", async () => {
    const { o, add } = frozenSetup(false);
    const frozen = await createExcelWorkbook().freezeSelection((cell) => `Frozen: ${cell.formula}`);
    expect(frozen).toEqual([{ address: "Sheet1!A1", formula: SEARCH, valuesAddress: "Sheet1!A1:B3" }]);
    expect(o.cell.clear).toHaveBeenCalledWith("Contents");
    expect(o.spill.values).toEqual([
      ["'id", "'size"],
      ["'=cp_1", 1200],
      ["", 0.0548],
    ]);
    expect(add).toHaveBeenCalledWith("Sheet1!A1", `Frozen: ${SEARCH}`);
  });

  test("each frozen value keeps the format it was shown in: the value's own (a rate as 0.00%), else the cell's", async () => {
    const { o } = frozenSetup(false);
    await createExcelWorkbook().freezeSelection(() => "Frozen");
    expect(o.spill.numberFormat).toEqual([
      ["General", "General"],
      ["General", "#,##0"],
      ["General", "0.00%"],
    ]);
  });

  test("refuses, changing nothing, while a formula still shows #BUSY!", async () => {
    const { o, add } = frozenSetup(false);
    Object.assign(o.cell, { values: [["#BUSY!"]], valueTypes: [["Error"]] });
    await expect(createExcelWorkbook().freezeSelection(() => "Frozen")).rejects.toThrow(/Sheet1!A1 is still calculating/);
    expect(o.cell.clear).not.toHaveBeenCalled();
    expect(add).not.toHaveBeenCalled();
    // The spill still holds its own values: none were written over it (a write prefixes text with ').
    (o.spill as any).load("values");
    expect(o.spill.values).toEqual([
      ["id", "size"],
      ["=cp_1", 1200],
      ["", 0.0548],
    ]);
  });

  test("adds to a comment already on the cell instead of failing on it", async () => {
    const { add, reply } = frozenSetup(true);
    await createExcelWorkbook().freezeSelection(() => "Frozen");
    expect(reply).toHaveBeenCalledWith("Frozen");
    expect(add).not.toHaveBeenCalled();
  });
});

describe("markCells and clearMarks", () => {
  /** Sheet1 with the user's custom format, a colour scale and a mark of an earlier refresh; "Gone" was deleted. */
  function marksSetup() {
    const added: Array<{ address: string; type: string; format: any }> = [];
    const o = mockExcel(
      (o) => ({
        worksheets: collection({ getItemOrNullObject: (name: string) => (name === "Sheet1" ? o.sheet1 : o.gone) }),
        sheet1: {
          name: "Sheet1",
          getRange: (a1?: string) =>
            a1 === undefined
              ? { conditionalFormats: o.formats }
              : {
                  conditionalFormats: {
                    add: (type: string) => {
                      const format = { custom: { rule: {}, format: { fill: {} } } };
                      added.push({ address: a1, type, format });
                      return format;
                    },
                  },
                },
        },
        gone: {},
        formats: collection(),
        userFormat: { type: "Custom", custom: { rule: { formula: "=LEN(A1)>40" } }, delete: jest.fn() },
        oldMark: { type: "Custom", custom: { rule: { formula: MARK_RULE } }, delete: jest.fn() },
        scale: { type: "ColorScale", delete: jest.fn() },
      }),
      (o) => ({ worksheets: o.worksheets }),
      (o) => {
        o.gone.isNullObject = true;
        o.worksheets.items = [o.sheet1];
        o.formats.items = [o.userFormat, o.oldMark, o.scale];
      },
    );
    return { o, added };
  }

  test("marks changed cells with one conditional format per rectangle, after clearing the earlier marks only", async () => {
    const { o, added } = marksSetup();
    const marked = await createExcelWorkbook().markCells(["Sheet1!C4", "Sheet1!C5", "Sheet1!D4", "Sheet1!D5", "Sheet1!F9", "Gone!A1"]);
    expect(marked).toBe(5);
    expect(o.oldMark.delete).toHaveBeenCalledTimes(1);
    expect(o.userFormat.delete).not.toHaveBeenCalled();
    expect(o.scale.delete).not.toHaveBeenCalled();
    expect(added.map((a) => [a.address, a.type])).toEqual([
      ["C4:D5", "Custom"],
      ["F9", "Custom"],
    ]);
    for (const { format } of added)
      expect(format.custom).toEqual({ rule: { formula: MARK_RULE }, format: { fill: { color: CHANGED_FILL } } });
  });

  test("clearMarks removes the add-in's marks and says how many there were", async () => {
    const { o } = marksSetup();
    expect(await createExcelWorkbook().clearMarks()).toBe(1);
    expect(o.oldMark.delete).toHaveBeenCalledTimes(1);
    expect(o.userFormat.delete).not.toHaveBeenCalled();
  });
});

describe("readCellSource", () => {
  function cellSetup(
    own: { formula: unknown; value: unknown; address: string; row: number; column: number },
    withSpill: boolean,
    note: string | null,
  ) {
    return mockExcel(
      (o) => ({
        selection: { getCell: () => o.cell },
        cell: range(own.address, own.row, own.column, 1, 1, {
          formulas: [[own.formula]],
          values: [[own.value]],
          worksheet: {},
          getSpillParentOrNullObject: () => o.parent,
        }),
        parent: range("Sheet1!A1", 0, 0, 1, 1, { formulas: [[SEARCH]], getSpillingToRangeOrNullObject: () => o.spill }),
        spill: range("Sheet1!A1:D6", 0, 0, 6, 4),
        used: range("Sheet1!A1:E6", 0, 0, 6, 5),
        header: { values: [["id", "name", "address", "building_area_sqft"]] },
        row: { values: [["cp_1", "Dock 4", "1 Main St", 12500]] },
        comments: collection(),
        comment: { content: note ?? "", getLocation: () => o.location },
        location: { address: own.address },
      }),
      (o) => ({ getSelectedRange: () => o.selection }),
      (o) => {
        o.parent.isNullObject = !withSpill;
        o.comments.items = note ? [o.comment] : [];
        Object.assign(o.cell.worksheet, {
          getUsedRangeOrNullObject: () => o.used,
          getRangeByIndexes: byIndexes(o, { "0,0,1,4": "header", [`${own.row},0,1,4`]: "row" }),
          comments: o.comments,
        });
      },
    );
  }

  test("a value in a spill: the anchor's formula, the cell's place in the spill, the header and the cell's row, the free column", async () => {
    cellSetup({ formula: 12500, value: 12500, address: "Sheet1!D3", row: 2, column: 3 }, true, null);
    await expect(createExcelWorkbook().readCellSource()).resolves.toEqual({
      address: "Sheet1!D3",
      formula: SEARCH,
      anchor: "Sheet1!A1",
      row: 2,
      column: 3,
      value: 12500,
      header: ["id", "name", "address", "building_area_sqft"],
      rowValues: ["cp_1", "Dock 4", "1 Main St", 12500],
      note: null,
      freeColumn: 5,
      sheetRow: 2,
      sheet: "Sheet1",
    });
  });

  test("a frozen value: no formula, and the comment on the cell", async () => {
    const note = 'Frozen as values on 28 Nov 2026, 05:00 UTC by Property Intelligence.\nFormula: =PROP.MARKET("TX","office")';
    cellSetup({ formula: 0.12, value: 0.12, address: "Sheet1!G9", row: 8, column: 6 }, false, note);
    const cell = await createExcelWorkbook().readCellSource();
    expect(cell).toMatchObject({ address: "Sheet1!G9", formula: null, anchor: null, header: null, rowValues: null, note, freeColumn: 7 });
  });
});
