import { pick, startService, type TestService } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

describe("sale comps", () => {
  test("around a subject: same asset type, within the radius, most similar first, never the subject itself", async () => {
    const subject = pick(
      svc,
      `SELECT p.id, p.asset_type FROM properties p JOIN sales s ON s.asset_type = p.asset_type AND s.metro_id = p.metro_id AND s.property_id <> p.id
       WHERE p.metro_id IS NOT NULL GROUP BY p.id ORDER BY count(*) DESC LIMIT 1`,
    );
    const body = (await svc.get(`/v1/commercial/sale-comps?property_id=${subject.id}&max_distance_miles=60&limit=50`)).json();
    expect(body.subject.id).toBe(subject.id);
    expect(body.data.length).toBeGreaterThan(0);
    let prev = Infinity;
    for (const c of body.data) {
      expect(c.asset_type).toBe(subject.asset_type);
      expect(c.property_id).not.toBe(subject.id);
      expect(c.distance_miles).toBeLessThanOrEqual(60);
      expect(c.similarity_score).toBeGreaterThanOrEqual(0);
      expect(c.similarity_score).toBeLessThanOrEqual(prev);
      prev = c.similarity_score;
    }
  });

  test("for a city, newest first", async () => {
    const s = pick(svc, "SELECT city, state_code, count(*) n FROM sales GROUP BY 1, 2 ORDER BY n DESC LIMIT 1");
    const body = (await svc.get(`/v1/commercial/sale-comps?city=${encodeURIComponent(`${s.city}, ${s.state_code}`)}&limit=100`)).json();
    expect(body.total_count).toBe(s.n);
    const dates = body.data.map((c: any) => c.sale_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.data[0].distance_miles).toBeNull();
  });

  test("without a subject or geography it is 400; an unknown subject is 404", async () => {
    expect((await svc.get("/v1/commercial/sale-comps")).statusCode).toBe(400);
    expect((await svc.get("/v1/commercial/sale-comps?property_id=cp_missing")).statusCode).toBe(404);
    expect((await svc.get("/v1/commercial/sale-comps?state_code=TX&min_sale_date=2024-13-45")).statusCode).toBe(400);
    expect((await svc.get("/v1/commercial/sale-comps?property_id=cp_x&max_distance_miles=0")).statusCode).toBe(400);
  });
});

describe("sale comps an analyst trusts", () => {
  /** The subject with the most repeat-sold neighbours of its type. */
  const subject = () =>
    pick(
      svc,
      `SELECT p.id FROM properties p JOIN sales s ON s.asset_type = p.asset_type AND s.metro_id = p.metro_id AND s.property_id <> p.id
       WHERE p.metro_id IS NOT NULL GROUP BY p.id ORDER BY count(*) - count(DISTINCT s.property_id) DESC, count(*) DESC LIMIT 1`,
    ).id as string;
  const comps = async (query: string) => (await svc.get(`/v1/commercial/sale-comps?${query}`)).json();

  test("the similarity of a sale does not depend on the radius searched", async () => {
    const id = subject();
    const wide = await comps(`property_id=${id}&max_distance_miles=100&limit=100`);
    const narrow = await comps(`property_id=${id}&max_distance_miles=10&limit=100`);
    expect(narrow.data.length).toBeGreaterThan(0);
    const wideScore = new Map(wide.data.map((c: { id: string; similarity_score: number }) => [c.id, c.similarity_score]));
    const both = narrow.data.filter((c: { id: string }) => wideScore.has(c.id));
    expect(both.length).toBeGreaterThan(0);
    for (const c of both) expect(wideScore.get(c.id)).toBe(c.similarity_score);
  });

  test("per_property=latest keeps each building's latest matching sale, around a subject and in a place", async () => {
    const id = subject();
    const all = await comps(`property_id=${id}&max_distance_miles=100&limit=100`);
    const latest = await comps(`property_id=${id}&max_distance_miles=100&limit=100&per_property=latest`);
    const buildings = new Set(all.data.map((c: { property_id: string }) => c.property_id));
    expect(all.total_count).toBeGreaterThan(buildings.size); // there are repeat sales to drop
    expect(latest.total_count).toBe(buildings.size);
    for (const c of latest.data) {
      const newest = all.data
        .filter((a: { property_id: string }) => a.property_id === c.property_id)
        .map((a: { sale_date: string }) => a.sale_date)
        .sort()
        .pop();
      expect(c.sale_date).toBe(newest);
    }
    const state = pick(
      svc,
      "SELECT state_code FROM sales GROUP BY 1 ORDER BY count(*) - count(DISTINCT property_id) DESC LIMIT 1",
    ).state_code;
    const inPlace = await comps(`state_code=${state}&per_property=latest&limit=100`);
    expect(inPlace.total_count).toBe(pick(svc, "SELECT count(DISTINCT property_id) AS n FROM sales WHERE state_code = ?", state).n);
    expect(new Set(inPlace.data.map((c: { property_id: string }) => c.property_id)).size).toBe(inPlace.data.length);
  });

  test("sort and order choose the order; missing values come last; distance and similarity need a subject", async () => {
    // A state with sales missing a cap rate, read to its last page so the missing ones are seen.
    const { state_code: state, missing } = pick(
      svc,
      "SELECT state_code, sum(cap_rate IS NULL) AS missing FROM sales GROUP BY 1 HAVING missing > 0 ORDER BY count(*) DESC LIMIT 1",
    );
    const capRates = async (order: string) => {
      const out: (number | null)[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await comps(`state_code=${state}&sort=cap_rate&order=${order}&limit=100&offset=${offset}`);
        out.push(...page.data.map((c: { cap_rate: number | null }) => c.cap_rate));
        if (!page.has_more) return out;
      }
    };
    for (const order of ["asc", "desc"]) {
      const caps = await capRates(order);
      const present = caps.filter((c): c is number => c !== null);
      expect(caps.length - present.length).toBe(missing);
      expect(present).toEqual([...present].sort((a, b) => (order === "asc" ? a - b : b - a)));
      expect(caps.slice(0, present.length)).toEqual(present); // nulls after the values
    }
    const near = await comps(`property_id=${subject()}&sort=distance_miles&limit=50`);
    const d = near.data.map((c: { distance_miles: number }) => c.distance_miles);
    expect(d.length).toBeGreaterThan(1);
    expect(d).toEqual([...d].sort((a, b) => a - b));
    for (const sort of ["similarity_score", "distance_miles"]) {
      const refused = await svc.get(`/v1/commercial/sale-comps?state_code=${state}&sort=${sort}`);
      expect([sort, refused.statusCode, refused.headers["x-credits-charged"]]).toEqual([sort, 400, "0"]);
    }
  });

  test("an impossible range is refused free of charge", async () => {
    for (const query of ["min_sale_date=2025-01-01&max_sale_date=2024-01-01", "min_price=2000000&max_price=1000000"]) {
      const res = await svc.get(`/v1/commercial/sale-comps?state_code=TX&${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/is above .*: nothing can match/);
      expect(res.headers["x-credits-charged"]).toBe("0");
    }
  });
});

describe("market snapshot", () => {
  test("for a state, a city and a metro", async () => {
    const city = pick(
      svc,
      "SELECT geography_name, asset_type FROM markets WHERE geography_type = 'city' ORDER BY property_count DESC LIMIT 1",
    );
    const metro = pick(
      svc,
      "SELECT geography_id, geography_name, asset_type FROM markets WHERE geography_type = 'metro' ORDER BY property_count DESC LIMIT 1",
    );
    const state = pick(svc, "SELECT geography_id, asset_type FROM markets WHERE geography_type = 'state' LIMIT 1");
    for (const [geo, asset, type] of [
      [state.geography_id, state.asset_type, "state"],
      [city.geography_name.toLowerCase(), city.asset_type, "city"],
      [metro.geography_id, metro.asset_type, "metro"],
      [metro.geography_name, metro.asset_type, "metro"],
    ]) {
      const res = await svc.get(`/v1/commercial/markets/snapshot?geography=${encodeURIComponent(geo)}&asset_type=${asset}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ object: "market_snapshot", geography_type: type, asset_type: asset });
      if (body.occupancy_rate !== null) expect(body.vacancy_rate).toBeCloseTo(1 - body.occupancy_rate, 6);
    }
  });

  test('the whole country ("US", "United States", "national") is the national market: every property of the asset type', async () => {
    const n = pick(svc, "SELECT count(*) AS n FROM properties WHERE asset_type = 'industrial'").n;
    const sales = pick(svc, "SELECT sum(sales_count_12m) AS n FROM markets WHERE geography_type = 'state' AND asset_type = 'industrial'").n;
    for (const geography of ["US", "United States", "national", "u.s.a."]) {
      const res = await svc.get(`/v1/commercial/markets/snapshot?geography=${encodeURIComponent(geography)}&asset_type=industrial`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: "mkt_US_industrial",
        geography_type: "national",
        geography_id: "US",
        geography_name: "United States",
        state_code: null,
        property_count: n,
        sales_count_12m: sales,
        thin: false,
      });
    }
    const batch = await svc.post("/v1/commercial/markets/batch", { markets: [{ geography: "US", asset_type: "industrial" }] });
    expect(batch.json().results[0]).toMatchObject({ status: 200, market: { id: "mkt_US_industrial", property_count: n } });
  });

  test("needs a geography and an asset type; places it does not hold are free 400s with a reason", async () => {
    expect((await svc.get("/v1/commercial/markets/snapshot?geography=TX")).json().errors[0].parameter).toBe("asset_type");
    expect((await svc.get("/v1/commercial/markets/snapshot?asset_type=office")).json().errors[0].parameter).toBe("geography");
    const res = await svc.get("/v1/commercial/markets/snapshot?geography=Atlantis,%20FL&asset_type=office");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "unknown_place", parameter: "geography", place: "Atlantis, FL" });
    expect(res.json().detail).toMatch(/holds no city "Atlantis, FL"/);
    const badState = await svc.get("/v1/commercial/markets/snapshot?geography=Atlantis,%20ZZ&asset_type=office");
    expect(badState.json()).toMatchObject({ code: "validation_failed" });
    expect(badState.json().detail).toMatch(/"ZZ" is not a US state/);
    const nonsense = await svc.get("/v1/commercial/markets/snapshot?geography=%3F%3F%3F&asset_type=office");
    expect(nonsense.json().detail).toMatch(/is not a place/);
    for (const r of [res, badState, nonsense]) expect([r.statusCode, r.headers["x-credits-charged"]]).toEqual([400, "0"]);
  });
});

describe("asset analysis", () => {
  test("aggregates the asset type, nationally and by state", async () => {
    const n = pick(svc, "SELECT count(*) n FROM properties WHERE asset_type = 'industrial'").n;
    const body = (await svc.get("/v1/commercial/assets/industrial/analysis")).json();
    expect(body).toMatchObject({ object: "asset_analysis", asset_type: "industrial", geography_type: "national", property_count: n });
    expect(body.by_subtype.reduce((s: number, r: any) => s + r.property_count, 0)).toBe(n);
    expect(body.by_state.length).toBeGreaterThan(5);
    const state = body.by_state[0];
    const inState = (await svc.get(`/v1/commercial/assets/industrial/analysis?state_code=${state.key}`)).json();
    expect(inState.property_count).toBe(state.property_count);
  });

  test("unknown asset type is 404", async () => {
    expect((await svc.get("/v1/commercial/assets/igloo/analysis")).statusCode).toBe(404);
  });
});

describe("markets batch: each market checked on its own", () => {
  const BATCH = "/v1/commercial/markets/batch";

  test("an unknown asset type refuses only its market, free, with the single endpoint's 400 problem", async () => {
    const res = await svc.post(BATCH, {
      markets: [
        { geography: "TX", asset_type: "office" },
        { geography: "TX", asset_type: "castles" },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { status: number }) => r.status)).toEqual([200, 400]);
    expect(body.results[0].market.id).toBe("mkt_TX_office");
    const single = (await svc.get("/v1/commercial/markets/snapshot?geography=TX&asset_type=castles")).json();
    const { request_id: _id, errors: _errors, ...expected } = single;
    expect(body.results[1]).toEqual({ geography: "TX", asset_type: "castles", status: 400, market: null, etag: null, problem: expected });
    expect(body.results[1].problem.detail).toMatch(/^asset_type must be one of: /);
    expect(body.credits_charged).toBe(1);
    expect(res.headers["x-credits-charged"]).toBe("1");
  });

  test("a geography the single endpoint refuses by its schema (empty) refuses only its market", async () => {
    const res = await svc.post(BATCH, {
      markets: [
        { geography: "", asset_type: "office" },
        { geography: "TX", asset_type: "office" },
      ],
    });
    expect(res.json().results.map((r: { status: number }) => r.status)).toEqual([400, 200]);
    expect(res.json().results[0].problem.code).toBe("validation_failed");
  });

  test.each([
    ["markets is not a list", { markets: { geography: "TX", asset_type: "office" } }],
    ["more than 100 markets", { markets: Array.from({ length: 101 }, () => ({ geography: "TX", asset_type: "office" })) }],
    ["a field of the wrong type", { markets: [{ geography: "TX", asset_type: { name: "office" } }] }],
    ["a market without its asset type", { markets: [{ geography: "TX" }] }],
    ["an unknown field", { markets: [{ geography: "TX", asset_type: "office", vacancy: 1 }] }],
  ])("a malformed batch (%s) is refused as a whole, free", async (_name, payload) => {
    const res = await svc.post(BATCH, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("validation_failed");
    expect(res.headers["x-credits-charged"]).toBe("0");
  });
});

describe("the properties behind a market's figures", () => {
  test("a market snapshot carries property_count and thin (fewer than the threshold), in the single endpoint and the batch", async () => {
    const { THIN_MARKET_PROPERTIES } = await import("../../src/contract/market-sample");
    const wide = (await svc.get("/v1/commercial/markets/snapshot?geography=TX&asset_type=industrial")).json();
    expect(wide.property_count).toBeGreaterThanOrEqual(THIN_MARKET_PROPERTIES);
    expect(wide.thin).toBe(false);
    // The flag sits beside the count it follows from.
    const keys = Object.keys(wide);
    expect(keys[keys.indexOf("property_count") + 1]).toBe("thin");
    const one = pick<{ geography_id: string; asset_type: string }>(
      svc,
      "SELECT geography_id, asset_type FROM markets WHERE geography_type = 'zip' AND property_count = 1 LIMIT 1",
    );
    const single = (await svc.get(`/v1/commercial/markets/snapshot?geography=${one.geography_id}&asset_type=${one.asset_type}`)).json();
    expect(single).toMatchObject({ property_count: 1, thin: true });
    const batch = (
      await svc.post("/v1/commercial/markets/batch", {
        markets: [
          { geography: one.geography_id, asset_type: one.asset_type },
          { geography: "TX", asset_type: "industrial" },
        ],
      })
    ).json();
    expect(batch.results.map((r: { market: { thin: boolean } }) => r.market.thin)).toEqual([true, false]);
  });
});
