// "Start a model" in the pane, without Excel: the subject from an id, an address or the selected
// cell; the cost line; sheet names that never land on existing sheets; and the insert, which
// writes the template's sheets and asks for a chart per chart spec.
import { MODEL_SHEET_TITLES, modelCost, modelTemplate } from "../../src/contract/model-template";
import type { PropertyMatch } from "../../src/contract/property-match";
import { repinFormula } from "../../src/taskpane/formula-pin";
import {
  SubjectError,
  findSubject,
  freeSuffix,
  insertModel,
  modelCostText,
  modelXlsxUrl,
  sheetClashes,
} from "../../src/taskpane/start-model";
import { type ChartSpec, type NewSheet, SheetExistsError, type SelectedRows, type WorkbookPort } from "../../src/taskpane/workbook-types";

const matchOf = (over: Partial<PropertyMatch>): PropertyMatch =>
  ({
    ref: null,
    status: "unmatched",
    property_id: null,
    parcel_id: null,
    matched_address: null,
    score: null,
    match: null,
    candidates: [],
    detail: null,
    ...over,
  }) as PropertyMatch;

function sources(over: { match?: PropertyMatch; selection?: Partial<SelectedRows> } = {}) {
  const asked: string[] = [];
  return {
    asked,
    match: async (ask: { address: string }) => {
      asked.push(ask.address);
      return over.match ?? matchOf({});
    },
    readSelectedRows: async (): Promise<SelectedRows> => ({
      address: "Sheet1!A2",
      header: null,
      rows: [],
      source: "Sheet1!A2",
      ...over.selection,
    }),
  };
}

describe("the subject", () => {
  test("a property id is taken as typed (trimmed); anything else is refused before any request", async () => {
    const s = sources();
    await expect(findSubject({ kind: "id", text: " cp_00001ab " }, s)).resolves.toEqual({
      kind: "subject",
      subject: { propertyId: "cp_00001ab" },
    });
    await expect(findSubject({ kind: "id", text: "co_00001ab" }, s)).rejects.toThrow(SubjectError);
    expect(s.asked).toEqual([]);
  });

  test("an address is matched: a unique match is the subject, an ambiguous one offers its candidates, none says why", async () => {
    const matched = sources({
      match: matchOf({ status: "matched", property_id: "cp_0000abc", matched_address: "1 Main St, Austin, TX 78701" }),
    });
    await expect(findSubject({ kind: "address", text: "1 main st  austin tx" }, matched)).resolves.toEqual({
      kind: "subject",
      subject: { propertyId: "cp_0000abc", label: "1 Main St, Austin, TX 78701" },
    });
    expect(matched.asked).toEqual(["1 main st austin tx"]);
    const candidates = [
      { property_id: "cp_a", address: "1 Main St, Austin, TX 78701", score: 0.9 },
      { property_id: "cp_b", address: "1 Main St, Austin, TX 78702", score: 0.8 },
    ];
    await expect(
      findSubject({ kind: "address", text: "1 Main St, Austin" }, sources({ match: matchOf({ status: "ambiguous", candidates }) })),
    ).resolves.toEqual({
      kind: "choose",
      address: "1 Main St, Austin",
      candidates,
    });
    await expect(
      findSubject(
        { kind: "address", text: "99999 Nowhere Rd, Austin, TX" },
        sources({ match: matchOf({ detail: "No property numbered 99999." }) }),
      ),
    ).rejects.toThrow("No property numbered 99999.");
    await expect(findSubject({ kind: "address", text: "  " }, sources())).rejects.toThrow(SubjectError);
  });

  test("the selected cell: its one property id, an address in it, or a message saying what to select", async () => {
    const row = (rows: SelectedRows["rows"], header: SelectedRows["header"] = null) => sources({ selection: { rows, header } });
    await expect(findSubject({ kind: "selection" }, row([["Tower", "cp_0000xyz", 12]]))).resolves.toMatchObject({
      subject: { propertyId: "cp_0000xyz" },
    });
    const table = row(
      [
        ["cp_1", "cp_9"],
        ["cp_2", "cp_9"],
      ],
      ["property_id", "other"],
    );
    await expect(findSubject({ kind: "selection" }, table)).rejects.toThrow(/2 property ids/);
    const address = row([["623 Washington Blvd, Austin, TX 78721"]]);
    const m = {
      ...address,
      match: async () => matchOf({ status: "matched", property_id: "cp_0000abc", matched_address: "623 Washington Blvd" }),
    };
    await expect(findSubject({ kind: "selection" }, m)).resolves.toMatchObject({ subject: { propertyId: "cp_0000abc" } });
    await expect(findSubject({ kind: "selection" }, row([["Name"]]))).rejects.toThrow(/holds no property id/);
  });
});

describe("sheet names", () => {
  test("a clash is found whatever the case, and the free suffix skips every clash", () => {
    expect(sheetClashes(["Sheet1"])).toEqual([]);
    expect(sheetClashes(["model - profile", "Sheet1"])).toEqual([MODEL_SHEET_TITLES.profile]);
    expect(freeSuffix(["Model - Profile"])).toBe(2);
    expect(freeSuffix(["Model - Profile", "Model - History 2", "Model - Market 3"])).toBe(4);
    expect(sheetClashes(["Model - Profile"], 2)).toEqual([]);
  });

  test("every name fits Excel's 31 characters, with a suffix too", () => {
    const names = modelTemplate({ propertyId: "cp_1" }, {
      ...Object.fromEntries(Object.entries(MODEL_SHEET_TITLES).map(([k, v]) => [k, `${v} 99`])),
    } as typeof MODEL_SHEET_TITLES).sheets.map((s) => s.name);
    expect(names.every((n) => n.length <= 31 && !/[\\/?*[\]:]/.test(n))).toBe(true);
  });
});

describe("the insert", () => {
  function fakeWorkbook(existing: string[] = []) {
    const added: NewSheet[] = [];
    const charts: ChartSpec[] = [];
    const workbook = {
      sheetNames: async () => [...existing, ...added.map((s) => s.name)],
      insertSheets: async (sheets: NewSheet[]) => {
        const clash = sheets.filter((s) => existing.includes(s.name)).map((s) => s.name);
        if (clash.length) throw new SheetExistsError(clash);
        added.push(...sheets);
        return sheets.map((s) => s.name);
      },
      insertChart: async (spec: ChartSpec) => {
        charts.push(spec);
        return `Chart ${charts.length}`;
      },
    } as unknown as WorkbookPort;
    return { workbook, added, charts };
  }

  test("writes the template's sheets, formulas as formulas, then asks for its three history charts", async () => {
    const { workbook, added, charts } = fakeWorkbook();
    const done = await insertModel(workbook, { propertyId: "cp_0000abc" }, null);
    const template = modelTemplate({ propertyId: "cp_0000abc" });
    expect(done.sheets).toEqual(template.sheets.map((s) => s.name));
    const written = template.sheets.map((s) =>
      s.cells.map((row) => row.map((c) => (c !== null && typeof c === "object" ? { formula: c.formula } : c))),
    );
    expect(added.map((s) => s.cells)).toEqual(written);
    expect(charts).toEqual(template.sheets.flatMap((s) => s.charts));
    expect(charts.map((c) => [c.kind, c.anchor, c.yColumns])).toEqual([
      ["line", "'Model - History'!A8", [1]],
      ["line", "'Model - History'!A8", [2]],
      ["line", "'Model - History'!A8", [3]],
    ]);
    expect(done.chartProblems).toEqual([]);
  });

  test("with a suffix, every sheet and every cross-sheet reference takes it; an existing sheet is refused, nothing added", async () => {
    const { workbook, added } = fakeWorkbook(["Model - Profile"]);
    await expect(insertModel(workbook, { propertyId: "cp_1" }, null)).rejects.toThrow(SheetExistsError);
    expect(added).toEqual([]);
    await insertModel(workbook, { propertyId: "cp_1" }, 2);
    const formulas = added.flatMap((s) => s.cells.flat()).filter((c): c is { formula: string } => c !== null && typeof c === "object");
    expect(added.map((s) => s.name)).toEqual(Object.values(MODEL_SHEET_TITLES).map((t) => `${t} 2`));
    const sheetRefs = formulas.flatMap((f) => [...f.formula.matchAll(/'([^']+)'!/g)].map((m) => m[1]));
    expect(sheetRefs.length).toBeGreaterThan(20);
    expect(sheetRefs.every((name) => name.endsWith(" 2"))).toBe(true);
  });

  test("a chart the workbook cannot make is reported; the sheets stay", async () => {
    const { workbook, added } = fakeWorkbook();
    workbook.insertChart = async () => {
      throw new Error("no charts here");
    };
    const done = await insertModel(workbook, { propertyId: "cp_1" }, null);
    expect(added).toHaveLength(5);
    expect(done.chartProblems).toEqual(["no charts here", "no charts here", "no charts here"]);
  });
});

test("the cost line is modelCost's, sheet by sheet, with the credits left", () => {
  const template = modelTemplate({ propertyId: "cp_1" });
  const text = modelCostText(template, 1234);
  expect(text).toContain(`About ${modelCost(template).credits} credits for the first calculation (6 requests)`);
  expect(text).toContain("Profile 1, Sale comps 2, Market 3, History 2, Owner & tenants 3.");
  expect(text).toContain("You have 1,234 left.");
});

test("pinning the inserted model pins every PROP call, subject references and all", () => {
  for (const sheet of modelTemplate({ propertyId: "cp_1" }).sheets)
    for (const cell of sheet.cells.flat())
      if (cell !== null && typeof cell === "object" && cell.formula.includes("PROP.")) {
        const pinned = repinFormula(cell.formula, "snap_abc");
        expect(pinned.match(/as_of=snap_abc/g)).toHaveLength(cell.formula.match(/PROP\./g)!.length);
        expect(repinFormula(pinned, null)).toBe(cell.formula);
      }
});

test("the .xlsx link", () => {
  expect(modelXlsxUrl("https://svc.example/", "cp_0001")).toBe("https://svc.example/templates/underwriting-model.xlsx?property_id=cp_0001");
});
