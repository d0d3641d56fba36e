// Match a column and Link a table in Chromium, served by the real service, beside the stand-in
// Excel host. An analyst's rent roll names properties by street, city, state and ZIP (typed
// their own way) and has typed Year Built, Building SF and Occupancy columns. Matching shows the
// counts and the credits before anything is written; the ambiguous row offers its candidates;
// the inserted PROP.MATCH formulas answer from what was matched (no request, no credit); then
// Link a table shows how the typed values differ and replaces only the ticked column by live
// PROP.PROPERTY formulas. A one-column list of whole addresses goes in as values.
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { NO_MATCH_FILL } from "../../src/taskpane/match-column";
import { DIST, ensureAddinBuild } from "../addin/addin-build";
import { snapshotPath, startService } from "../helpers/service";
import { launchChromium } from "./chromium";
import { openConnectedPane, shot, taskMessage } from "./connected-pane";
import type { ExcelHost } from "./excel-host/host";

interface Row {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
  year_built: number;
  building_area_sqft: number;
  occupancy_rate: number;
}

let app: FastifyInstance;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let host: ExcelHost;
let props: Row[];
let apiCalls: string[];
let problems: string[];

beforeAll(async () => {
  await ensureAddinBuild();
  let key: string;
  ({ app, key } = await startService({ addinDir: DIST, email: "match@example.com" }));
  const db = new Database(snapshotPath(), { readonly: true });
  props = db
    .prepare(
      `SELECT id, address, city, state_code, zip, year_built, building_area_sqft, occupancy_rate FROM properties
       WHERE year_built IS NOT NULL AND building_area_sqft IS NOT NULL AND occupancy_rate IS NOT NULL ORDER BY id LIMIT 5`,
    )
    .all() as Row[];
  db.close();
  base = await app.listen({ host: "127.0.0.1", port: 0 });
  browser = await launchChromium();
  ({ context, page, host, apiCalls, problems } = await openConnectedPane(browser, base, key, true));
  await page.getByRole("tab", { name: "Match" }).click();
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.close();
});

afterEach(() => expect(problems).toEqual([]));

/** The text of the latest task message in `region`, title first. */
const message = (region: string) => taskMessage(page, region);

/** "Madison Ave" as an analyst types it: the suffix spelled out. */
const spelledOut = (street: string) =>
  street
    .replace(/ Ave$/, " Avenue")
    .replace(/ St$/, " Street")
    .replace(/ Blvd$/, " Boulevard");

test("match a table's address columns: counts and credits first, a candidate picked, formulas that cost nothing more", async () => {
  const [a, b, c, d, e] = props;
  await host.setCells("Sheet1", "A1", [
    ["Deal", "Street", "City", "State", "Zip Code", "Year Built", "Building SF", "Occupancy"],
    ["North", spelledOut(a.address), a.city, a.state_code, a.zip, a.year_built, a.building_area_sqft, a.occupancy_rate],
    [
      "East",
      b.address.toLowerCase(),
      b.city.toLowerCase(),
      b.state_code,
      Number(b.zip),
      b.year_built + 3,
      b.building_area_sqft,
      b.occupancy_rate,
    ],
    ["South", c.address, c.city, c.state_code, c.zip, c.year_built, Math.round(c.building_area_sqft * 1.1), c.occupancy_rate],
    ["West", d.address, "", "", "", d.year_built, d.building_area_sqft, d.occupancy_rate],
    ["Nowhere", "1 Invented Plaza Way", e.city, e.state_code, e.zip, 1999, 1000, 0.5],
  ]);
  await host.select("Sheet1!B1:E6");
  await page.getByRole("button", { name: "Read the selection" }).click();
  const columns = page.getByRole("group", { name: "Columns to match" });
  await columns.waitFor();
  await expect(columns.getByLabel("Street (B)").inputValue()).resolves.toBe("address");
  await expect(columns.getByLabel("City (C)").inputValue()).resolves.toBe("city");
  await expect(columns.getByLabel("State (D)").inputValue()).resolves.toBe("state");
  await expect(columns.getByLabel("Zip Code (E)").inputValue()).resolves.toBe("zip");
  await expect(page.locator(".match-columns .cost").innerText()).resolves.toMatch(/^Up to 5 credits \(\d[\d,]* left\)$/);

  const before = apiCalls.length;
  await page.getByRole("button", { name: "Match 5 addresses" }).click();
  await expect(message("#tab-panel .tab-body > .task-feedback")).resolves.toBe(
    "Nothing written yet 3 matched, 1 ambiguous, 1 unmatched. " +
      "4 credits charged (1 per address that names a property: matched, or ambiguous with candidates; unmatched rows are free).",
  );
  expect(apiCalls.slice(before)).toEqual(["POST /v1/commercial/properties/match"]);
  // Nothing is written before Insert.
  expect((await host.cells("Sheet1", "I1:L6")).flat().every((v) => v === "" || v === null)).toBe(true);

  // The row without city or ZIP is offered, not matched: its candidates include the property.
  const pick = page.getByLabel(`Row 5: ${d.address}`);
  await pick.selectOption(d.id);
  // The candidates' list keeps to the pane's width, however long an address.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await shot(page, "pane-match");
  const afterMatch = apiCalls.length;
  await page.getByRole("button", { name: "Insert 4 columns beside the table" }).click();
  await expect(message("#tab-panel .tab-body > .task-feedback")).resolves.toMatch(/^Inserted at Sheet1!I1:L6 /);
  await host.waitForCalculation();
  const inserted = await host.cells("Sheet1", "I1:L6");
  expect(inserted[0]).toEqual(["Property id", "Matched address", "Match score", "Match status"]);
  expect(inserted.slice(1, 4).map((r) => r[0])).toEqual([a.id, b.id, c.id]);
  expect(inserted[1][3]).toBe("matched");
  expect(inserted[4].slice(0, 1).concat(inserted[4][3])).toEqual([d.id, "picked"]);
  expect(await host.formulas("Sheet1", "I2:I3")).toEqual([["=PROP.MATCH($B2,$C2,$D2,$E2)"], ["=PROP.MATCH($B3,$C3,$D3,$E3)"]]);
  expect((await host.formulas("Sheet1", "J2"))[0][0]).toBe('=PROP.MATCH($B2,$C2,$D2,$E2,"cols=matched_address")');
  // The invented street: #N/A with why, its row shaded.
  expect((await host.cellInfo("Sheet1", "I6")).error).toBe("#N/A");
  expect((await host.cellInfo("Sheet1", "L6")).fill).toBe(NO_MATCH_FILL);
  expect((await host.cellInfo("Sheet1", "L2")).fill).toBeNull();
  // The formulas answered from what the match fetched: no request, no credit.
  expect(apiCalls.slice(afterMatch)).toEqual([]);

  // Matched again: answered from the cache, free; inserted right of what the block now holds.
  await host.select("Sheet1!B1:E6");
  await page.getByRole("button", { name: "Read the selection" }).click();
  await page.getByRole("button", { name: "Match 5 addresses" }).click();
  await expect(message("#tab-panel .tab-body > .task-feedback")).resolves.toMatch(/0 credits charged/);
  await page.getByRole("button", { name: "Insert 4 columns beside the table" }).click();
  await expect(message("#tab-panel .tab-body > .task-feedback")).resolves.toMatch(/^Inserted at Sheet1!M1:P6 /);
});

test("link the table: differences shown first, only the ticked column replaced by live formulas", async () => {
  const [a, , c] = props;
  await host.select("Sheet1!A1");
  const link = page.getByRole("group", { name: "Link a table" });
  await link.getByRole("button", { name: "Read the table" }).click();
  // Read when it has arrived (the closing text replaces "Reading the table…").
  await link.getByText(/^Property ids in column/).waitFor();
  await expect(link.innerText()).resolves.toMatch(
    /Property ids in column I \(4 of 5 rows, 4 properties\)\. Linked columns: Year Built, Building SF, Occupancy\./,
  );
  await link.getByRole("button", { name: "Compare with the data" }).click();
  const yearBuilt = link.getByRole("checkbox", { name: /in Year Built/ });
  await yearBuilt.waitFor();
  // One row's year differs by 3; one row's area by 10%.
  await expect(link.locator(".link-summary").nth(0).innerText()).resolves.toMatch(/1 differ/);
  await expect(link.locator(".link-summary").nth(1).innerText()).resolves.toMatch(/1 .*differ/);
  await yearBuilt.check();
  await link.getByRole("button", { name: "Replace the ticked columns" }).scrollIntoViewIfNeeded();
  await shot(page, "pane-link");
  // A value edited after it was read is not the one the analyst saw compared: it is left alone.
  await host.setCells("Sheet1", "F3", [[1900]]);
  await link.getByRole("button", { name: "Replace the ticked columns" }).click();
  await expect(message(".link-table")).resolves.toBe(
    "3 values replaced by live formulas In Year Built. 1 cell changed since they were read and was left alone.",
  );
  await host.waitForCalculation();
  expect(await host.formulas("Sheet1", "F2:F3")).toEqual([['=PROP.PROPERTY($I2,"year_built")'], [1900]]);
  expect((await host.cells("Sheet1", "F2:F5")).map((r) => r[0])).toEqual([a.year_built, 1900, c.year_built, props[3].year_built]);
  // Not ticked: Building SF keeps the typed values, the mistyped one included; the unmatched row keeps its year.
  expect((await host.cells("Sheet1", "G4"))[0][0]).toBe(Math.round(c.building_area_sqft * 1.1));
  expect((await host.formulas("Sheet1", "F6"))[0][0]).toBe(1999);
});

test("one column of whole addresses, no header, a blank row between them, inserted as values", async () => {
  const [a, b] = props;
  await host.setCells("Sheet1", "A20", [
    [`${a.address}, ${a.city}, ${a.state_code} ${a.zip}`],
    [""],
    [`${b.address} ${b.city} ${b.state_code}`],
  ]);
  await host.select("Sheet1!A20:A22");
  await page.getByRole("button", { name: "Read the selection" }).click();
  await expect(page.getByRole("group", { name: "Columns to match" }).getByLabel("Column A").inputValue()).resolves.toBe("address");
  // The blank row does not end the rows read: both addresses are matched, the blank one skipped.
  await expect(page.getByRole("group", { name: "Columns to match" }).innerText()).resolves.toMatch(
    /3 rows of Sheet1!A20:A22 \(1 blank, skipped\)\./,
  );
  await page.getByRole("button", { name: "Match 2 addresses" }).click();
  await expect(message("#tab-panel .tab-body > .task-feedback")).resolves.toMatch(
    /^Nothing written yet 2 matched, 0 ambiguous, 0 unmatched\. 1 blank row skipped\./,
  );
  await page.getByRole("radio", { name: "As values" }).check();
  await page.getByRole("button", { name: "Insert 4 columns beside the table" }).click();
  await expect(message("#tab-panel .tab-body > .task-feedback")).resolves.toMatch(/^Inserted at Sheet1!B20:E22 /);
  const cells = await host.cells("Sheet1", "B20:E22");
  expect(cells.map((r) => [r[0], r[3]])).toEqual([
    [a.id, "matched"],
    ["", ""],
    [b.id, "matched"],
  ]);
  expect(await host.formulas("Sheet1", "B20")).toEqual([[a.id]]);
});
