// The task pane as a user meets it: the built pane page served by the real service, in
// Chromium, with the stand-in Excel host (test/browser/excel-host/) holding the workbook.
// One journey, step by step: connect with a bad key and a good one, find sale comps for a
// market (the price shown before the preview) and insert them (as a table and as a formula,
// dates and rates as the formula spills them), compare three selected rows, refresh the model,
// freeze it (formats kept), look up a market whose place was mistyped (a suggestion clicked,
// the figures labelled), sign out, and read the refresh report of a new snapshot (and write it
// to the Refresh log sheet). Beside it: a service that cannot be reached, running out of
// credits, and the narrowest pane. With UPDATE_SCREENSHOTS=1 each step writes a screenshot of
// pane and sheet into docs/screenshots/.
//
// The snapshot is a copy of the test snapshot whose comps for one market carry text that Excel
// would read as a formula (=, +, -, @): it must land in cells as text.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import type { AccountStore } from "../../src/server/stores/sqlite/accounts";
import type { KeyStore } from "../../src/server/stores/sqlite/keys";
import { periodEnd, periodOf } from "../../src/server/credits/periods";
import { CACHE_STORAGE_KEY } from "../../src/shared/cache-persistence";
import { SETTING_KEYS } from "../../src/shared/setting-keys";
import { columnLetters } from "../../src/taskpane/excel-addresses";
import { formatDay } from "../../src/taskpane/status-text";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { snapshotPath, startService } from "../helpers/service";
import { launchChromium, offlineContext } from "./chromium";
import { shot, taskMessage } from "./connected-pane";
import { type ExcelHost, installExcelHost } from "./excel-host/host";

const MARKET = { city: "New York City", state: "NY", asset: "multifamily" };
const RISKY = { buyer: '=HYPERLINK("http://evil.example","click")', seller: "@SUM(1,2)", name: "+1 Main St", broker: "-Brokers" };

let app: FastifyInstance;
let base: string;
let browser: Browser;
let accounts: AccountStore;
let keys: KeyStore;
let accountsDb: Database.Database;
let goodKey: string;
let workDir: string;

/** The test snapshot with formula-like text in the comps of MARKET. */
function riskySnapshot(): string {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "pane-test-"));
  const file = path.join(workDir, "snapshot.db");
  fs.copyFileSync(snapshotPath(), file);
  const db = new Database(file);
  db.prepare(
    `UPDATE sales SET buyer_name = ?, seller_name = ?, property_name = ?, broker_name = ?
     WHERE city = ? AND state_code = ? AND asset_type = ?`,
  ).run(RISKY.buyer, RISKY.seller, RISKY.name, RISKY.broker, MARKET.city, MARKET.state, MARKET.asset);
  db.close();
  return file;
}

beforeAll(async () => {
  await ensureAddinBuild();
  const svc = await startService({ snapshotFile: riskySnapshot(), addinDir: DIST, store: "sqlite", email: "pane@example.com" });
  ({ app, key: goodKey } = svc);
  ({ accounts, keys, db: accountsDb } = svc.sqlite!);
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

interface Session {
  context: BrowserContext;
  page: Page;
  host: ExcelHost;
  /** Every /v1 request the page made, as "METHOD path". */
  apiCalls: string[];
  problems: string[];
}

/**
 * A fresh browser context (so a fresh OfficeRuntime.storage) with the pane open: at Excel's
 * pane width beside the grid, or alone in a `viewport` that size.
 */
async function openPane(storage: Record<string, string> = {}, viewport?: { width: number; height: number }): Promise<Session> {
  // Reduced motion: the cards fold at once (Fluent UI skips its animations), so what a step
  // measures or shows is where things end up.
  const { context, blocked } = await offlineContext(browser, {
    viewport: viewport ?? { width: 1100, height: 900 },
    reducedMotion: "reduce",
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const apiCalls: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  // The service's refusals the journeys meet on purpose are logged by the browser, not failures.
  page.on("console", (m) => m.type() === "error" && !/status of (400|401|402|404)/.test(m.text()) && problems.push(m.text()));
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/v1/")) apiCalls.push(`${r.method()} ${url.pathname}`);
  });
  const host = await installExcelHost(page, {
    functionsJson: path.join(DIST, "functions.json"),
    storage,
    showGrid: viewport === undefined,
  });
  await page.goto(`${base}/addin/taskpane.html`);
  await page.getByRole("heading", { name: "Property Intelligence" }).waitFor();
  problems.push(...blocked);
  return { context, page, host, apiCalls, problems };
}

/** Waits (up to 10 s) for something the page does asynchronously. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 50) {
    if (waited > 10_000) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The text of a task's closing message in the tab panel (or in `region`, e.g. ".card"). */
const message = taskMessage;

/**
 * The header of a folding card ("Connection", "Status"), a button that opens and closes it;
 * with `summary`, only while the header says that.
 */
function card(page: Page, title: string, summary?: string) {
  const text = summary === undefined ? title : `${title} ${summary}`;
  return page
    .locator(".card-header button")
    .filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${summary === undefined ? "\\b" : "$"}`) });
}

/** The credits left, as the Status card's header says them. */
async function creditsLeft(page: Page): Promise<number> {
  const text = await card(page, "Status").innerText();
  const found = /([\d,]+) credits left/.exec(text);
  if (!found) throw new Error(`the Status header says "${text}"`);
  return Number(found[1].replace(/,/g, ""));
}

describe("the analyst's journey", () => {
  let s: Session;
  let tableAddress: string;

  beforeAll(async () => {
    s = await openPane();
  });
  afterAll(() => s.context.close());
  afterEach(() => expect(s.problems).toEqual([]));

  test("connect: a mistyped key is refused before any request; a good one is checked with one free call", async () => {
    const { page } = s;
    await expect(page.getByRole("link", { name: "Create one in your account" }).getAttribute("href")).resolves.toBe(`${base}/account`);
    const typo = goodKey.slice(0, -1) + (goodKey.endsWith("a") ? "b" : "a");
    await page.getByLabel("API key").fill(typo);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await expect(message(page, ".card")).resolves.toMatch(/checksum/);
    expect(s.apiCalls).toEqual([]);
    await shot(page, "pane-connect-error");

    await page.getByLabel("API key").fill(goodKey);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    // Connected, both cards fold to headers that still say the plan and the credits left.
    await card(page, "Connection", "Connected, Explorer plan").waitFor();
    await expect(card(page, "Status", "1,000 credits left").getAttribute("aria-expanded")).resolves.toBe("false");
    expect(await page.getByLabel("API key").count()).toBe(0);
    // One free call checks the key; the search forms then load the free catalog.
    await page.getByLabel("Search for").waitFor();
    await until(() => s.apiCalls.length >= 2);
    expect(s.apiCalls).toEqual(["GET /v1/commercial/coverage", "GET /v1/commercial/catalog"]);
    // The key is in OfficeRuntime.storage, and nowhere in the workbook or the page.
    await expect(page.evaluate((k) => OfficeRuntime.storage.getItem(k), SETTING_KEYS.apiKey)).resolves.toBe(goodKey);
    expect(await page.content()).not.toContain(goodKey);
    // Opened, each card has the details.
    await card(page, "Connection").click();
    await page.getByText(`Connected to ${base}`).waitFor();
    await card(page, "Status").click();
    const status = page.locator(".status");
    await expect(status.innerText()).resolves.toMatch(/Explorer plan[\s\S]*1,000 of 1,000 credits left\. Resets \d+ \w+ \d{4}\./);
    // The data by its capture day; the snapshot's id beside it.
    const snapshot = status.locator(".snapshot");
    await expect(snapshot.innerText()).resolves.toMatch(/^Data captured \d+ \w+ \d{4}\s+Snapshot snap_\S+$/);
    await expect(snapshot.getAttribute("title")).resolves.toMatch(/^Snapshot snap_\S+$/);
    await shot(page, "pane-connected");
    await card(page, "Connection").click();
    await card(page, "Status").click();
    expect(await page.getByText(`Connected to ${base}`).count()).toBe(0);
  });

  test("search: sale comps for a market, previewed, then inserted as a table; formula-like text stays text", async () => {
    const { page, host } = s;
    await page.getByLabel("Search for").selectOption({ label: "Sale comps" });
    // The price is beside Preview before anything is spent: the endpoint's published cost.
    const cost = page.locator("#preview-cost");
    await expect(cost.innerText()).resolves.toBe("Preview costs 2 credits (free if already fetched).");
    await page.getByLabel("Subject").fill(`${MARKET.city}, ${MARKET.state}`);
    await page.getByLabel("Asset type").selectOption(MARKET.asset);
    await page.getByLabel("Rows").fill("10");
    await expect(cost.innerText()).resolves.toBe("Preview costs 2 credits.");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("table", { name: "Preview of the results" });
    await preview.waitFor();
    expect(await preview.locator("tbody tr").count()).toBeGreaterThanOrEqual(3);
    await expect(page.locator(".preview").innerText()).resolves.toMatch(/^10 rows fetched/);
    await expect(card(page, "Status", "998 credits left").isVisible()).resolves.toBe(true);
    // Fetched, the same search is free, and so are both inserts.
    await expect(cost.innerText()).resolves.toBe("Preview is free: this result is already fetched.");
    await expect(page.locator("#insert-cost").innerText()).resolves.toMatch(/no further credits/);

    await host.select("Sheet1!A1");
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await expect(message(page)).resolves.toMatch(/^Table inserted 10 rows at Sheet1!A1:[A-Z]+11\.$/);
    const [table] = await host.tables();
    tableAddress = table.address;
    expect(table.address).toMatch(/^Sheet1!A1:[A-Z]+11$/);
    const cells = await host.cells(null, table.address);
    const header = cells[0] as string[];
    for (const column of ["property_id", "sale_date", "sale_price", "buyer_name"]) expect(header).toContain(column);
    // Dates are Excel dates and rates percentages: numbers, shown in their formats.
    const [saleDate, capRate] = [header.indexOf("sale_date"), header.indexOf("cap_rate")].map((c) => `${columnLetters(c)}2`);
    expect(await host.cellInfo("Sheet1", saleDate)).toMatchObject({ value: expect.any(Number), numberFormat: "yyyy-mm-dd" });
    expect(await host.cellInfo("Sheet1", capRate)).toMatchObject({ numberFormat: "0.00%" });
    // Formula-like text from the data is text in the cell: no formula, shown as it was.
    const buyer = await host.cellInfo("Sheet1", `${columnLetters(header.indexOf("buyer_name"))}2`);
    expect(buyer).toMatchObject({ formula: null, value: RISKY.buyer, prefixed: true });
    // Every formula-like text of the data is in the table, each as text (no formula in its cell).
    const risky: Array<[string, string]> = [];
    cells.forEach((row, r) =>
      row.forEach((v, c) => typeof v === "string" && /^[=+\-@]/.test(v) && risky.push([`${columnLetters(c)}${r + 1}`, v])),
    );
    expect(new Set(risky.map(([, v]) => v))).toEqual(new Set([RISKY.buyer, RISKY.seller, RISKY.name, RISKY.broker]));
    for (const [address] of risky) expect(await host.cellInfo("Sheet1", address)).toMatchObject({ formula: null, prefixed: true });
    await shot(page, "pane-search");
  });

  test("insert as formula: the same rows from the cache, no further credits", async () => {
    const { page, host } = s;
    const callsBefore = s.apiCalls.length;
    await host.select("Sheet1!A20");
    await page.getByRole("button", { name: "Insert as formula" }).click();
    await expect(message(page)).resolves.toMatch(
      /^Formula inserted =PROP\.SALECOMPS\("New York City, NY","multifamily","limit=10"\) at Sheet1!A20\./,
    );
    await host.waitForCalculation();
    const anchor = await host.cellInfo("Sheet1", "A20");
    expect(anchor.error).toBeNull();
    const spill = await host.cells(null, anchor.spillRange!);
    const table = await host.cells(null, tableAddress);
    // The table holds what the formula spills: the same text, the same numbers (dates and
    // rates too), each shown in the same format (the spill's from its formatted values). The
    // spill then ends with the footer of a cut list, which the pane's table of the page has not.
    expect(spill.slice(0, table.length)).toEqual(table);
    expect(spill.slice(table.length).map((row) => row[0])).toEqual([expect.stringMatching(/^10 of \d+ rows \(limit=10\)/)]);
    const formats = await host.shownFormats(null, tableAddress);
    expect((await host.shownFormats(null, anchor.spillRange!)).slice(0, table.length)).toEqual(formats);
    expect(new Set(formats.flat())).toEqual(new Set(["General", "yyyy-mm-dd", "0.00%"]));
    expect(s.apiCalls.length).toBe(callsBefore);
    await expect(card(page, "Status", "998 credits left").isVisible()).resolves.toBe(true);
  });

  test("compare selected rows: three rows of the table become a comparison sheet", async () => {
    const { page, host } = s;
    await host.select("Sheet1!B2:B4");
    await page.getByRole("tab", { name: "Compare" }).click();
    await page.getByRole("button", { name: "Compare selected rows" }).click();
    const text = await message(page);
    expect(text).toMatch(/^Sheet "Comparison" added \d+ properties from table "SALECOMPS"/);
    const sheets = await host.sheets();
    expect(sheets.find((x) => x.active)?.name).toBe("Comparison");
    const table = await host.cells("Sheet1", tableAddress);
    const idColumn = (table[0] as string[]).indexOf("property_id");
    const ids = [...new Set(table.slice(1, 4).map((r) => r[idColumn]))];
    const sheet = await host.cells("Comparison", `A1:${columnLetters(ids.length + 3)}3`);
    expect(sheet[0].slice(-3)).toEqual(["Minimum", "Median", "Maximum"]);
    expect(sheet[1]).toEqual(["id", ...ids, "", "", ""]);
    await shot(page, "pane-compare");
  });

  test("compare with a selection that holds no property ids writes nothing and says why", async () => {
    const { page, host } = s;
    const sheetsBefore = (await host.sheets()).length;
    await host.select("Sheet1!Z60");
    await page.getByRole("button", { name: "Compare selected rows" }).click();
    await expect(message(page)).resolves.toMatch(/^Nothing was changed .*no property id/);
    expect((await host.sheets()).length).toBe(sheetsBefore);
  });

  test("refresh the workbook: progress, then each formula that failed with the reason", async () => {
    const { page, host } = s;
    await host.setFormula("Sheet1", "A40", '=PROP.PROPERTY("cp_doesnotexist","name")');
    await host.waitForCalculation();
    const callsBefore = s.apiCalls.length;
    await page.getByRole("tab", { name: "Refresh" }).click();
    await page.getByLabel("Whole workbook").check();
    // Every progress line the panel shows while it works.
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { __progress: string[] }).__progress = []);
      new MutationObserver(() => {
        const line = /Refreshed \d+ of \d+/.exec(document.querySelector("#tab-panel .task-feedback")?.textContent ?? "")?.[0];
        if (line && !seen.includes(line)) seen.push(line);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect(message(page)).resolves.toMatch(/^1 of 2 formulas failed The snapshot is unchanged/);
    const progress = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) expect(line).toMatch(/^Refreshed [0-2] of 2$/);
    const failures = page.getByRole("list", { name: "Formulas that failed" });
    await expect(failures.innerText()).resolves.toMatch(/Sheet1!A40\s+#N\/A\s+There is no commercial property 'cp_doesnotexist'/);
    // One free snapshot check; everything else answered from the cache.
    expect(s.apiCalls.slice(callsBefore)).toEqual(["GET /v1/commercial/coverage"]);
    await card(page, "Status").click();
    await expect(page.locator(".last-refresh").innerText()).resolves.not.toBe("never");
    await expect(page.locator(".refresh-cost").innerText()).resolves.toMatch(/free|0 credits/i);
    await card(page, "Status").click();
    await shot(page, "pane-refresh");
  });

  test("freeze the formula: values stay, the formula goes, a note keeps formula and snapshot", async () => {
    const { page, host } = s;
    const spillRange = (await host.cellInfo("Sheet1", "A20")).spillRange!;
    const before = await host.cells(null, spillRange);
    const formats = await host.shownFormats(null, spillRange);
    // Sale dates and cap rates, shown as dates and percentages by the formula's own values.
    expect(formats.flat()).toEqual(expect.arrayContaining(["yyyy-mm-dd", "0.00%"]));
    await host.select("Sheet1!A20");
    await page.getByRole("tab", { name: "Freeze" }).click();
    await page.getByRole("button", { name: "Freeze selection as values" }).click();
    await page.getByRole("button", { name: "Yes, freeze them" }).click();
    await expect(message(page)).resolves.toMatch(/^1 formula frozen /);
    await expect(page.getByRole("button", { name: "Freeze selection as values" }).isEnabled()).resolves.toBe(true);
    expect(await host.cellInfo("Sheet1", "A20")).toMatchObject({ formula: null, spillParent: null });
    expect(await host.cells(null, spillRange)).toEqual(before);
    // What the analyst saw stays: the rates are still percentages and the dates dates, now as the cells' own formats.
    expect(await host.shownFormats(null, spillRange)).toEqual(formats);
    const rate = formats[1].indexOf("0.00%");
    expect(await host.cellInfo("Sheet1", `${columnLetters(rate)}21`)).toMatchObject({ formula: null, numberFormat: "0.00%" });
    const note = (await host.comments()).find((c) => c.address === "Sheet1!A20");
    expect(note?.content).toMatch(
      /^Frozen as values on .* UTC by Property Intelligence\.\nFormula: =PROP\.SALECOMPS\(.*\)\nAsked: findSaleComps [\s\S]*\nSnapshot: \S+, captured [\s\S]*\nCost: /,
    );
    // Frozen text that looks like a formula is still text.
    const buyer = before[0].indexOf("buyer_name"); // the spill starts at A20: its first record is row 21
    expect(await host.cellInfo("Sheet1", `${columnLetters(buyer)}21`)).toMatchObject({ formula: null, value: RISKY.buyer });
    await shot(page, "pane-freeze");
    // Explain on the frozen cell gives the comment's facts, line for line.
    await page.getByRole("tab", { name: "Explain" }).click();
    await page.getByRole("button", { name: "Explain the selected cell" }).click();
    await expect(page.locator(".explain-title").innerText()).resolves.toMatch(/^Sheet1!A20: a frozen value/);
    const explained = (await page.locator(".explain-fact").allInnerTexts()).map((fact) => fact.replace(/\s*\n\s*/, ": ").trim());
    expect(explained).toEqual(note!.content.split("\n").slice(1));
  });

  test("a mistyped place: a free refusal with suggestions; one clicked fills the place, and the market shows labelled figures", async () => {
    const { page, host } = s;
    await page.getByRole("tab", { name: "Search" }).click();
    await page.getByLabel("Search for").selectOption({ label: "Market snapshot" });
    await expect(page.locator("#preview-cost").innerText()).resolves.toBe("Preview costs 1 credit (free if already fetched).");
    // The place box suggests metros as it is typed into (a combobox).
    const place = page.getByRole("combobox", { name: "Place" });
    await place.fill("New York, NY");
    await page.getByLabel("Asset type").selectOption(MARKET.asset);
    const callsBefore = s.apiCalls.length;
    const creditsBefore = await creditsLeft(page);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(message(page)).resolves.toMatch(
      /^Place not found This snapshot holds no city "New York, NY"\. \(No credits were used\.\) Did you mean: /,
    );
    expect(s.apiCalls.slice(callsBefore)).toEqual(["GET /v1/commercial/markets/snapshot"]);
    await expect(creditsLeft(page)).resolves.toBe(creditsBefore);
    const suggestions = page.getByRole("group", { name: "Suggested places" }).getByRole("button");
    const offered = await suggestions.allInnerTexts();
    expect(offered).toContain(`${MARKET.city}, ${MARKET.state}`);
    await shot(page, "pane-place-suggestions");

    await suggestions.filter({ hasText: new RegExp(`^${MARKET.city}, ${MARKET.state}$`) }).click();
    await expect(place.inputValue()).resolves.toBe(`${MARKET.city}, ${MARKET.state}`);
    await expect(page.locator("#preview-cost").innerText()).resolves.toBe("Preview costs 1 credit.");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("table", { name: "Preview of the results" });
    await preview.waitFor();
    // Labels, figures first, the rows about the market after; rates as percentages, dates as dates.
    const rows = (await preview.locator("tbody tr").allInnerTexts()).map((r) => r.split("\t").map((c) => c.trim()));
    const labels = rows.map((r) => r[0]);
    expect(labels[0]).toBe("Property count");
    expect(labels).toEqual(
      expect.arrayContaining(["Vacancy rate", "Asking rent ($/sq ft/yr)", "Median cap rate", "Sales volume (12 months, $)"]),
    );
    expect(labels.slice(-2)).toEqual(["Asset type", "As of"]);
    expect(labels.indexOf("Median year built")).toBeLessThan(labels.indexOf("ID"));
    expect(rows.find((r) => r[0] === "Vacancy rate")?.[1]).toMatch(/^\d+\.\d{2}%$/);
    expect(rows.find((r) => r[0] === "As of")?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(rows.find((r) => r[0] === "Median year built")?.[1]).toMatch(/^(\d{4})?$/);
    expect(rows.find((r) => r[0] === "Geography name")?.[1]).toBe(`${MARKET.city}, ${MARKET.state}`);
    await until(async () => (await creditsLeft(page)) === creditsBefore - 1);

    // Insert writes the formula's spill (field names, its order), and the formula answers from the cache.
    await host.addSheet("Markets");
    await host.select("Markets!A1");
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await expect(message(page)).resolves.toMatch(/^Table inserted \d+ rows at Markets!A1:B\d+\.$/);
    const table = (await host.tables()).find((t) => t.address.startsWith("Markets!"))!;
    const callsAfterPreview = s.apiCalls.length;
    await host.select("Markets!D1");
    await page.getByRole("button", { name: "Insert as formula" }).click();
    await expect(message(page)).resolves.toMatch(/^Formula inserted =PROP\.MARKET\("New York City, NY","multifamily"\) at Markets!D1\./);
    await host.waitForCalculation();
    const anchor = await host.cellInfo("Markets", "D1");
    expect(anchor.error).toBeNull();
    expect(await host.cells(null, anchor.spillRange!)).toEqual(await host.cells(null, table.address));
    expect(await host.shownFormats(null, anchor.spillRange!)).toEqual(await host.shownFormats(null, table.address));
    expect((await host.cells(null, table.address)).map((r) => r[0])).toContain("vacancy_rate");
    expect(s.apiCalls.length).toBe(callsAfterPreview);
    await shot(page, "pane-market");
  });

  test("sign out removes the key and the cached results", async () => {
    const { page } = s;
    const storedCache = () => page.evaluate((k) => OfficeRuntime.storage.getItem(k), CACHE_STORAGE_KEY);
    // Before: the results are cached, in storage too, and the market just previewed would be free again.
    await until(async () => (await storedCache()) !== null);
    await expect(page.locator("#preview-cost").innerText()).resolves.toBe("Preview is free: this result is already fetched.");
    await card(page, "Connection").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(message(page, ".card")).resolves.toMatch(/^Signed out/);
    await expect(page.evaluate((k) => OfficeRuntime.storage.getItem(k), SETTING_KEYS.apiKey)).resolves.toBeNull();
    await expect(storedCache()).resolves.toBeNull();
    // Connected again, the same market is no longer in the cache: its preview costs a credit.
    await page.getByLabel("API key").fill(goodKey);
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByLabel("Search for").waitFor();
    await page.getByLabel("Search for").selectOption({ label: "Market snapshot" });
    await page.getByRole("combobox", { name: "Place" }).fill(`${MARKET.city}, ${MARKET.state}`);
    await page.getByLabel("Asset type").selectOption(MARKET.asset);
    // "(free if already fetched)" shows until the pane has looked in the cache, then this.
    await until(async () => (await page.locator("#preview-cost").innerText()) === "Preview costs 1 credit.");
  });

  test("a new snapshot: refresh lists the cells whose value changed, old and new, and marks them on request", async () => {
    const { page, host } = s;
    const current = new Database(path.join(workDir, "snapshot.db"), { readonly: true });
    const id = current.prepare("SELECT id FROM properties WHERE occupancy_rate IS NOT NULL ORDER BY id LIMIT 1").pluck().get() as string;
    // The market's latest sales, newest first (SALECOMPS' order): the third will be back-dated to the newest.
    const latest = current
      .prepare("SELECT id, sale_date FROM sales WHERE city = ? AND state_code = ? AND asset_type = ? ORDER BY sale_date DESC, id LIMIT 3")
      .all(MARKET.city, MARKET.state, MARKET.asset) as Array<{ id: string; sale_date: string }>;
    current.close();
    const moved = latest[2];
    const movedTo = new Date(Date.parse(`${latest[0].sale_date.slice(0, 10)}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    const movedDays = Math.round((Date.parse(movedTo) - Date.parse(moved.sale_date.slice(0, 10))) / 86_400_000);
    await host.setFormula("Sheet1", "A44", `=PROP.PROPERTY("${id}","occupancy_rate")`);
    await host.setFormula("Sheet1", "A45", `=PROP.PROPERTY("${id}","name")`);
    // The same figure in a labelled block of the model: "Occupancy" starts its row, "Now" tops its column.
    await host.setCells("Sheet1", "B46", [
      ["", "Now"],
      ["Occupancy", `=PROP.PROPERTY("${id}","occupancy_rate")`],
    ]);
    // A list of comps, newest first, whose order the next snapshot changes.
    await host.setFormula(
      "Sheet1",
      "E50",
      `=PROP.SALECOMPS("${MARKET.city}, ${MARKET.state}","${MARKET.asset}","limit=5; cols=id,sale_date,sale_price")`,
    );
    await host.waitForCalculation();
    const before = (await host.cellInfo("Sheet1", "A44")).value as number;
    const shownBefore = `${(before * 100).toFixed(2)}%`;
    const bps = Math.round((0.123 - before) * 10_000);
    const change = `${bps < 0 ? "-" : "+"}${Math.abs(bps).toLocaleString("en-US")} bps`;
    // The next snapshot: the same data but this property's occupancy.
    const next = path.join(workDir, "next.db");
    fs.copyFileSync(path.join(workDir, "snapshot.db"), next);
    const db = new Database(next);
    db.prepare("UPDATE properties SET occupancy_rate = 0.123 WHERE id = ?").run(id);
    db.prepare("UPDATE sales SET sale_date = ? WHERE id = ?").run(movedTo, moved.id);
    db.prepare("UPDATE property_docs SET json = json_set(json, '$.occupancy_rate', 0.123) WHERE id = ?").run(id);
    db.prepare("UPDATE snapshot_meta SET value = 'snap_00000000e0e1' WHERE key = 'id'").run();
    db.prepare("UPDATE snapshot_meta SET value = '2026-12-01T00:00:00Z' WHERE key = 'built_at'").run();
    db.close();
    await app.liveSnapshot.rollout(next);

    await page.getByRole("tab", { name: "Refresh" }).click();
    await page.getByLabel("Whole workbook").check();
    const creditsBefore = await creditsLeft(page);
    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect(message(page)).resolves.toMatch(
      /The service has new data.*only those that changed were billed\. 3 cells changed value in 3 formulas\. \d+ credits? spent/,
    );
    // As the cells show them (percentages), labelled where the model labels them, with the change in basis points.
    const listed = page.getByRole("list", { name: "What changed" });
    await expect(listed.getByRole("listitem").allInnerTexts()).resolves.toEqual([
      `${shownBefore} → 12.30% (${change}) Sheet1!A44`,
      `Occupancy · Now: ${shownBefore} → 12.30% (${change}) Sheet1!C47`,
      // The comps are matched by id: the back-dated sale moved to the top is one changed date, not every row below.
      `${moved.id} · sale_date: ${moved.sale_date.slice(0, 10)} → ${movedTo} (+${movedDays} days) Sheet1!F51`,
    ]);
    // The credits this refresh spent, as the meter counted them.
    const creditsAfter = await creditsLeft(page);
    const spent = creditsBefore - creditsAfter;
    await expect(page.locator(".refresh-credits").innerText()).resolves.toBe(
      `${spent === 0 ? "No credits" : `${spent} credit${spent === 1 ? "" : "s"}`} spent (${creditsBefore.toLocaleString("en-US")} → ${creditsAfter.toLocaleString("en-US")} left).`,
    );
    await shot(page, "pane-refresh-report");

    // The whole report, on demand, to the "Refresh log" sheet kept with the model; a second time appends.
    await page.getByRole("button", { name: "Write refresh log" }).click();
    await expect(message(page)).resolves.toMatch(/^Refresh log written 5 rows added at 'Refresh log'!A2:I6: the refresh of /);
    const log = await host.cells("Refresh log", "A1:I6");
    expect(log[0]).toEqual(["Refreshed at (UTC)", "Snapshot", "Credits spent", "Cell", "Row", "Column", "Before", "After", "Change"]);
    expect(log[1].slice(1, 5)).toEqual(["snap_00000000e0e1", spent, "", expect.stringMatching(/^\d+ formulas refreshed \(workbook\)/)]);
    expect(log.slice(2).map((r) => r.slice(3))).toEqual([
      ["Sheet1!A44", "", "", shownBefore, "12.30%", change],
      ["Sheet1!C47", "Occupancy", "Now", shownBefore, "12.30%", change],
      ["Sheet1!F51", moved.id, "sale_date", moved.sale_date.slice(0, 10), movedTo, `+${movedDays} days`],
      ["Sheet1!A40", "Formula failed", "", "", "#N/A", expect.stringContaining("cp_doesnotexist")],
    ]);
    // The time is a date-time, shown as one.
    expect(await host.cellInfo("Refresh log", "A2")).toMatchObject({ numberFormat: "yyyy-mm-dd hh:mm" });
    expect(typeof log[1][0]).toBe("number");
    await page.getByRole("button", { name: "Write refresh log" }).click();
    await expect(message(page)).resolves.toMatch(/^Refresh log written 5 rows added at 'Refresh log'!A7:I11:/);
    await host.select("'Refresh log'!A1");
    await shot(page, "pane-refresh-log");
    await host.select("Sheet1!A44");
    // The analyst's own formatting, which marking must not lose.
    await host.setFill("Sheet1", "A44", "#DDEBF7");
    await host.addConditionalFormat("Sheet1", "A45", "=LEN(A45)>40", "#F8CBAD");
    await page.getByRole("button", { name: "Mark changed cells" }).click();
    await expect(message(page)).resolves.toMatch(/^Changed cells marked 3 cells marked in gold/);
    expect(await host.cellInfo("Sheet1", "A44")).toMatchObject({ fill: "#DDEBF7", conditionalFill: "#FFF2CC" });
    expect((await host.cellInfo("Sheet1", "A45")).conditionalFill).toBe("#F8CBAD"); // its name did not change
    // Marking again replaces the marks rather than stacking them.
    const mark = page.getByRole("button", { name: "Mark changed cells" });
    await mark.click();
    await until(async () => !(await mark.isDisabled()));
    await expect(message(page)).resolves.toMatch(/^Changed cells marked/);
    expect((await host.conditionalFormats("Sheet1")).filter((f) => f.fill === "#FFF2CC")).toHaveLength(3);

    await page.getByRole("button", { name: "Clear change marks" }).click();
    await expect(message(page)).resolves.toMatch(/^Change marks cleared The gold fill is gone from 3 marked ranges\./);
    expect(await host.cellInfo("Sheet1", "A44")).toMatchObject({ fill: "#DDEBF7", conditionalFill: null });
    expect(await host.conditionalFormats("Sheet1")).toEqual([{ address: "Sheet1!A45", formula: "=LEN(A45)>40", fill: "#F8CBAD" }]);
    await page.getByRole("button", { name: "Clear change marks" }).click();
    await expect(message(page)).resolves.toMatch(/^No change marks/);
  });

  test("pin the workbook to its snapshot: every PROP formula gets as_of, the figures stay, nothing is billed; then back to the latest", async () => {
    const { page, host } = s;
    const formulaOf = async () => (await host.cellInfo("Sheet1", "A44")).formula;
    const unpinned = await formulaOf();
    const value = (await host.cellInfo("Sheet1", "A44")).value;
    const credits = await creditsLeft(page);
    await page.getByRole("button", { name: "Pin workbook" }).click();
    await expect(message(page, ".pin-snapshot")).resolves.toMatch(
      /^Pin this workbook\? \d+ formulas will answer from snapshot snap_00000000e0e1\. It is free/,
    );
    await page.getByRole("button", { name: /^Pin \d+ formulas$/ }).click();
    await expect(message(page, ".pin-snapshot")).resolves.toMatch(/^Done \d+ formulas now answer from snapshot snap_00000000e0e1\./);
    await host.waitForCalculation();
    expect(await formulaOf()).toBe(unpinned!.replace(/\)$/, ',"as_of=snap_00000000e0e1")'));
    expect((await host.cellInfo("Sheet1", "A44")).value).toBe(value);
    await until(async () => (await creditsLeft(page)) === credits);

    await page.getByRole("button", { name: "Move to the latest" }).click();
    await expect(message(page, ".pin-snapshot")).resolves.toMatch(
      /^Move to the latest\? \d+ formulas will answer from the latest snapshot\./,
    );
    await page.getByRole("button", { name: /^Move \d+ formulas$/ }).click();
    await expect(message(page, ".pin-snapshot")).resolves.toMatch(/^Done/);
    await host.waitForCalculation();
    expect(await formulaOf()).toBe(unpinned);
    expect(await creditsLeft(page)).toBe(credits);
  });
});

test("out of credits: the status says so, and a search explains when credits come back", async () => {
  const account = accounts.create("spent@example.com");
  const key = keys.createKey(account.id, "spent").raw;
  accountsDb.prepare("INSERT INTO credit_usage (account_id, period, used) VALUES (?, ?, ?)").run(account.id, periodOf(new Date()), 1000);
  const s = await openPane({ [SETTING_KEYS.apiKey]: key });
  try {
    const { page } = s;
    // The saved key is checked on opening, with the free call; with no credits left, Status opens by itself.
    await card(page, "Connection", "Connected, Explorer plan").waitFor();
    await expect(card(page, "Status", "Out of credits").getAttribute("aria-expanded")).resolves.toBe("true");
    const status = page.locator(".status");
    await expect(status.innerText()).resolves.toMatch(/0 of 1,000 credits left[\s\S]*Out of credits: cached results still show/);
    await page.getByLabel("Search for").selectOption({ label: "Sale comps" });
    await page.getByLabel("Subject").fill(`${MARKET.city}, ${MARKET.state}`);
    await page.getByRole("button", { name: "Preview" }).click();
    const reset = formatDay(periodEnd(new Date()).toISOString());
    await expect(message(page)).resolves.toBe(
      `Out of credits This call costs 2 credits and 0 of the Explorer plan's 1,000 monthly credits are left. Credits come back on ${reset}.`,
    );
    expect(await page.getByRole("table", { name: "Preview of the results" }).count()).toBe(0);
    await shot(page, "pane-out-of-credits");
    expect(s.problems).toEqual([]);
  } finally {
    await s.context.close();
  }
});

test("at the narrowest pane (320 × 640 px): the cards fold so the search form is in view, nothing spills sideways, all works from the keyboard", async () => {
  const viewport = { width: 320, height: 640 };
  const s = await openPane({}, viewport);
  const overflow = () => s.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** Where an element is on the page, in CSS pixels from the top of the document. */
  const box = async (locator: ReturnType<Page["locator"]>) => {
    const at = await locator.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
    });
    return at;
  };
  try {
    const { page } = s;
    expect(await overflow()).toBe(0);
    // Connect without a mouse: the key box, then Enter submits the form.
    await page.getByLabel("API key").focus();
    await page.keyboard.type(goodKey);
    await page.keyboard.press("Enter");
    await card(page, "Connection", "Connected, Explorer plan").waitFor();
    await expect(card(page, "Status").innerText()).resolves.toMatch(/^Status\s+[\d,]+ credits left$/);
    await page.getByLabel("Search for").waitFor();
    expect(await overflow()).toBe(0);
    // Folded, the cards leave the whole search form, down to Preview and its price, on the first screen.
    const preview = page.getByRole("button", { name: "Preview" });
    await shot(page, "pane-narrow");
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect((await box(page.getByLabel("Search for"))).top).toBeGreaterThan((await box(page.locator(".cards"))).bottom);
    expect((await box(preview)).bottom).toBeLessThanOrEqual(viewport.height);
    expect((await box(page.locator("#preview-cost"))).bottom).toBeLessThanOrEqual(viewport.height);
    // Open, they would push it below the fold: that is why they fold.
    await card(page, "Connection").click();
    await card(page, "Status").click();
    await page.getByText(`Connected to ${base}`).waitFor();
    expect((await box(preview)).top).toBeGreaterThan(viewport.height);
    expect(await overflow()).toBe(0);
    await card(page, "Connection").click();
    await card(page, "Status").click();
    // The tabs: arrow keys move between them, Enter/Space selects, Tab goes into the panel.
    await page.getByRole("tab", { name: "Search" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("tab", { name: "Match" }).getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe("Read the selection");
    expect(await overflow()).toBe(0);
    for (const tab of ["Compare", "Refresh", "Freeze", "Search"]) {
      await page.getByRole("tab", { name: tab }).click();
      expect(await overflow()).toBe(0);
    }
    expect(s.problems).toEqual([]);
  } finally {
    await s.context.close();
  }
});

/** A loopback port nothing listens on (one just given up by a server). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a service that cannot be reached", () => {
  const unreachable =
    /^Service unreachable (Could not reach|No answer from) http:\/\/127\.0\.0\.1:\d+.* Check that the service is running and that the Service URL under Connection is right/;

  test("on opening, the saved connection is checked and the message says so, with the URL and what to check", async () => {
    const nothing = `http://127.0.0.1:${await closedPort()}`;
    const s = await openPane({ [SETTING_KEYS.apiKey]: goodKey, [SETTING_KEYS.baseUrl]: nothing });
    try {
      const { page } = s;
      const text = await message(page, ".card");
      expect(text).toMatch(unreachable);
      expect(text).toContain(nothing);
      // Not connected: the card stays open, with the form to fix the URL.
      await card(page, "Connection", "Not connected").waitFor();
      await page.getByLabel("Service URL").waitFor();
      expect(s.problems.filter((p) => !/net::ERR_CONNECTION_REFUSED/.test(p))).toEqual([]);
    } finally {
      await s.context.close();
    }
  });

  test("a search while the service is down is 'Service unreachable', not a refusal", async () => {
    const s = await openPane({ [SETTING_KEYS.apiKey]: goodKey });
    try {
      const { page } = s;
      await card(page, "Connection", "Connected, Explorer plan").waitFor();
      await page.route("**/v1/commercial/sale-comps**", (route) => route.abort("connectionrefused"));
      await page.getByLabel("Search for").selectOption({ label: "Sale comps" });
      await page.getByLabel("Subject").fill(`${MARKET.city}, ${MARKET.state}`);
      await page.getByRole("button", { name: "Preview" }).click();
      const text = await message(page);
      expect(text).toMatch(unreachable);
      expect(text).toContain(base);
      await shot(page, "pane-unreachable");
      expect(s.problems.filter((p) => !/net::ERR_CONNECTION_REFUSED/.test(p))).toEqual([]);
    } finally {
      await s.context.close();
    }
  });
});

test("opened in a plain browser (no Office), the page says to open it from Excel and fails nothing", async () => {
  const { context, blocked } = await offlineContext(browser, { viewport: { width: 360, height: 600 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${base}/addin/taskpane.html`);
    await page.getByText("Open this pane from Excel").waitFor();
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
  } finally {
    await context.close();
  }
});
