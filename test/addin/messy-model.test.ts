// A real model's edges, through the built functions.js against the real service: places written
// every way share one request and one charge; places the snapshot does not hold and impossible
// ranges cost nothing and say why; a grid of markets is a few batch requests; many distinct
// table cells are paced to the plan's rate limit (no cell sees a 429); comps options and
// statistics; a company name several companies contain is refused, listing them.
import { ensureAddinBuild } from "./addin-build";
import { loadFunctionsBundle, type LoadedBundle } from "./bundle-harness";
import { pick, startService, type TestService, listenOnLoopback } from "../helpers/service";

let svc: TestService;
let origin: string;

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
}, 240_000);

afterAll(() => svc?.app.close());

/** A fresh add-in runtime on a fresh Explorer account. */
async function freshBundle(): Promise<LoadedBundle> {
  const account = await svc.accounts.create(`model-${Math.random().toString(36).slice(2)}@example.com`);
  return loadFunctionsBundle({ origin, apiKey: (await svc.keys.createKey(account.id, "model")).raw });
}

const charged = (b: LoadedBundle) => b.calls.reduce((n, c) => n + (c.charged ?? 0), 0);
const settle = (promises: Promise<unknown>[]) => Promise.allSettled(promises);

test("every spelling of a place is one request and one charge", async () => {
  const { city, state_code: state } = pick(
    svc,
    "SELECT city, state_code FROM sales WHERE city NOT LIKE '% %' GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1",
  );
  const stateName = pick(svc, "SELECT name FROM places WHERE kind = 'state' AND code = ?", state).name;
  const spellings = [
    `${city}, ${state}`,
    `${city.toLowerCase()}, ${state.toLowerCase()}`,
    `${city.toUpperCase()}, ${state}`,
    `${city},${state}`,
    `${city} ${state}`,
    `${city}, ${stateName}`,
  ];
  const b = await freshBundle();
  const comps = await settle(spellings.map((s) => b.call("SALECOMPS", [s, null, "limit=5"])));
  const markets = await settle(spellings.map((s) => b.call("MARKET", [s, "industrial", "property_count", null])));
  expect(comps.every((r) => r.status === "fulfilled")).toBe(true);
  expect(new Set(markets.map((r) => JSON.stringify(r)))).toHaveProperty("size", 1);
  expect(b.calls.filter((c) => c.url.includes("/sale-comps"))).toHaveLength(1);
  expect(b.calls.filter((c) => c.url.includes("/markets/"))).toHaveLength(1);
  // Two requests in all, each charged once: the comps' price and one market's.
  expect(b.calls).toHaveLength(2);
  const charge = (path: string) => b.calls.find((c) => c.url.includes(path))!.charged;
  expect([charge("/sale-comps"), charge("/markets/")]).toEqual([2, 1]);
  expect(b.calls.find((c) => c.url.includes("/sale-comps"))!.url).toContain(
    `geography=${encodeURIComponent(`${city}, ${state}`).replace(/%20/g, "+")}`,
  );
});

test("a place the snapshot does not hold is #VALUE! with suggestions, costs nothing, and is not asked again", async () => {
  const b = await freshBundle();
  const { city, state_code: state } = pick(svc, "SELECT city, state_code FROM properties GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1");
  const typo = `${city.slice(0, -1)}, ${state}`; // one letter short
  await expect(b.call("SALECOMPS", [typo, null, null])).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringContaining(`Did you mean ${city}, ${state}`),
  });
  await expect(b.call("MARKET", [typo, "office", "vacancy_rate", null])).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringContaining("Did you mean"),
  });
  await expect(b.call("SEARCH", [null, "Atlantis, FL", null])).rejects.toMatchObject({
    code: "#VALUE!",
    message: 'geography: this snapshot holds no city "Atlantis, FL".',
  });
  const asked = b.calls.length;
  expect(charged(b)).toBe(0);
  // A recalculation answers from the remembered refusal.
  await expect(b.call("SALECOMPS", [typo, null, null])).rejects.toMatchObject({ code: "#VALUE!" });
  expect(b.calls).toHaveLength(asked);
});

test("impossible ranges and places of a kind the function cannot take are refused before any request", async () => {
  const b = await freshBundle();
  await expect(b.call("SALECOMPS", ["TX", null, "min_sale_date=2024-01-01; max_sale_date=2023-01-01"])).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringMatching(/min_sale_date \(2024-01-01\) is above max_sale_date \(2023-01-01\)/),
  });
  await expect(b.call("LISTINGS", ["TX", null, "min_price=900000; max_price=100000"])).rejects.toMatchObject({ code: "#VALUE!" });
  await expect(b.call("LISTINGS", ["Travis County, TX", null, null])).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringMatching(/is a county; this function takes/),
  });
  await expect(b.call("SEARCH", [null, "TX", "city=Austin"])).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringMatching(/place is given twice/),
  });
  expect(b.calls).toHaveLength(0);
});

test("a grid of markets is a few batch requests, charged once a market, with no 429", async () => {
  const b = await freshBundle();
  const grid = svc.snapshot
    .prepare(
      "SELECT geography_id AS state, asset_type FROM markets WHERE geography_type = 'state' ORDER BY geography_id, asset_type LIMIT 150",
    )
    .all() as { state: string; asset_type: string }[];
  const cells = await settle(grid.map((m) => b.call("MARKET", [m.state, m.asset_type, "property_count", null])));
  expect(cells.filter((c) => c.status === "rejected")).toEqual([]);
  expect(b.calls.map((c) => c.url.replace(origin, ""))).toEqual(["/v1/commercial/markets/batch", "/v1/commercial/markets/batch"]);
  expect(charged(b)).toBe(150);
});

test("more distinct table cells than the plan's burst are paced: every cell settles, none sees a 429", async () => {
  const b = await freshBundle();
  const cities = svc.snapshot
    .prepare("SELECT city || ', ' || state_code AS name FROM sales GROUP BY city, state_code ORDER BY count(*) DESC LIMIT 75")
    .pluck()
    .all() as string[];
  const cells = await settle(cities.map((c) => b.call("SALECOMPS", [c, null, "limit=1"])));
  expect(cells.filter((c) => c.status === "rejected")).toEqual([]);
  expect(b.calls.filter((c) => c.status === 429)).toEqual([]);
  expect(b.calls).toHaveLength(75);
}, 30_000);

test("comps: one row per property, a sort, and statistics with the mean", async () => {
  const b = await freshBundle();
  const state = pick(svc, "SELECT state_code FROM sales GROUP BY 1 ORDER BY count(*) DESC LIMIT 1").state_code;
  const all = (await b.call("SALECOMPS", [state, null, "limit=100; cols=property_id; dates=text"])) as string[][];
  const latest = (await b.call("SALECOMPS", [state, null, "limit=100; cols=property_id; per_property=latest"])) as string[][];
  expect(new Set(latest.slice(1).map((r) => r[0])).size).toBe(latest.length - 1);
  expect(latest.length).toBeLessThanOrEqual(all.length);
  const byPrice = (await b.call("SALECOMPS", [state, null, "limit=20; cols=sale_price; sort=sale_price; order=asc"])) as number[][];
  const prices = byPrice.slice(1).map((r) => r[0]);
  expect(prices).toEqual([...prices].sort((x, y) => x - y));
  const stats = (await b.call("SALECOMPS", [state, null, "limit=50; stats=true; cols=sale_price,cap_rate"])) as unknown[][];
  expect(stats[0]).toEqual(["field", "count", "mean", "min", "median", "max"]);
  expect(stats.map((r) => r[0])).toEqual(["field", "sale_price", "cap_rate"]);
  const [, count, mean, min, , max] = stats[1] as number[];
  expect(count).toBeGreaterThan(0);
  expect(mean).toBeGreaterThanOrEqual(min);
  expect(mean).toBeLessThanOrEqual(max);
});

test("a company name several owners contain is refused free, listing them; the full name or an id works", async () => {
  const b = await freshBundle();
  // A word that starts several owners' names.
  const word = pick(
    svc,
    `SELECT substr(name, 1, instr(name, ' ') - 1) AS word FROM companies WHERE company_type = 'owner' AND instr(name, ' ') > 3
     GROUP BY 1 HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 1`,
  ).word as string;
  await expect(b.call("PORTFOLIO", [word, null])).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringMatching(new RegExp(`"${word}" matches \\d+ owners: .*\\(co_`)),
  });
  expect(charged(b)).toBe(0);
  const owner = pick(
    svc,
    "SELECT id, name FROM companies WHERE company_type = 'owner' AND name LIKE ? ORDER BY property_count DESC LIMIT 1",
    `%${word}%`,
  );
  const rows = (await b.call("PORTFOLIO", [owner.name, "cols=owner_id,owner_name"])) as string[][];
  expect(rows.length).toBeGreaterThan(1);
  expect(rows.slice(1).every((r) => r[0] === owner.id && r[1] === owner.name)).toBe(true);
  const byId = (await b.call("PORTFOLIO", [owner.id, "cols=owner_id"])) as string[][];
  expect(byId.length).toBeGreaterThan(1);
  expect(byId.slice(1).every((r) => r[0] === owner.id)).toBe(true);
  // name_match=best takes the largest, as the service's default does.
  const best = (await b.call("PORTFOLIO", [word, "name_match=best; limit=1; cols=owner_id; footer=false"])) as string[][];
  const serviceDefault = (await svc.get(`/v1/commercial/owners/portfolio?owner_name=${encodeURIComponent(word)}&limit=1`)).json();
  expect(best).toEqual([["owner_id"], [serviceDefault.owner.id]]);
});
