// Charts in Chromium, served by the real service, beside the stand-in Excel host: a market
// history's preview draws its line chart (described to a screen reader), "Insert chart" writes
// the formula and a native chart bound to its spill, and when the spill grows (the formula now
// asks from an earlier date) the chart's series follow it. A market's figure across places
// becomes a block of =PROP.MARKET formulas with a column chart that takes in a place added under it.
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { snapshotPath, startService } from "../helpers/service";
import { launchChromium } from "./chromium";
import { openConnectedPane, shot, taskMessage } from "./connected-pane";
import type { ExcelHost } from "./excel-host/host";
import type { ChartInfo } from "./excel-host/host-api";

const MARKET = { place: "New York City, NY", asset: "multifamily" };

let app: FastifyInstance;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let host: ExcelHost;
let problems: string[];
/** Cities with a multifamily market, largest first. */
let cities: string[];

beforeAll(async () => {
  await ensureAddinBuild();
  let key: string;
  ({ app, key } = await startService({ addinDir: DIST, email: "charts@example.com" }));
  const db = new Database(snapshotPath(), { readonly: true });
  cities = (
    db
      .prepare(
        "SELECT geography_name FROM markets WHERE asset_type = 'multifamily' AND geography_type = 'city' AND vacancy_rate IS NOT NULL ORDER BY property_count DESC LIMIT 4",
      )
      .all() as Array<{ geography_name: string }>
  ).map((row) => row.geography_name);
  db.close();
  const base = await app.listen({ host: "127.0.0.1", port: 0 });
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

/** Polls the stand-in's charts until `ready` holds (the binding runs after calculations settle). */
async function chartsWhen(ready: (charts: ChartInfo[]) => boolean): Promise<ChartInfo[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await host.waitForCalculation();
    const charts = await host.charts();
    if (ready(charts) || Date.now() > deadline) return charts;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The rows of a spill under its header that hold a value in `column` up to the last one that does (a note row after them is not data). */
async function dataRows(spillRange: string, column: number): Promise<number> {
  const cells = await host.cells(null, spillRange);
  let rows = cells.length - 1;
  while (rows > 0 && typeof cells[rows][column] !== "number") rows--;
  return rows;
}

test("market history: the preview's line chart, then Insert chart binds a native chart that follows the spill as it grows", async () => {
  await page.getByLabel("Search for").selectOption({ label: "Market history" });
  await page.getByLabel("Place").fill(MARKET.place);
  await page.getByLabel("Asset type").selectOption(MARKET.asset);
  await page.getByLabel("Metrics").fill("vacancy_rate, asking_rent_unit_month");
  await page.getByLabel("From").fill("2024-Q1");
  await page.getByRole("button", { name: "Preview" }).click();

  // The preview's chart: one image, described by its span, first and last values and range.
  const chart = page.getByRole("img", { name: /^Vacancy rate from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: first [\d.]+% / });
  await chart.waitFor();
  expect(await chart.getAttribute("aria-label")).toMatch(/range [\d.]+% to [\d.]+%/);
  expect(await chart.locator("polyline, circle").count()).toBeGreaterThan(0);
  // Another figure of the preview is one choice away.
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: "Asking rent ($/unit/mo)" });
  await page.getByRole("img", { name: /^Asking rent \(\$\/unit\/mo\) from / }).waitFor();
  await page.getByLabel("Chart", { exact: true }).selectOption({ label: "Vacancy rate" });

  await host.select("Sheet1!A1");
  await page.getByRole("button", { name: "Insert chart" }).click();
  await expect(message()).resolves.toMatch(
    /^Chart inserted =PROP\.MARKETHISTORY\(.*\) at Sheet1!A1, and the chart "PROP Vacancy rate, multifamily in New York City, NY"/,
  );

  const anchor = await host.cellInfo("Sheet1", "A1");
  expect(anchor.error).toBeNull();
  const rows = await dataRows(anchor.spillRange!, 1);
  expect(rows).toBeGreaterThan(2);
  let [bound] = await chartsWhen(([c]) => c?.series[0]?.values === `Sheet1!B2:B${rows + 1}`);
  expect(bound).toMatchObject({ type: "Line", title: "Vacancy rate, multifamily in New York City, NY", at: "Sheet1!E1" });
  expect(bound.series).toHaveLength(1);
  expect(bound.series[0]).toMatchObject({ name: "vacancy_rate", values: `Sheet1!B2:B${rows + 1}`, xValues: `Sheet1!A2:A${rows + 1}` });
  expect(bound.series[0].shownX[0]).toMatch(/^2024-03-31$/);
  // The pane scrolled to its chart, the sheet beside it with the native chart over its cells.
  await page.evaluate(() => document.querySelector(".line-chart")?.scrollIntoView({ block: "end" }));
  await shot(page, "pane-history-chart");

  // The next refresh brings more periods: here the formula asks from 2021, as an analyst
  // widening the window would. The spill grows and the chart follows it, with nothing clicked.
  const inserted = String((await host.cellInfo("Sheet1", "A1")).formula);
  // The chart's formula shows a missing period as #N/A (a gap), never as empty text Excel would draw as 0.
  expect(inserted).toMatch(/"[^"]*missing=na[^"]*"\)$/);
  const formula = inserted.replace('"2024-01-01"', '"2021-01-01"');
  await host.setFormula("Sheet1", "A1", formula);
  await host.waitForCalculation();
  const grown = await dataRows((await host.cellInfo("Sheet1", "A1")).spillRange!, 1);
  expect(grown).toBeGreaterThanOrEqual(rows + 12);
  [bound] = await chartsWhen(([c]) => c.series[0].values === `Sheet1!B2:B${grown + 1}`);
  expect(bound.series[0]).toMatchObject({ values: `Sheet1!B2:B${grown + 1}`, xValues: `Sheet1!A2:A${grown + 1}` });
  expect(bound.series[0].shownX[0]).toBe("2021-03-31");
  expect(bound.series[0].shownValues.every((v) => typeof v === "number")).toBe(true);

  // And it shrinks back as well: the chart never keeps reading cells the spill left.
  await host.setFormula("Sheet1", "A1", formula.replace('"2021-01-01"', '"2024-01-01"'));
  [bound] = await chartsWhen(([c]) => c.series[0].values === `Sheet1!B2:B${rows + 1}`);
  expect(bound.series[0].values).toBe(`Sheet1!B2:B${rows + 1}`);
}, 120_000);

test("market across places: a block of =PROP.MARKET formulas and a column chart that takes in a place added under it", async () => {
  expect(cities.length).toBe(4);
  await page.getByLabel("Search for").selectOption({ label: "Market snapshot" });
  await page.getByLabel("Place").fill(cities[0]);
  await page.getByLabel("Asset type").selectOption(MARKET.asset);
  await page.getByRole("button", { name: "Preview" }).click();
  const section = page.getByRole("region", { name: "Chart across places" });
  await section.waitFor();
  await section.getByLabel("Figure").selectOption({ label: "Vacancy rate" });
  await section.getByLabel("Places").fill(cities.slice(0, 3).join("\n"));

  await host.select("Sheet1!A60");
  await section.getByRole("button", { name: "Insert chart" }).click();
  await expect(section.locator(".task-message").innerText()).resolves.toMatch(/Vacancy rate in 3 places, from Sheet1!A60:B63/);
  expect(await host.cells("Sheet1", "A60:B60")).toEqual([["geography", "vacancy_rate"]]);
  expect((await host.cellInfo("Sheet1", "B61")).formula).toBe(`=PROP.MARKET($A61,"multifamily","vacancy_rate")`);

  const isPlaces = (c: ChartInfo) => c.type === "ColumnClustered";
  let [chart] = (await chartsWhen((all) => all.some((c) => isPlaces(c) && c.series[0]?.values === "Sheet1!B61:B63"))).filter(isPlaces);
  expect(chart.series[0]).toMatchObject({ values: "Sheet1!B61:B63", xValues: "Sheet1!A61:A63" });
  expect(chart.series[0].shownX).toEqual(cities.slice(0, 3));
  expect(chart.series[0].shownValues.every((v) => typeof v === "number")).toBe(true);

  // A fourth place typed under the block, its formula filled down: the chart takes it in.
  await host.setCells("Sheet1", "A64", [[cities[3], `=PROP.MARKET($A64,"multifamily","vacancy_rate")`]]);
  [chart] = (await chartsWhen((all) => all.some((c) => isPlaces(c) && c.series[0].values === "Sheet1!B61:B64"))).filter(isPlaces);
  expect(chart.series[0].shownX).toEqual(cities);
}, 120_000);
