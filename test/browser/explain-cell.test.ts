// Explain this cell in Chromium, served by the real service, beside the stand-in Excel host: an
// analyst types a search, selects a value inside its spill and opens Explain; the pane names the
// function, the row's property (id, name, address), the field's meaning, the snapshot, where
// the answer came from and what it cost, links to the operation in the API reference, and
// inserts the row's record beside the model without overwriting anything.
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { startService } from "../helpers/service";
import { launchChromium } from "./chromium";
import { openConnectedPane, shot } from "./connected-pane";
import type { ExcelHost } from "./excel-host/host";

let app: FastifyInstance;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let host: ExcelHost;
let apiCalls: string[];
let problems: string[];

beforeAll(async () => {
  await ensureAddinBuild();
  let key: string;
  ({ app, key } = await startService({ addinDir: DIST, email: "explain@example.com" }));
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await launchChromium();
  ({ context, page, host, apiCalls, problems } = await openConnectedPane(browser, base, key, true));
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.close();
});

afterEach(() => expect(problems).toEqual([]));

/** The explanation's facts as "Label: text" lines. */
async function facts(): Promise<Record<string, string>> {
  const rows = page.locator(".explain-fact");
  await rows.first().waitFor();
  const out: Record<string, string> = {};
  for (const row of await rows.all()) out[(await row.locator("dt").innerText()).trim()] = (await row.locator("dd").innerText()).trim();
  return out;
}

test("a value inside a search's spill: its row's property, its field, the snapshot, the fetch and its cost; then its record inserted beside the model", async () => {
  await host.setFormula("Sheet1", "A1", '=PROP.SEARCH("warehouse","TX","limit=3; cols=id,name,address,city,building_area_sqft")');
  await host.waitForCalculation();
  const spill = await host.cells("Sheet1", "A1:E4");
  expect(spill[0]).toEqual(["id", "name", "address", "city", "building_area_sqft"]);
  const [id, name, address, city] = spill[2] as string[];

  await host.select("Sheet1!E3");
  await page.getByRole("tab", { name: "Explain" }).click();
  await page.getByRole("button", { name: "Explain the selected cell" }).click();
  const shown = await facts();
  await expect(page.locator(".explain-title").innerText()).resolves.toBe(`Sheet1!E3 in the spill of Sheet1!A1: ${spill[2][4]}`);
  expect(shown.Function).toBe('PROP.SEARCH("warehouse", "TX", "limit=3; cols=id,name,address,city,building_area_sqft")');
  expect(shown.Row).toBe(`${id}, ${name}, ${address}, ${city}`);
  expect(shown.Field).toMatch(/^Building area \(sq ft\) \(building_area_sqft\)/);
  expect(shown.Asked).toMatch(/^searchProperties \(.*geography=TX.*q=warehouse/);
  expect(shown.List).toMatch(/^\d[\d,]* records matched$/);
  expect(shown.Snapshot).toMatch(/, captured 1 Nov 2026$/);
  expect(shown.Fetched).toMatch(/ UTC, fetched from the service$/);
  expect(shown.Cost).toBe("1 credit");
  expect(shown["Last refresh"]).toBe("No refresh has run since the pane opened.");
  const link = page.getByRole("link", { name: "searchProperties in the API reference" });
  await expect(link.getAttribute("href")).resolves.toBe(`${base}/docs/api#/Commercial%20properties/searchProperties`);
  await shot(page, "pane-explain");

  // The row's record goes right of everything the sheet uses; reading the cell made no request.
  const before = apiCalls.length;
  await page.getByRole("button", { name: "Insert the source record beside the model" }).click();
  await page.locator(".task-message").filter({ hasText: "Source inserted" }).waitFor();
  await expect(host.formulas("Sheet1", "F3")).resolves.toEqual([[`=PROP.DETAILS("${id}")`]]);
  await host.waitForCalculation();
  const details = await host.cells("Sheet1", "F3:G4");
  expect(details[0]).toEqual(["field", "value"]);
  expect(details[1]).toEqual(["id", id]);
  expect(apiCalls.slice(before)).toEqual([`GET /v1/commercial/properties/${id}`]);

  // Inserting again would cover the record just inserted: refused, nothing overwritten.
  await page.getByRole("button", { name: "Insert the source record beside the model" }).click();
  await page.locator(".task-message").filter({ hasText: "not empty" }).waitFor();
  await expect(host.formulas("Sheet1", "F3")).resolves.toEqual([[`=PROP.DETAILS("${id}")`]]);
});

test("a cell with no PROP formula says so", async () => {
  await host.setCells("Sheet1", "K20", [[42]]);
  await host.select("Sheet1!K20");
  await page.getByRole("button", { name: "Explain the selected cell" }).click();
  // The previous explanation stays until the new one replaces it: wait for the new one.
  await page.locator(".explain-title", { hasText: "Sheet1!K20" }).waitFor();
  await expect(page.locator(".explain-title").innerText()).resolves.toBe("Sheet1!K20 holds no PROP formula");
  await expect(page.locator(".explain-fact").innerText()).resolves.toMatch(/^Cell\s+Select a cell holding a PROP formula/);
  await expect(page.getByRole("button", { name: "Insert the source record beside the model" }).count()).resolves.toBe(0);
});
