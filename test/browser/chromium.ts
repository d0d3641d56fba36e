// Chromium under playwright-core, offline: every request that is not to this machine is
// aborted, so a page can never reach the internet (and a test never depends on it).
//
// The browser is the one the @sparticuz/chromium package ships (unpacked into the temp folder
// by the test run's global setup), so `npm install` is all a machine needs for these tests; set
// CHROMIUM_PATH to drive another Chromium (Debian's /usr/bin/chromium, say).
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import packagedChromium from "@sparticuz/chromium";

/** Where the packaged Chromium is unpacked (once per machine; later calls find it there). */
export function packagedChromiumPath(): Promise<string> {
  return packagedChromium.executablePath();
}

/**
 * The fonts the packaged Chromium brings (unpacked beside it into the temp folder). Layout
 * tests measure text, so the packaged browser is given these and never the machine's own:
 * the same pixels on every machine, whatever fonts it happens to have installed.
 */
const PACKAGED_FONTS = path.join(os.tmpdir(), "fonts");

export async function launchChromium(): Promise<Browser> {
  const ownChromium = process.env.CHROMIUM_PATH;
  const executablePath = ownChromium || (await packagedChromiumPath());
  return chromium.launch({
    executablePath,
    env: ownChromium ? process.env : { ...process.env, FONTCONFIG_PATH: PACKAGED_FONTS },
    args: [
      "--no-sandbox",
      "--no-zygote",
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
