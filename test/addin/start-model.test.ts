// The starter model's template, calculated against the real service through the built
// functions.js: every formula is a PROP call the functions accept (none is an error but where the
// subject's record lacks the figure), its first calculation is charged exactly what the pane
// estimates (modelCost), and the comp grid's Excel formulas compute from the comps it spills.
import * as fs from "node:fs";
import * as path from "node:path";
import { modelCost, modelTemplate, type ModelTemplate } from "../../src/contract/model-template";
import { MODEL_COMPS, RECENT_MONTHS } from "../../src/contract/model-comps";
import { haversineMiles } from "../../src/server/data/stats";
import { DIST, ensureAddinBuild } from "./addin-build";
import { loadFunctionsBundle, type LoadedBundle } from "./bundle-harness";
import { CellError, calculate } from "./model-calculation";
import { pick, startService, type TestService, listenOnLoopback } from "../helpers/service";

let svc: TestService;
let origin: string;
let matrixParams: Map<string, Set<number>>;

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
  const metadata = JSON.parse(fs.readFileSync(path.join(DIST, "functions.json"), "utf8")) as {
    functions: Array<{ id: string; parameters: Array<{ dimensionality?: string }> }>;
  };
  matrixParams = new Map(
    metadata.functions.map((f) => [f.id, new Set(f.parameters.flatMap((p, i) => (p.dimensionality === "matrix" ? [i] : [])))]),
  );
}, 240_000);

afterAll(() => svc?.app.close());

async function freshBundle(): Promise<LoadedBundle> {
  const account = await svc.accounts.create(`start-model-${Math.random().toString(36).slice(2)}@example.com`);
  return loadFunctionsBundle({ origin, apiKey: (await svc.keys.createKey(account.id, "model")).raw });
}

const charged = (b: LoadedBundle) => b.calls.reduce((n, c) => n + (c.charged ?? 0), 0);
const run = (template: ModelTemplate, b: LoadedBundle) => calculate(template, (name, args) => b.call(name, args), matrixParams);

/** A subject with everything the model shows: a metro, an owner, a last sale, comps and leases running on. */
function subjectWithEverything(): string {
  return pick(
    svc,
    `SELECT p.id FROM properties p
      WHERE p.metro_id IS NOT NULL AND p.owner_id IS NOT NULL AND p.last_sale_price IS NOT NULL AND p.building_area_sqft IS NOT NULL
        AND EXISTS (SELECT 1 FROM tenancies t WHERE t.property_id = p.id AND t.lease_expiration >= '2027-01-01')
      ORDER BY (SELECT count(*) FROM sales s WHERE s.asset_type = p.asset_type AND s.city = p.city AND s.state_code = p.state_code) DESC,
        p.id LIMIT 1`,
  ).id;
}

test("every formula of the model calculates for a real subject, and the first calculation costs what the pane says", async () => {
  const id = subjectWithEverything();
  const record = JSON.parse((await svc.get(`/v1/commercial/properties/${id}`)).body) as Record<string, unknown>;
  const template = modelTemplate({ propertyId: id });
  const b = await freshBundle();
  const t0 = Date.now();
  const sheet = await run(template, b);
  const estimate = modelCost(template);

  // No PROP cell is an error, but a profile field the record does not hold ("not recorded").
  const errors = sheet.propCells.filter((c) => c.result instanceof CellError);
  for (const e of errors) {
    const field = /PROP\.PROPERTY\([^,]+,"([a-z_]+)"\)/.exec(e.formula)?.[1];
    expect({ formula: e.formula, recorded: field ? record[field] : "(not a field)" }).toEqual({ formula: e.formula, recorded: null });
  }
  expect(sheet.propCells).toHaveLength(
    template.sheets.flatMap((s) => s.cells.flat()).filter((c) => typeof c === "object" && c?.formula.includes("PROP.")).length,
  );

  // What the pane estimated is what the service charged, request for request.
  expect(charged(b)).toBe(estimate.credits);
  expect(b.calls).toHaveLength(estimate.requests);
  expect(b.calls.every((c) => c.status === 200)).toBe(true);
  expect(estimate.credits).toBe(11);
  console.log(`model first calculation: ${b.calls.length} requests, ${charged(b)} credits, ${Date.now() - t0} ms`);

  // The places put together from the subject's fields are the markets the service holds.
  const market = sheet.propCells.filter((c) => c.formula.startsWith("=PROP.MARKET("));
  expect(market.map((c) => c.spill?.at(-1)?.[0])).toEqual([
    `${String(record.city)}, ${String(record.state_code)}`,
    expect.stringContaining(String(record.county)),
    record.metro_name,
  ]);

  // The comp grid: ten comps under the header, their adjusted prices equal to their prices while
  // no adjustment is filled, and the statistics over the numbers only.
  const comps = template.sheets[1].name;
  const spill = sheet.propCells.find((c) => c.formula.startsWith("=PROP.SALECOMPS("))!.spill!;
  expect(spill).toHaveLength(1 + MODEL_COMPS); // a subject in the city with the most sales of its kind has ten
  const prices = spill.slice(1).map((r) => r[3]);
  const numeric = prices.filter((p): p is number => typeof p === "number");
  expect(sheet.value(comps, 20, 1)).toBe(numeric.length);
  expect(sheet.value(comps, 21, 1)).toBeCloseTo(numeric.reduce((a, c) => a + c, 0) / numeric.length, 6);
  spill.slice(1).forEach((row, i) => expect(sheet.value(comps, 8 + i, 18)).toBe(typeof row[3] === "number" ? row[3] : ""));
  // The months since each sale (the spill's last column), and the line saying whether the grid
  // had to reach past the last 36 months.
  const months = spill.slice(1).map((r) => r[10]);
  expect(months.every((m) => typeof m === "number" && Number.isInteger(m) && m >= 0)).toBe(true);
  const older = (months as number[]).filter((m) => m > RECENT_MONTHS).length;
  expect(sheet.value(comps, 27, 0)).toBe(
    older === 0
      ? `All ${months.length} comps sold within ${RECENT_MONTHS} months of the data's capture date.`
      : `${older} of ${months.length} comps sold more than ${RECENT_MONTHS} months before the capture date: fewer recent sales matched, so the grid widened to older ones. Adjust them for market conditions.`,
  );

  // The history: forty quarters of the metro, the rent column the asset type's own.
  const history = sheet.propCells.find((c) => c.formula.startsWith("=PROP.MARKETHISTORY("))!.spill!;
  expect(history).toHaveLength(41);
  expect(history[0].slice(1)).toEqual([
    expect.stringMatching(/^asking_rent_(sqft_year|unit_month)$|Asking rent/),
    expect.anything(),
    expect.anything(),
  ]);
  expect(history.slice(1).filter((r) => typeof r[1] === "number").length).toBeGreaterThan(30);

  // The tenants: the leases running on, each a named tenant.
  const tenants = sheet.propCells.find((c) => c.formula.startsWith("=PROP.HISTORY("))!.spill!;
  expect(tenants.length).toBeGreaterThan(1);
  expect(tenants.slice(1).every((r) => typeof r[0] === "string" && r[0] !== "")).toBe(true);
}, 60_000);

test("the adjustments the analyst types move the adjusted prices and their statistics", async () => {
  const template = modelTemplate({ propertyId: subjectWithEverything() });
  const comps = template.sheets[1];
  // +10% location and -5% condition on every comp: +5% in all.
  for (let row = 8; row < 8 + MODEL_COMPS; row++) {
    comps.cells[row][13] = 0.1;
    comps.cells[row][16] = -0.05;
  }
  const sheet = await run(template, await freshBundle());
  const rows = Array.from({ length: MODEL_COMPS }, (_, i) => 8 + i);
  const priced = rows.filter((row) => typeof sheet.value(comps.name, row, 3) === "number");
  expect(priced.length).toBeGreaterThan(1);
  for (const row of rows) {
    const price = sheet.value(comps.name, row, 3);
    expect(sheet.value(comps.name, row, 17)).toBeCloseTo(0.05, 9);
    if (typeof price === "number") expect(sheet.value(comps.name, row, 18)).toBeCloseTo(price * 1.05, 6);
    else expect(sheet.value(comps.name, row, 18)).toBe("");
  }
  const adjusted = priced.map((row) => (sheet.value(comps.name, row, 3) as number) * 1.05).sort((a, b) => a - b);
  expect(sheet.value(comps.name, 20, 2)).toBe(priced.length);
  expect(sheet.value(comps.name, 23, 2)).toBeCloseTo(adjusted[0], 6);
  expect(sheet.value(comps.name, 24, 2)).toBeCloseTo(adjusted[adjusted.length - 1], 6);
}, 60_000);

test("typing another id in the subject cell retargets the whole model", async () => {
  const first = subjectWithEverything();
  const other = pick(
    svc,
    "SELECT id FROM properties WHERE metro_id IS NOT NULL AND owner_id IS NOT NULL AND id > ? ORDER BY id LIMIT 1",
    first,
  ).id;
  const template = modelTemplate({ propertyId: first });
  template.sheets[0].cells[3][1] = other;
  const sheet = await run(template, await freshBundle());
  const name = String(pick(svc, "SELECT name FROM properties WHERE id = ?", other).name);
  expect(sheet.value(template.sheets[0].name, 6, 1)).toBe(name);
  expect(sheet.value(template.sheets[1].name, 5, 0)).toBe(name);
  const portfolio = sheet.propCells.find((c) => c.formula.startsWith("=PROP.PORTFOLIO("))!.spill!;
  const owner = pick(svc, "SELECT owner_id FROM properties WHERE id = ?", other).owner_id;
  const first_holding = String(portfolio[1][0]);
  expect(pick(svc, "SELECT count(*) AS n FROM properties WHERE owner_id = ? AND name = ?", owner, first_holding).n).toBeGreaterThan(0);
}, 60_000);

test("with fewer comps than the grid's rows, the blank rows are neither adjusted nor counted as zeros", async () => {
  // A subject with one comp within 25 miles in the test snapshot: nine blank rows.
  const few = pick(
    svc,
    `SELECT p.id FROM properties p WHERE p.building_area_sqft IS NOT NULL AND p.asset_type IN ('industrial', 'office', 'retail')
      AND (SELECT count(*) FROM sales s WHERE s.asset_type = p.asset_type AND s.state_code = p.state_code) = 1 ORDER BY p.id LIMIT 1`,
  ).id;
  const template = modelTemplate({ propertyId: few });
  const comps = template.sheets[1].name;
  const sheet = await run(template, await freshBundle());
  const spill = sheet.propCells.find((c) => c.formula.startsWith("=PROP.SALECOMPS("))!.spill!;
  const shown = spill.length - 1;
  expect(shown).toBeLessThan(MODEL_COMPS);
  for (let row = 8 + shown; row < 8 + MODEL_COMPS; row++) {
    expect([sheet.value(comps, row, 17), sheet.value(comps, row, 18), sheet.value(comps, row, 19)]).toEqual(["", "", ""]);
  }
  const numeric = spill
    .slice(1)
    .filter((r) => typeof r[3] === "number")
    .map((r) => r[3] as number);
  expect(sheet.value(comps, 20, 2)).toBe(numeric.length);
  // MIN over the ten rows is the least price, not the blank rows' zero; no figure at all is "".
  expect(sheet.value(comps, 23, 2)).toBe(numeric.length ? Math.min(...numeric) : "");
  expect(sheet.value(comps, 21, 4)).toBe(spill.slice(1).some((r) => typeof r[4] === "number") ? expect.any(Number) : "");
}, 60_000);

test("with no sale of the subject's kind within the radius, the grid says how to look further", async () => {
  const sales = svc.snapshot.prepare("SELECT asset_type, latitude, longitude FROM sales").all() as Array<{
    asset_type: string;
    latitude: number;
    longitude: number;
  }>;
  const candidates = svc.snapshot
    .prepare("SELECT id, asset_type, latitude, longitude FROM properties WHERE asset_type IN ('multifamily', 'office') ORDER BY id")
    .all() as Array<{ id: string; asset_type: string; latitude: number; longitude: number }>;
  const alone = candidates.find(
    (p) => !sales.some((s) => s.asset_type === p.asset_type && haversineMiles(p.latitude, p.longitude, s.latitude, s.longitude) <= 25),
  )!;
  expect(alone).toBeDefined();
  const template = modelTemplate({ propertyId: alone.id });
  const sheet = await run(template, await freshBundle());
  expect(sheet.value(template.sheets[1].name, 27, 0)).toBe(
    "No sale of the subject's kind within the radius: raise max_distance_miles in the options of A8.",
  );
}, 60_000);
