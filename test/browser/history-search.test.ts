// The pane's two history searches in Chromium, served by the real service, beside the stand-in
// Excel host: Market history and Property history are in the search picker with their price,
// a bound that cannot be right is named under its input before any request, and a preview's
// "Insert as formula" writes the formula whose spill is the preview, answered from the cache
// (dates as Excel dates, rates as percentages, in their formats) at no further cost.
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { snapshotPath, startService } from "../helpers/service";
import { launchChromium } from "./chromium";
import { openConnectedPane, taskMessage } from "./connected-pane";
import type { ExcelHost } from "./excel-host/host";

const MARKET = { place: "New York City, NY", asset: "multifamily" };

let app: FastifyInstance;
let base: string;
let browser: Browser;
let propertyId: string;
let context: BrowserContext;
let page: Page;
let host: ExcelHost;
/** Every /v1 request the page made, as "METHOD path". */
let apiCalls: string[];
let problems: string[];

beforeAll(async () => {
  await ensureAddinBuild();
  let key: string;
  ({ app, key } = await startService({ addinDir: DIST, email: "history@example.com" }));
  // A property with sales, so its history holds more than its construction.
  const db = new Database(snapshotPath(), { readonly: true });
  propertyId = (
    db.prepare("SELECT property_id FROM sales WHERE property_id IS NOT NULL ORDER BY property_id LIMIT 1").get() as { property_id: string }
  ).property_id;
  db.close();
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await launchChromium();
  ({ context, page, host, apiCalls, problems } = await openConnectedPane(browser, base, key));
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.close();
});

afterEach(() => expect(problems).toEqual([]));

/** The text of the latest task message in the tab panel, title first. */
const message = () => taskMessage(page);

/**
 * Inserts the preview as a table at `tableAt` and as the formula at `formulaAt`: the formula's
 * spill must be the table, cell for cell and format for format, with no request made.
 */
async function insertBothWays(tableAt: string, formulaAt: string, formula: RegExp): Promise<string[][]> {
  const preview = page.getByRole("table", { name: "Preview of the results" });
  await preview.waitFor();
  const callsBefore = apiCalls.length;
  await host.select(`Sheet1!${tableAt}`);
  await page.getByRole("button", { name: "Insert", exact: true }).click();
  const inserted = /^Table inserted \d+ rows at (Sheet1!\S+)\.$/.exec(await message());
  expect(inserted).not.toBeNull();
  await host.select(`Sheet1!${formulaAt}`);
  await page.getByRole("button", { name: "Insert as formula" }).click();
  await expect(message()).resolves.toMatch(formula);
  await host.waitForCalculation();
  const anchor = await host.cellInfo("Sheet1", formulaAt);
  expect(anchor.error).toBeNull();
  const spill = await host.cells(null, anchor.spillRange!);
  // The table Insert wrote and the formula's spill hold the same cells, in the same formats.
  expect(spill).toEqual(await host.cells(null, inserted![1]));
  expect(await host.shownFormats(null, anchor.spillRange!)).toEqual(await host.shownFormats(null, inserted![1]));
  expect(apiCalls.length).toBe(callsBefore);
  return spill as string[][];
}

test("market history: priced, a nonsense bound refused free, then previewed and inserted as the formula that spills the same", async () => {
  await page.getByLabel("Search for").selectOption({ label: "Market history" });
  const cost = page.locator("#preview-cost");
  await expect(cost.innerText()).resolves.toBe("Preview costs 2 credits (free if already fetched).");
  await page.getByLabel("Place").fill(MARKET.place);
  await page.getByLabel("Asset type").selectOption(MARKET.asset);
  await page.getByLabel("Metrics").fill("vacancy_rate, asking_rent_unit_month");
  await page.getByLabel("From").fill("2016-Q5");
  const before = apiCalls.length;
  await page.getByRole("button", { name: "Preview" }).click();
  await page
    .getByText(/"2016-Q5" is not a quarter/)
    .first()
    .waitFor();
  expect(apiCalls.length).toBe(before);

  await page.getByLabel("From").fill("2024-Q1");
  await expect(cost.innerText()).resolves.toBe("Preview costs 2 credits.");
  await page.getByRole("button", { name: "Preview" }).click();
  const spill = await insertBothWays(
    "A1",
    "R1",
    /^Formula inserted =PROP\.MARKETHISTORY\("New York City, NY","multifamily","vacancy_rate,asking_rent_unit_month","2024-01-01"\) at Sheet1!R1\./,
  );
  expect(spill[0]).toEqual(["period_end", "vacancy_rate", "asking_rent_unit_month"]);
  expect(spill.length).toBeGreaterThan(2);
  // The period's end is an Excel date, vacancy a percentage: shown so from the spill's formatted values.
  expect(typeof spill[1][0]).toBe("number");
  expect((await host.shownFormats(null, "Sheet1!R2:T2"))[0]).toEqual(["yyyy-mm-dd", "0.00%", "General"]);
  expect(apiCalls.filter((c) => c.endsWith("/markets/history"))).toHaveLength(1);
});

test("property history: a property's events previewed, then inserted as =PROP.HISTORY answering from the same result", async () => {
  await page.getByLabel("Search for").selectOption({ label: "Property history" });
  await expect(page.locator("#preview-cost").innerText()).resolves.toBe("Preview costs 1 credit (free if already fetched).");
  await page.getByLabel("Property id").fill(propertyId);
  await page.getByRole("button", { name: "Preview" }).click();
  const spill = await insertBothWays(
    "A60",
    "R60",
    new RegExp(`^Formula inserted =PROP\\.HISTORY\\("${propertyId}","limit=25"\\) at Sheet1!R60\\.`),
  );
  expect(spill[0].slice(0, 3)).toEqual(["date", "event_type", "description"]);
  expect(spill.map((row) => row[1])).toContain("sale");
});
