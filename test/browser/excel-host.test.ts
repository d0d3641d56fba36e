// The stand-in Excel host end to end: the built task pane page (with functions.js and office.js)
// served by the real service, in Chromium, with the stand-in installed before the page's
// scripts. PROP formulas calculate through the functions the page associated, against the
// service with a real key; then each WorkbookPort method of the add-in's excel-workbook.ts runs
// once in the page against the stand-in. With UPDATE_SCREENSHOTS=1 it also writes
// docs/screenshots/excel-host.png (pane and sheet side by side).
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { SETTING_KEYS } from "../../src/shared/setting-keys";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { startService } from "../helpers/service";
import { launchChromium, offlineContext } from "./chromium";
import { type ExcelHost, type PagePort, installExcelHost } from "./excel-host/host";

const SEARCH = '=PROP.SEARCH("warehouse","TX","limit=5")';

let app: FastifyInstance;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let host: ExcelHost;
let blocked: string[];
const problems: string[] = [];

beforeAll(async () => {
  await ensureAddinBuild();
  const built = await startService({ addinDir: DIST, email: "excel-host@example.com" });
  app = built.app;
  const key = built.key;
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await launchChromium();
  ({ context, blocked } = await offlineContext(browser, { viewport: { width: 1280, height: 720 } }));
  page = await context.newPage();
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && problems.push(`${r.status()} ${r.url()}`));
  host = await installExcelHost(page, {
    functionsJson: path.join(DIST, "functions.json"),
    storage: { [SETTING_KEYS.apiKey]: key },
    showGrid: true,
  });
  await page.goto(`${base}/addin/taskpane.html`);
  await page.waitForFunction(() =>
    (window as unknown as { __excelHost: { functions(): string[] } }).__excelHost.functions().includes("SEARCH"),
  );
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.close();
});

afterEach(() => {
  expect(problems).toEqual([]);
  expect(blocked).toEqual([]);
});

test("functions.js associates through the stand-in, whatever office.js puts on CustomFunctions", async () => {
  const ids = await host.functions();
  expect(ids).toEqual(expect.arrayContaining(["SEARCH", "MARKET", "PROPERTY"]));
  // Outside Office, office.js assigns its own CustomFunctions.associate; the stand-in keeps its own.
  expect(await host.ignoredAssociations()).not.toEqual([]);
});

test("=PROP.SEARCH spills a header row, five records and the N-of-M footer of a cut list; a bad option shows #VALUE! with its message", async () => {
  await host.setFormula("Sheet1", "A1", SEARCH);
  expect((await host.cellInfo("Sheet1", "A1")).error).toBe("#BUSY!");
  await host.waitForCalculation();
  const anchor = await host.cellInfo("Sheet1", "A1");
  expect(anchor.error).toBeNull();
  expect(anchor.spillRange).toMatch(/^Sheet1!A1:[A-Z]+7$/);
  const spill = await host.cells(null, anchor.spillRange!);
  expect(spill).toHaveLength(7);
  expect(spill[0]).toContain("id");
  for (const row of spill.slice(1, 6)) expect(row[spill[0].indexOf("id")]).toMatch(/\S/);
  expect(spill[6][0]).toMatch(/^5 of \d+ rows \(limit=5\)/);
  expect((await host.cells(null, "A8"))[0][0]).toBe("");

  await host.setFormula("Sheet1", "A20", '=PROP.SEARCH("warehouse","TX","colour=red")');
  await host.waitForCalculation();
  const bad = await host.cellInfo("Sheet1", "A20");
  expect(bad.error).toBe("#VALUE!");
  expect(bad.message).toMatch(/colour/);

  // A value typed into the spill area blocks it; clearing it lets the spill back.
  await host.setCells("Sheet1", "B3", [["in the way"]]);
  expect((await host.cellInfo("Sheet1", "A1")).error).toBe("#SPILL!");
  await host.setCells("Sheet1", "B3", [[null]]);
  expect((await host.cellInfo("Sheet1", "A1")).spillRange).toBe(anchor.spillRange);
});

describe("WorkbookPort through excel-workbook.ts, in the page", () => {
  let port: PagePort;
  let spillRange: string;

  beforeAll(async () => {
    port = await host.workbookPort();
    spillRange = (await host.cellInfo("Sheet1", "A1")).spillRange!;
  });

  test("readSelectedRows follows a spill to its header and reads whole rows", async () => {
    await host.select("Sheet1!B3:B4");
    const read = await port.readSelectedRows();
    // Empty cells come back as null, the pane's "no value".
    const spill = (await host.cells(null, spillRange)).map((row) => row.map((v) => (v === "" ? null : v)));
    expect(read).toEqual({
      address: "Sheet1!B3:B4",
      header: spill[0],
      rows: spill.slice(2, 4),
      source: `the spill of ${SEARCH} at Sheet1!A1`,
    });
  });

  test("findPropFormulas and recalculate", async () => {
    await host.select("Sheet1!C4");
    expect(await port.findPropFormulas("selection")).toEqual([{ address: "Sheet1!A1", formula: SEARCH }]);
    const onSheet = await port.findPropFormulas("sheet");
    expect(onSheet.map((cell) => cell.address)).toEqual(["Sheet1!A1", "Sheet1!A20"]);
    const before = await host.invocations();
    const outcomes = await port.recalculate(onSheet);
    expect(outcomes.map((o) => o.error)).toEqual([null, "#VALUE!"]);
    expect(await host.invocations()).toBe(before + 2);

    // The ribbon's Refresh: a full recalculation runs every formula in the workbook again.
    await page.evaluate(() => (window as unknown as { __recalculateWorkbook(): Promise<void> }).__recalculateWorkbook());
    await host.waitForCalculation();
    expect(await host.invocations()).toBe(before + 4);
    expect((await host.cellInfo("Sheet1", "A1")).spillRange).toBe(spillRange);
  });

  test("insertTable writes text as text, and refuses a target that is not empty", async () => {
    await host.select("Sheet1!A10");
    // Text is the data's own text: the edge writes every text as text, so each cell shows it exactly.
    const rows = [
      ["name", "note"],
      ["Alpha", '=HYPERLINK("http://x")'],
      ["'70s warehouse", 5],
    ];
    expect(await port.insertTable(rows, { name: "Comps: TX" })).toBe("Sheet1!A10:B12");
    expect(await host.tables()).toEqual([{ name: "Comps_TX", address: "Sheet1!A10:B12", style: "TableStyleMedium2" }]);
    expect(await host.cellInfo("Sheet1", "B11")).toMatchObject({ formula: null, value: '=HYPERLINK("http://x")', prefixed: true });
    expect((await host.cells(null, "A12:B12"))[0]).toEqual(["'70s warehouse", 5]);

    await host.select("Sheet1!C2");
    await expect(port.insertTable(rows, { name: "Again" })).rejects.toMatchObject({ name: "TargetNotEmptyError", address: "Sheet1!C2:D4" });
    expect(await host.tables()).toHaveLength(1);
  });

  test("insertFormula writes into an empty active cell only", async () => {
    await host.select("Sheet1!A30");
    expect(await port.insertFormula('=PROP.SEARCH("office","TX","limit=2")')).toBe("Sheet1!A30");
    await host.waitForCalculation();
    expect((await host.cellInfo("Sheet1", "A30")).spillRange).toMatch(/^Sheet1!A30:[A-Z]+33$/);
    await host.select("Sheet1!A31");
    await expect(port.insertFormula("=PROP.CREDITS()")).rejects.toMatchObject({ name: "TargetNotEmptyError", address: "Sheet1!A31" });
  });

  test("writeComparisonSheet adds a formatted, frozen, active sheet", async () => {
    const rows = [
      ["Field", "Alpha", "Beta"],
      ["year_built", 1998, 2004],
      ["cap_rate", 0.065, 0.07],
    ];
    const name = await port.writeComparisonSheet(rows, { title: "Compare: 2 properties", note: "As of today" });
    expect(name).toBe("Compare 2 properties");
    const sheet = (await host.sheets()).find((s) => s.name === name)!;
    expect(sheet).toMatchObject({ active: true, frozenAt: "'Compare 2 properties'!A1" });
    expect(await host.cells(name, "A1:C3")).toEqual(rows);
    expect(await host.cellInfo(name, "B1")).toMatchObject({ bold: true });
    expect(await host.cellInfo(name, "A3")).toMatchObject({ bold: true });
    expect(await host.cellInfo(name, "B3")).toMatchObject({ bold: false, numberFormat: "#,##0.0##" });
    expect(await host.cellInfo(name, "A5")).toMatchObject({ value: "As of today", italic: true });
    await shot("excel-host");
  });

  test("freezeSelection replaces the formula and its spill by values, with a comment", async () => {
    await host.select("Sheet1!B2");
    const before = await host.cells(null, spillRange);
    await shot("excel-host-spill");
    const frozen = await port.freezeSelection("Frozen: {formula}");
    expect(frozen).toEqual([{ address: "Sheet1!A1", formula: SEARCH, valuesAddress: spillRange }]);
    expect(await host.cells(null, spillRange)).toEqual(before);
    expect(await host.cellInfo("Sheet1", "A1")).toMatchObject({ formula: null, spillParent: null });
    expect(await host.comments()).toEqual([{ address: "Sheet1!A1", content: `Frozen: ${SEARCH}`, replies: [] }]);
    expect(await port.findPropFormulas("sheet")).toEqual([
      { address: "Sheet1!A20", formula: '=PROP.SEARCH("warehouse","TX","colour=red")' },
      { address: "Sheet1!A30", formula: '=PROP.SEARCH("office","TX","limit=2")' },
    ]);
  });
});

async function shot(name: string) {
  const dir = process.env.UPDATE_SCREENSHOTS === "1" ? path.join(__dirname, "../../docs/screenshots") : process.env.EXCEL_HOST_SHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`) });
}
