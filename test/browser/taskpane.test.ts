// The task pane as a user meets it: the built pane page served by the real service, in
// Chromium, with the stand-in Excel host (test/browser/excel-host/) holding the workbook.
// One journey, step by step: connect with a bad key and a good one, find sale comps for a
// market and insert them (as a table and as a formula), compare three selected rows, refresh
// the model, freeze it, and run out of credits. With UPDATE_SCREENSHOTS=1 each step writes a
// screenshot of pane and sheet into docs/screenshots/.
//
// The snapshot is a copy of the test snapshot whose comps for one market carry text that Excel
// would read as a formula (=, +, -, @): it must land in cells as text.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/server/app";
import { openAccountsDb } from "../../src/server/auth/accounts-db";
import { KeyStore } from "../../src/server/auth/key-store";
import { periodEnd, periodOf } from "../../src/server/credits/plans";
import { SETTING_KEYS } from "../../src/shared/setting-keys";
import { openSnapshot } from "../../src/snapshot/snapshot-file";
import { columnLetters } from "../../src/taskpane/excel-addresses";
import { formatDay } from "../../src/taskpane/status-text";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { snapshotPath } from "../helpers/service";
import { launchChromium, offlineContext } from "./chromium";
import { type ExcelHost, installExcelHost } from "./excel-host/host";

const SHOTS = path.join(__dirname, "../../docs/screenshots");
const MARKET = { city: "New York City", state: "NY", asset: "multifamily" };
const RISKY = { buyer: '=HYPERLINK("http://evil.example","click")', seller: "@SUM(1,2)", name: "+1 Main St", broker: "-Brokers" };

let app: FastifyInstance;
let base: string;
let browser: Browser;
let keys: KeyStore;
let accountsDb: ReturnType<typeof openAccountsDb>;
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
  accountsDb = openAccountsDb(":memory:");
  const pepper = crypto.randomBytes(32);
  app = buildApp({ snapshotDb: openSnapshot(riskySnapshot()), accountsDb, pepper, addinDir: DIST });
  keys = new KeyStore(accountsDb, pepper);
  goodKey = keys.createKey(keys.createAccount("pane@example.com").id, "pane test").raw;
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
 * pane width beside the grid, or alone at `width` pixels.
 */
async function openPane(storage: Record<string, string> = {}, width?: number): Promise<Session> {
  const { context, blocked } = await offlineContext(browser, { viewport: { width: width ?? 1100, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const apiCalls: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => m.type() === "error" && !/status of (401|402|404)/.test(m.text()) && problems.push(m.text()));
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/v1/")) apiCalls.push(`${r.method()} ${url.pathname}`);
  });
  const host = await installExcelHost(page, { functionsJson: path.join(DIST, "functions.json"), storage, showGrid: width === undefined });
  await page.goto(`${base}/addin/taskpane.html`);
  await page.getByRole("heading", { name: "Property Intelligence" }).waitFor();
  problems.push(...blocked);
  return { context, page, host, apiCalls, problems };
}

/** Waits (up to 10 s) for something the page does asynchronously. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 10_000) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function shot(page: Page, name: string) {
  if (process.env.UPDATE_SCREENSHOTS === "1") await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** The text of a task's closing message in the tab panel (or in `region`, e.g. "section.card"). */
async function message(page: Page, region = "#tab-panel"): Promise<string> {
  const bar = page.locator(region).locator(".task-message").last();
  await bar.waitFor();
  // The title is its own element: join it to the sentence with a space, as a reader hears it.
  const title = (await bar.locator(".fui-MessageBarTitle").innerText()).trim();
  const all = (await bar.innerText()).replace(/\s+/g, " ").trim();
  return `${title} ${all.slice(title.length).trim()}`;
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
    await page.getByRole("button", { name: "Connect" }).click();
    await expect(message(page, "section.card")).resolves.toMatch(/checksum/);
    expect(s.apiCalls).toEqual([]);
    await shot(page, "pane-connect-error");

    await page.getByLabel("API key").fill(goodKey);
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByText(`Connected to ${base}`).waitFor();
    // One free call checks the key; the search forms then load the free catalog.
    await page.getByLabel("Search for").waitFor();
    await until(() => s.apiCalls.length >= 2);
    expect(s.apiCalls).toEqual(["GET /v1/commercial/coverage", "GET /v1/commercial/catalog"]);
    // The key is in OfficeRuntime.storage, and nowhere in the workbook or the page.
    await expect(page.evaluate((k) => OfficeRuntime.storage.getItem(k), SETTING_KEYS.apiKey)).resolves.toBe(goodKey);
    expect(await page.content()).not.toContain(goodKey);
    const status = page.locator("section.status");
    await expect(status.innerText()).resolves.toMatch(/Explorer plan[\s\S]*1,000 of 1,000 credits left\. Resets \d+ \w+ \d{4}\./);
    await expect(status.locator(".snapshot").innerText()).resolves.toMatch(/^Snapshot \S+, captured \d+ \w+ \d{4}$/);
    await shot(page, "pane-connected");
  });

  test("search: sale comps for a market, previewed, then inserted as a table; formula-like text stays text", async () => {
    const { page, host } = s;
    await page.getByLabel("Search for").selectOption({ label: "Sale comps" });
    await page.getByLabel("Subject").fill(`${MARKET.city}, ${MARKET.state}`);
    await page.getByLabel("Asset type").selectOption(MARKET.asset);
    await page.getByLabel("Rows").fill("10");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("table", { name: "Preview of the results" });
    await preview.waitFor();
    expect(await preview.locator("tbody tr").count()).toBeGreaterThanOrEqual(3);
    await expect(page.locator(".preview").innerText()).resolves.toMatch(/^10 rows fetched/);

    await host.select("Sheet1!A1");
    await page.getByRole("button", { name: "Insert", exact: true }).click();
    await expect(message(page)).resolves.toMatch(/^Table inserted 10 rows at Sheet1!A1:[A-Z]+11\.$/);
    const [table] = await host.tables();
    tableAddress = table.address;
    expect(table.address).toMatch(/^Sheet1!A1:[A-Z]+11$/);
    const cells = await host.cells(null, table.address);
    const header = cells[0] as string[];
    for (const column of ["property_id", "sale_date", "sale_price", "buyer_name"]) expect(header).toContain(column);
    // Formula-like text from the data is text in the cell: no formula, shown as it was.
    const buyer = await host.cellInfo("Sheet1", `${columnLetters(header.indexOf("buyer_name"))}2`);
    expect(buyer).toMatchObject({ formula: null, value: RISKY.buyer, prefixed: true });
    // Every formula-like text of the data is in the table, each as text (no formula in its cell).
    const risky: Array<[string, string]> = [];
    cells.forEach((row, r) => row.forEach((v, c) => typeof v === "string" && /^[=+\-@]/.test(v) && risky.push([`${columnLetters(c)}${r + 1}`, v])));
    expect(new Set(risky.map(([, v]) => v))).toEqual(new Set([RISKY.buyer, RISKY.seller, RISKY.name, RISKY.broker]));
    for (const [address] of risky) expect(await host.cellInfo("Sheet1", address)).toMatchObject({ formula: null, prefixed: true });
    await shot(page, "pane-search");
  });

  test("insert as formula: the same rows from the cache, no further credits", async () => {
    const { page, host } = s;
    const callsBefore = s.apiCalls.length;
    await host.select("Sheet1!A20");
    await page.getByRole("button", { name: "Insert as formula" }).click();
    await expect(message(page)).resolves.toMatch(/^Formula inserted =PROP\.SALECOMPS\("New York City, NY","multifamily","limit=10"\) at Sheet1!A20\./);
    await host.waitForCalculation();
    const anchor = await host.cellInfo("Sheet1", "A20");
    expect(anchor.error).toBeNull();
    const spill = await host.cells(null, anchor.spillRange!);
    const table = await host.cells(null, tableAddress);
    // The table holds what the formula spills: the same text (dates and all), the same numbers.
    expect(spill).toEqual(table);
    expect(s.apiCalls.length).toBe(callsBefore);
    await expect(page.locator("section.status").innerText()).resolves.toMatch(/998 of 1,000 credits left/);
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
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(message(page)).resolves.toMatch(/^1 of 2 formulas failed The snapshot is unchanged/);
    const failures = page.getByRole("list", { name: "Formulas that failed" });
    await expect(failures.innerText()).resolves.toMatch(/Sheet1!A40\s+#N\/A\s+There is no commercial property 'cp_doesnotexist'/);
    // One free snapshot check; everything else answered from the cache.
    expect(s.apiCalls.slice(callsBefore)).toEqual(["GET /v1/commercial/coverage"]);
    await expect(page.locator(".last-refresh").innerText()).resolves.not.toBe("never");
    await expect(page.locator(".refresh-cost").innerText()).resolves.toMatch(/free|0 credits/i);
    await shot(page, "pane-refresh");
  });

  test("freeze the formula: values stay, the formula goes, a note keeps formula and snapshot", async () => {
    const { page, host } = s;
    const spillRange = (await host.cellInfo("Sheet1", "A20")).spillRange!;
    const before = await host.cells(null, spillRange);
    await host.select("Sheet1!A20");
    await page.getByRole("tab", { name: "Freeze" }).click();
    await page.getByRole("button", { name: "Freeze selection as values" }).click();
    await page.getByRole("button", { name: "Yes, freeze them" }).click();
    await expect(message(page)).resolves.toMatch(/^1 formula frozen /);
    await expect(page.getByRole("button", { name: "Freeze selection as values" }).isEnabled()).resolves.toBe(true);
    expect(await host.cellInfo("Sheet1", "A20")).toMatchObject({ formula: null, spillParent: null });
    expect(await host.cells(null, spillRange)).toEqual(before);
    const note = (await host.comments()).find((c) => c.address === "Sheet1!A20");
    expect(note?.content).toMatch(/^Frozen as values on .* UTC by Property Intelligence\. Formula was: =PROP\.SALECOMPS\(.*\) Data: snapshot \S+, captured /);
    // Frozen text that looks like a formula is still text.
    const buyer = before[0].indexOf("buyer_name"); // the spill starts at A20: its first record is row 21
    expect(await host.cellInfo("Sheet1", `${columnLetters(buyer)}21`)).toMatchObject({ formula: null, value: RISKY.buyer });
    await shot(page, "pane-freeze");
  });

  test("sign out removes the key and the cached results", async () => {
    const { page } = s;
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(message(page, "section.card")).resolves.toMatch(/^Signed out/);
    await expect(page.evaluate((k) => OfficeRuntime.storage.getItem(k), SETTING_KEYS.apiKey)).resolves.toBeNull();
    await page.getByLabel("API key").waitFor();
  });
});

test("out of credits: the status says so, and a search explains when credits come back", async () => {
  const account = keys.createAccount("spent@example.com");
  const key = keys.createKey(account.id, "spent").raw;
  accountsDb.prepare("INSERT INTO credit_usage (account_id, period, used) VALUES (?, ?, ?)").run(account.id, periodOf(new Date()), 1000);
  const s = await openPane({ [SETTING_KEYS.apiKey]: key });
  try {
    const { page } = s;
    // The saved key is checked on opening, with the free call.
    await page.getByText(`Connected to ${base}`).waitFor();
    const status = page.locator("section.status");
    await expect(status.innerText()).resolves.toMatch(/0 of 1,000 credits left[\s\S]*Out of credits/);
    await page.getByLabel("Search for").selectOption({ label: "Sale comps" });
    await page.getByLabel("Subject").fill(`${MARKET.city}, ${MARKET.state}`);
    await page.getByRole("button", { name: "Preview" }).click();
    const reset = formatDay(periodEnd(new Date()).toISOString());
    await expect(message(page)).resolves.toBe(
      `Out of credits This call costs 2 credits and 0 of the Explorer plan's 1000 monthly credits are left. Credits come back on ${reset}.`,
    );
    expect(await page.getByRole("table", { name: "Preview of the results" }).count()).toBe(0);
    await shot(page, "pane-out-of-credits");
    expect(s.problems).toEqual([]);
  } finally {
    await s.context.close();
  }
});

test("at the narrowest pane width (320 px), nothing spills sideways, and it all works from the keyboard", async () => {
  const s = await openPane({}, 320);
  const overflow = () => s.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  try {
    const { page } = s;
    expect(await overflow()).toBe(0);
    // Connect without a mouse: the key box, then Enter submits the form.
    await page.getByLabel("API key").focus();
    await page.keyboard.type(goodKey);
    await page.keyboard.press("Enter");
    await page.getByText(`Connected to ${base}`).waitFor();
    expect(await overflow()).toBe(0);
    // The tabs: arrow keys move between them, Enter/Space selects, Tab goes into the panel.
    await page.getByRole("tab", { name: "Search" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("tab", { name: "Compare" }).getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe("Compare selected rows");
    for (const tab of ["Refresh", "Freeze", "Search"]) {
      await page.getByRole("tab", { name: tab }).click();
      expect(await overflow()).toBe(0);
    }
    expect(s.problems).toEqual([]);
  } finally {
    await s.context.close();
  }
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
