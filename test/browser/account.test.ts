// The account area in a real browser: sign up, create a key, see it once, call the API with it
// from Node, watch usage go up, revoke it, get 401. The service listens on a loopback port.
// With UPDATE_SCREENSHOTS=1 it also writes the screenshots in docs/screenshots/.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { parseKey } from "../../src/contract/api-key-format";
import { type TestService, startService } from "../helpers/service";
import { launchChromium, offlineContext } from "./chromium";

const SHOTS = path.join(__dirname, "../../docs/screenshots");
const updateScreenshots = process.env.UPDATE_SCREENSHOTS === "1";

let app: FastifyInstance;
let base: string;
let browser: Browser;
let propertyId: string;
let svc: TestService;

beforeAll(async () => {
  const built = await startService({ email: null });
  app = built.app;
  svc = built;
  propertyId = built.snapshot.prepare("SELECT id FROM properties ORDER BY id LIMIT 1").pluck().get() as string;
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function shot(page: Page, name: string) {
  if (updateScreenshots) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const api = (key: string, url: string) => fetch(base + url, { headers: { authorization: `Bearer ${key}` } });

test("sign up, create a key, see it once, use it, watch usage go up, revoke it, get 401", async () => {
  const { context, blocked } = await offlineContext(browser, { viewport: { width: 1100, height: 760 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();
  const problems: string[] = [];
  // CSP violations and script errors land here; the 400 of the deliberately bad sign-up does not count.
  page.on("console", (m) => m.type() === "error" && !/status of 400/.test(m.text()) && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));

  // Sign up.
  await page.goto(`${base}/account/signup`);
  await shot(page, "sign-up");
  await page.getByLabel("Email").fill("analyst@example.com");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expectText(page, "#password-error", "Use at least 12 characters (you have 5).");
  expect(await page.getByLabel("Email").inputValue()).toBe("analyst@example.com");
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${base}/account`);
  expect(await page.textContent("h1")).toBe("API keys");

  // Create a key: shown once, copyable.
  await page.getByLabel("Name this integration").fill("Underwriting model");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.waitForURL(`${base}/account#new-key`);
  const key = await page.locator("#new-key-value").inputValue();
  expect(parseKey(key)).not.toBeNull();
  await expect(page.getByText("It cannot be shown again", { exact: false }).isVisible()).resolves.toBe(true);
  await page.getByRole("button", { name: "Copy" }).click();
  await expectText(page, "#copy-status", "Copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await shot(page, "api-keys");

  await page.reload();
  expect(await page.locator("#new-key-value").count()).toBe(0);
  expect(await page.content()).not.toContain(key.slice(24, -4));
  const row = page.locator("table.keys tbody tr");
  expect(await row.count()).toBe(1);
  expect(await row.locator("td").first().textContent()).toBe("Underwriting model");
  expect(await row.textContent()).toContain(parseKey(key)!.keyId);

  // Use it from Node, as a script or the add-in would.
  const detail = await api(key, `/v1/commercial/properties/${propertyId}`);
  expect(detail.status).toBe(200);
  expect(detail.headers.get("x-credits-charged")).toBe("1");
  expect((await detail.json()).id).toBe(propertyId);

  // Usage went up by the call's cost.
  await page.getByRole("link", { name: "Usage" }).click();
  await page.waitForURL(`${base}/account/usage`);
  expect(await page.textContent("#credits-used")).toBe("1");
  expect(await page.textContent("#credits-remaining")).toBe("999");
  expect(await page.locator("table tbody tr").first().textContent()).toContain("GET /v1/commercial/properties/{property_id}");
  await shot(page, "usage");

  // Revoke: the next request with the key is refused.
  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByRole("link", { name: /^Revoke/ }).click();
  await page.getByRole("button", { name: "Revoke key" }).click();
  await page.waitForURL(/\/account\?revoked=/);
  await expectText(page, ".alert.ok", /is revoked/);
  const refused = await api(key, `/v1/commercial/properties/${propertyId}`);
  expect(refused.status).toBe(401);
  expect((await refused.json()).code).toBe("invalid_api_key");

  // Log out: the account pages need logging in again.
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL(`${base}/account/login?bye=1`);
  await page.goto(`${base}/account/usage`);
  expect(page.url()).toBe(`${base}/account/login?next=/account/usage`);

  expect(problems).toEqual([]);
  expect(blocked).toEqual([]);
  await context.close();
});

test("the pages work on a phone-sized screen and every form field has a label", async () => {
  const { context } = await offlineContext(browser, { viewport: { width: 375, height: 700 }, isMobile: true });
  const page = await context.newPage();
  const visited: string[] = [];
  for (const url of ["/", "/account/signup", "/account/login", "/docs/api", "/account", "/account/usage"]) {
    if (url === "/account") {
      // The signed-in pages: sign up on the phone first.
      await page.goto(`${base}/account/signup`);
      await page.getByLabel("Email").fill("phone@example.com");
      await page.getByLabel("Password").fill("correct horse battery staple");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.waitForURL(`${base}/account`);
    }
    await page.goto(base + url);
    if (url === "/docs/api") await page.waitForSelector(".opblock"); // the reference, rendered
    visited.push(new URL(page.url()).pathname);
    // Nothing wider than the screen (tables and code examples scroll inside their box).
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect({ url, fits: width <= 375 }).toEqual({ url, fits: true });
    const unlabelled = await page.evaluate(() =>
      Array.from(document.querySelectorAll("input:not([type=hidden]), select, textarea"))
        .filter((i) => !(i as HTMLInputElement).labels?.length)
        .map((i) => i.id),
    );
    expect(unlabelled).toEqual([]);
  }
  expect(visited).toEqual(["/", "/account/signup", "/account/login", "/docs/api", "/account", "/account/usage"]);
  await context.close();
});

test("the API reference renders every operation of the OpenAPI document from the service alone, and tries a call", async () => {
  const { context, blocked } = await offlineContext(browser, { viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const requested: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("request", (r) => requested.push(new URL(r.url()).origin));

  await page.goto(`${base}/docs/api`);
  await page.waitForSelector(".opblock");
  const doc = await (await fetch(`${base}/v1/openapi.json`)).json();
  const operationIds = Object.values<any>(doc.paths).flatMap((methods) => Object.values<any>(methods).map((op) => op.operationId));
  expect(await page.locator(".opblock").count()).toBe(operationIds.length);
  for (const id of operationIds) expect(await page.locator(`.opblock-summary-operation-id:text-is("${id}")`).count()).toBe(1);
  expect(await page.textContent("#api-reference")).not.toContain("needs JavaScript");
  await shot(page, "api-reference");

  // Authorize with a key, try a free call: the page reaches this service (connect-src 'self').
  const key = (await svc.keys.createKey((await svc.accounts.create("reference@example.com")).id, "reference")).raw;
  await page
    .getByRole("button", { name: /Authorize/ })
    .first()
    .click();
  await page.getByLabel("auth-bearer-value").fill(key);
  await page.getByRole("button", { name: "Apply credentials" }).click();
  await page.locator(".modal-ux .btn-done").first().click();
  const coverage = page.locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/v1/commercial/coverage"]') });
  await coverage.locator(".opblock-summary").click();
  await coverage.getByRole("button", { name: "Try it out" }).click();
  await coverage.getByRole("button", { name: "Execute" }).click();
  await coverage.locator(".live-responses-table tr.response .response-col_status").first().waitFor();
  expect((await coverage.locator(".live-responses-table tr.response .response-col_status").first().textContent())?.trim()).toBe("200");

  expect(problems).toEqual([]);
  expect(blocked).toEqual([]);
  expect([...new Set(requested)]).toEqual([base]);
  await context.close();
});

async function expectText(page: Page, selector: string, text: string | RegExp) {
  await page.waitForSelector(selector);
  const actual = (await page.textContent(selector))?.trim() ?? "";
  if (typeof text === "string") expect(actual).toBe(text);
  else expect(actual).toMatch(text);
}
