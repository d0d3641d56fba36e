// One vocabulary in the service: asset types in their industry spellings (the table the add-in's
// tests read too), enum inputs in any case and spacing, multifamily under each endpoint's own
// name, `state_code` on listings beside the older `state`, ZIP+4 codes as ZIP codes, metros
// named "Austin MSA", the whole country in the analysis (and refused clearly where there are
// no national figures), and a misspelt state suggested as the state.
import { pick, startService, type TestService, queryString } from "../helpers/service";
import { ASSET_TYPE_CASES } from "../contract/vocabulary-cases";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

const q = queryString;

describe("asset types in the spellings analysts type", () => {
  test.each(ASSET_TYPE_CASES)("asset_type=$input in a property search means $assetType", async ({ input, assetType }) => {
    const res = await svc.get(`/v1/commercial/properties?${q({ asset_type: input, limit: 5 })}`);
    if (assetType === null) {
      expect(res.statusCode).toBe(400);
      return;
    }
    expect(res.statusCode).toBe(200);
    const kinds = new Set((res.json().data as { asset_type: string }[]).map((r) => r.asset_type));
    expect([...kinds].every((k) => k === assetType)).toBe(true);
  });

  test("an asset type in the analysis path and in a markets batch is read in any spelling", async () => {
    const mf = await svc.get(`/v1/commercial/assets/${encodeURIComponent("Multi-Family")}/analysis`);
    expect(mf.statusCode).toBe(200);
    expect(mf.json().asset_type).toBe("multifamily");
    const batch = await svc.post("/v1/commercial/markets/batch", { markets: [{ geography: "TX", asset_type: "Apartments" }] });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().results[0]).toMatchObject({ asset_type: "Apartments", status: 200, market: { asset_type: "multifamily" } });
  });

  test("multifamily is each vocabulary's own name: property_type=MF on listings, land_use=Multi-Family on parcels", async () => {
    const listings = await svc.get(`/v1/listings/search?${q({ property_type: "MF", limit: 5 })}`);
    expect(listings.statusCode).toBe(200);
    expect((listings.json().data as { property_type: string }[]).every((l) => l.property_type === "multi_family")).toBe(true);
    const parcels = await svc.get(`/v1/parcels?${q({ land_use: "Multi-Family", limit: 5 })}`);
    expect(parcels.statusCode).toBe(200);
    expect((parcels.json().data as { land_use: string }[]).every((p) => p.land_use === "residential_multi_family")).toBe(true);
  });

  test("an enum input in other case and spacing is its value (sort=Sale Price)", async () => {
    const res = await svc.get(`/v1/commercial/sale-comps?${q({ geography: "TX", sort: "Sale Price", limit: 3 })}`);
    expect(res.statusCode).toBe(200);
    const prices = (res.json().data as { sale_price: number }[]).map((r) => r.sale_price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });
});

describe("one name per concept", () => {
  test("listings take state_code, as every endpoint does, and still the older state; both at once is refused", async () => {
    const byCode = await svc.get(`/v1/listings/search?${q({ state_code: "TX", limit: 5 })}`);
    const byOld = await svc.get(`/v1/listings/search?${q({ state: "TX", limit: 5 })}`);
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().total_count).toBe(byOld.json().total_count);
    expect(byCode.json().total_count).toBeGreaterThan(0);
    const both = await svc.get(`/v1/listings/search?${q({ state: "TX", state_code: "TX" })}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().detail).toMatch(/state is the older name of state_code/);
  });

  test("zip= takes a ZIP+4 code as its ZIP code", async () => {
    const { zip } = pick<{ zip: string }>(svc, "SELECT zip FROM properties GROUP BY zip ORDER BY count(*) DESC LIMIT 1");
    const five = await svc.get(`/v1/commercial/properties?${q({ zip, limit: 1 })}`);
    const plus4 = await svc.get(`/v1/commercial/properties?${q({ zip: `${zip}-1234`, limit: 1 })}`);
    expect(plus4.statusCode).toBe(200);
    expect(plus4.json().total_count).toBe(five.json().total_count);
  });
});

describe("places", () => {
  test('"US" and "United States" are the national analysis and the national market; where no national figures exist, refused saying where they are', async () => {
    const national = (await svc.get("/v1/commercial/assets/industrial/analysis")).json();
    for (const geography of ["US", "United States"]) {
      const res = await svc.get(`/v1/commercial/assets/industrial/analysis?${q({ geography })}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(national);
    }
    const market = await svc.get(`/v1/commercial/markets/snapshot?${q({ geography: "US", asset_type: "industrial" })}`);
    expect([market.statusCode, market.json().geography_type]).toEqual([200, "national"]);
    const properties = await svc.get(`/v1/commercial/properties?${q({ geography: "United States" })}`);
    expect(properties.statusCode).toBe(400);
    expect(properties.json().detail).toMatch(
      /"United States" is the whole country: national figures are the markets' \("US" in PROP.MARKET/,
    );
  });

  test('a metro named with "MSA" and no state is found when one state has a metro of that name', async () => {
    const metro = pick<{ code: string; local_name: string }>(
      svc,
      `SELECT code, local_name FROM places WHERE kind = 'metro' AND local_name NOT LIKE '% %'
       AND key IN (SELECT key FROM places WHERE kind = 'metro' GROUP BY key HAVING count(*) = 1) ORDER BY record_count DESC LIMIT 1`,
    );
    const asked = await svc.get(`/v1/commercial/assets/industrial/analysis?${q({ geography: `${metro.local_name} MSA` })}`);
    const byId = await svc.get(`/v1/commercial/assets/industrial/analysis?${q({ geography: metro.code })}`);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual(byId.json());
  });

  test('a misspelt state ("Texsa") is offered the state first', async () => {
    const res = await svc.get(`/v1/commercial/markets/snapshot?${q({ geography: "Texsa", asset_type: "industrial" })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().suggestions[0]).toBe("Texas");
  });
});
