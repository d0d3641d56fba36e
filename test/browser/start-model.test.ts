// "Start a model" in Chromium, served by the real service, beside the stand-in Excel host: the
// Model tab takes a property id, shows the first calculation's cost before anything is written,
// inserts the five sheets of live PROP formulas (the profile's fields calculate from the subject
// cell), asks again rather than write over sheets of the same names, and links the .xlsx.
// (The stand-in calculates single PROP calls only, so the comp grid's Excel formulas are the
// subject of test/addin/start-model.test.ts; and it draws no charts: the pane says so.)
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { MODEL_SHEET_TITLES, modelCost, modelTemplate } from "../../src/contract/model-template";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { snapshotPath, startService } from "../helpers/service";
import { launchChromium } from "./chromium";
import { openConnectedPane, shot, taskMessage } from "./connected-pane";
import type { ExcelHost } from "./excel-host/host";

let app: FastifyInstance;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let host: ExcelHost;
let problems: string[];
let subject: { id: string; name: string };

beforeAll(async () => {
  await ensureAddinBuild();
  let key: string;
  ({ app, key } = await startService({ addinDir: DIST, email: "model@example.com" }));
  const db = new Database(snapshotPath(), { readonly: true });
  subject = db
    .prepare("SELECT id, name FROM properties WHERE metro_id IS NOT NULL AND owner_id IS NOT NULL ORDER BY id LIMIT 1")
    .get() as typeof subject;
  db.close();
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await launchChromium();
  ({ context, page, host, problems } = await openConnectedPane(browser, base, key, true));
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.close();
});

afterEach(() => expect(problems).toEqual([]));

const message = () => taskMessage(page);

test("a property id, the cost shown first, then five sheets of live formulas; a second insert asks for new names", async () => {
  await page.getByRole("tab", { name: "Model" }).click();
  await page.getByRole("radio", { name: "A property id" }).check();
  await page.getByRole("textbox", { name: "Property id" }).fill(subject.id);
  await page.getByRole("button", { name: "Use this id" }).click();
  const cost = modelCost(modelTemplate({ propertyId: subject.id }));
  await expect(page.locator(".model-subject .cost").innerText()).resolves.toContain(
    `About ${cost.credits} credits for the first calculation`,
  );
  const link = page.getByRole("link", { name: "Download the .xlsx" });
  await expect(link.getAttribute("href")).resolves.toBe(`${base}/templates/underwriting-model.xlsx?property_id=${subject.id}`);

  await page.getByRole("button", { name: "Insert the model" }).click();
  await expect(message()).resolves.toMatch(/^Model inserted: 5 sheets ?Model - Profile, .* 3 charts\.$/);
  // The history's rent, vacancy and cap rate charts: native line charts on the History sheet, bound to its spill.
  const charts = await host.charts();
  expect(charts.map((c) => [c.sheet, c.type, c.title])).toEqual([
    [MODEL_SHEET_TITLES.history, "Line", expect.stringMatching(/rent/i)],
    [MODEL_SHEET_TITLES.history, "Line", expect.stringMatching(/vacancy/i)],
    [MODEL_SHEET_TITLES.history, "Line", expect.stringMatching(/cap rate/i)],
  ]);
  const sheets = (await host.sheets()).map((s) => s.name);
  expect(sheets).toEqual(expect.arrayContaining(Object.values(MODEL_SHEET_TITLES)));
  expect((await host.sheets()).find((s) => s.active)?.name).toBe(MODEL_SHEET_TITLES.profile);
  await host.waitForCalculation();
  const profile = MODEL_SHEET_TITLES.profile;
  await expect(host.cellInfo(profile, "B4")).resolves.toMatchObject({ value: subject.id, fill: "#FFCC99" });
  await expect(host.cellInfo(profile, "B7")).resolves.toMatchObject({
    formula: `=PROP.PROPERTY('Model - Profile'!$B$4,"name")`,
    value: subject.name,
    error: null,
  });
  await expect(host.cellInfo(profile, "A1")).resolves.toMatchObject({ bold: true });
  // The first comp row's market-conditions adjustment: column M, one blank column after the 11-column spill.
  await expect(host.cellInfo(MODEL_SHEET_TITLES.comps, "M9")).resolves.toMatchObject({ numberFormat: "0.0%", fill: "#FFCC99" });
  await expect(host.cellInfo(MODEL_SHEET_TITLES.comps, "A8")).resolves.toMatchObject({
    formula: expect.stringMatching(/^=PROP\.SALECOMPS\('Model - Profile'!\$B\$4,,"limit=10;/),
  });
  await shot(page, "pane-model");

  // The same names again: nothing written over, and the offer of new names.
  await page.getByRole("button", { name: "Insert the model" }).click();
  await expect(message()).resolves.toMatch(/^Nothing inserted ?The workbook already has "Model - Profile"/);
  await page.getByRole("button", { name: "Insert with new names (suffix 2)" }).click();
  await expect(message()).resolves.toMatch(/^Model inserted: 5 sheets/);
  expect((await host.sheets()).map((s) => s.name)).toEqual(expect.arrayContaining(Object.values(MODEL_SHEET_TITLES).map((t) => `${t} 2`)));
  await expect(host.cellInfo(`${MODEL_SHEET_TITLES.comps} 2`, "A6")).resolves.toMatchObject({
    formula: `=PROP.PROPERTY('Model - Profile 2'!$B$4,"name")`,
  });
}, 120_000);
