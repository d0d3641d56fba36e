// What a list function's spill says about the whole result, through the built functions.js
// against the real service: SALECOMPS' stats=true is over every matching sale (the service's
// statistics, equal to a computation over every row), a cut list ends with an "N of M rows"
// footer the analyst can turn off, and a list matching nothing is its header row alone, free.
import { ensureAddinBuild } from "./addin-build";
import { loadFunctionsBundle, type LoadedBundle } from "./bundle-harness";
import { pick, startService, type TestService, listenOnLoopback } from "../helpers/service";
import { fieldStatistics } from "../../src/contract/statistics";

let svc: TestService;
let origin: string;
/** The state and asset type with the most sales. */
let market: { state_code: string; asset_type: string; n: number };

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
  market = pick(svc, "SELECT state_code, asset_type, count(*) n FROM sales GROUP BY 1, 2 HAVING n > 40 ORDER BY n DESC LIMIT 1");
}, 240_000);

afterAll(() => svc?.app.close());

async function freshBundle(): Promise<LoadedBundle> {
  const account = await svc.accounts.create(`lists-${Math.random().toString(36).slice(2)}@example.com`);
  return loadFunctionsBundle({ origin, apiKey: (await svc.keys.createKey(account.id, "lists")).raw });
}

const charged = (b: LoadedBundle) => b.calls.reduce((n, c) => n + (c.charged ?? 0), 0);

/** Every sale of the market, as the service lists them. */
async function everySale(): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += 100) {
    const body = (
      await svc.get(`/v1/commercial/sale-comps?state_code=${market.state_code}&asset_type=${market.asset_type}&limit=100&offset=${offset}`)
    ).json();
    rows.push(...body.data);
    if (!body.has_more) return rows;
  }
}

test("SALECOMPS stats=true: count, mean, min, median and max over every matching sale, not the first page", async () => {
  const b = await freshBundle();
  const spill = (await b.call("SALECOMPS", [
    market.state_code,
    market.asset_type,
    "stats=true; cols=sale_price,cap_rate; dates=text; rates=fraction",
  ])) as unknown[][];
  expect(spill[0]).toEqual(["field", "count", "mean", "min", "median", "max"]);
  const all = fieldStatistics(await everySale(), ["sale_price", "cap_rate"]);
  const asCells = all.map((s) => [s.field, s.count, s.mean ?? "", s.min ?? "", s.median ?? "", s.max ?? ""]);
  expect(spill.slice(1)).toEqual(asCells);
  expect(spill[1][1]).toBe(market.n);
  // One request, at the list's price.
  expect(b.calls).toHaveLength(1);
  expect(charged(b)).toBe(2);
});

test('a cut list ends with an "N of M rows" footer; footer=false leaves it out; a whole list has none', async () => {
  const b = await freshBundle();
  const cut = (await b.call("SALECOMPS", [market.state_code, market.asset_type, "cols=id,sale_price; limit=10"])) as unknown[][];
  expect(cut).toHaveLength(12);
  expect(cut[11]).toEqual([`10 of ${market.n} rows (limit=10); raise limit= or page with offset=10.`, ""]);
  const paged = (await b.call("SALECOMPS", [
    market.state_code,
    market.asset_type,
    "cols=id,sale_price; limit=10; offset=10",
  ])) as unknown[][];
  expect(paged[11][0]).toBe(`rows 11-20 of ${market.n} (offset=10, limit=10); raise limit= or page with offset=20.`);
  const bare = (await b.call("SALECOMPS", [
    market.state_code,
    market.asset_type,
    "cols=id,sale_price; limit=10; footer=false",
  ])) as unknown[][];
  expect(bare).toEqual(cut.slice(0, 11));
  const whole = (await b.call("SALECOMPS", [market.state_code, market.asset_type, "cols=id; limit=1000"])) as unknown[][];
  expect(whole).toHaveLength(market.n + 1);
  expect(whole.every((row) => row.length === 1)).toBe(true);
  const told = (await b.call("SALECOMPS", [market.state_code, market.asset_type, "cols=id; limit=1000; footer=true"])) as unknown[][];
  expect(told[told.length - 1]).toEqual([`${market.n} of ${market.n} rows.`]);
});

test("a list matching nothing is its header row alone (ROWS-1 is 0), and costs nothing", async () => {
  const b = await freshBundle();
  const spill = (await b.call("SALECOMPS", ["TX", "industrial", "min_price=900000000; cols=id,sale_price"])) as unknown[][];
  expect(spill).toEqual([["id", "sale_price"]]);
  const bare = (await b.call("SALECOMPS", ["TX", "industrial", "min_price=900000000; cols=id,sale_price; headers=false"])) as unknown[][];
  expect(bare).toHaveLength(1);
  expect(bare[0][0]).toMatch(/^No sale comps match for .*min_price=900000000/);
  expect(bare[0][1]).toBe("");
  const stats = (await b.call("SALECOMPS", ["TX", "industrial", "min_price=900000000; stats=true; cols=sale_price"])) as unknown[][];
  expect(stats).toEqual([
    ["field", "count", "mean", "min", "median", "max"],
    ["sale_price", 0, "", "", "", ""],
  ]);
  expect(b.calls.length).toBeGreaterThan(0);
  expect(charged(b)).toBe(0);
});
