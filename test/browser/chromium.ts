// Debian's Chromium under playwright-core, offline: every request that is not to this machine
// is aborted, so a page can never reach the internet (and a test never depends on it).
import fs from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** A context whose requests leave the machine never; returns the list of what was blocked. */
export async function offlineContext(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) {
  const context: BrowserContext = await browser.newContext(options);
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if ((url.protocol === "http:" || url.protocol === "https:") && LOOPBACK.has(url.hostname)) return route.continue();
    blocked.push(url.href);
    return route.abort();
  });
  return { context, blocked };
}
