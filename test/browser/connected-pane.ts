// The built pane opened in Chromium with a key already saved, beside the stand-in Excel host:
// the pane checks the key with one free call and shows its tabs. Records every /v1 request the
// page makes and every page error, for the tests to assert on.
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { SETTING_KEYS } from "../../src/shared/setting-keys";
import { DIST } from "../addin/addin-build";
import { offlineContext } from "./chromium";
import { type ExcelHost, installExcelHost } from "./excel-host/host";

export interface ConnectedPane {
  context: BrowserContext;
  page: Page;
  host: ExcelHost;
  /** Every /v1 request the page made, as "METHOD path". */
  apiCalls: string[];
  /** Page errors, console errors and requests blocked from leaving the machine. */
  problems: string[];
}

/** With `showGrid`, the stand-in draws the sheet beside the pane (for screenshots). */
export async function openConnectedPane(browser: Browser, base: string, key: string, showGrid = false): Promise<ConnectedPane> {
  const offline = await offlineContext(browser, { viewport: { width: 1100, height: 900 }, reducedMotion: "reduce" });
  const { context } = offline;
  const page = await context.newPage();
  const apiCalls: string[] = [];
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/v1/")) apiCalls.push(`${r.method()} ${url.pathname}`);
  });
  const host = await installExcelHost(page, {
    functionsJson: path.join(DIST, "functions.json"),
    storage: { [SETTING_KEYS.apiKey]: key },
    showGrid,
  });
  await page.goto(`${base}/addin/taskpane.html`);
  await page.getByLabel("Search for").waitFor();
  problems.push(...offline.blocked);
  return { context, page, host, apiCalls, problems };
}

const SHOTS = path.join(__dirname, "../../docs/screenshots");

/** With UPDATE_SCREENSHOTS=1, writes what the page shows to docs/screenshots/`name`.png. */
export async function shot(page: Page, name: string) {
  if (process.env.UPDATE_SCREENSHOTS !== "1") return;
  // Transitions still running (a card's chevron turning) finish first; one cancelled meanwhile is done too.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => a))));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/**
 * The latest task message in `region` as a reader hears it: its title, a space, then its text
 * (the title is its own element, so innerText alone runs the two together).
 */
export async function taskMessage(page: Page, region = "#tab-panel"): Promise<string> {
  const bar = page.locator(region).locator(".task-message").last();
  await bar.waitFor();
  const title = (await bar.locator(".fui-MessageBarTitle").innerText()).trim();
  const all = (await bar.innerText()).replace(/\s+/g, " ").trim();
  return `${title} ${all.slice(title.length).trim()}`;
}
