// Places in the service: every spelling of a place the snapshot holds finds it; a place it does
// not hold, a city name in several states where one place is needed, and a kind of place an
// endpoint cannot serve are free 400s with suggestions; a place given twice over, or two places
// that cannot overlap, are refused; counties and ZIP codes have markets; the markets batch.
import { canonicalPlace } from "../../src/contract/places";
import { PLANS } from "../../src/server/auth/plans";
import { pick, startService, type TestService, queryString } from "../helpers/service";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

const q = queryString;
const market = (geography: string, asset_type: string) => svc.get(`/v1/commercial/markets/snapshot?${q({ geography, asset_type })}`);
/** Credits left, once the store has written what it gives back (PostgreSQL writes give-backs in batches, milliseconds later). */
const remaining = async () => {
  await svc.app.ledger.flush();
  return Number((await svc.get("/v1/commercial/coverage")).headers["x-credits-remaining"]);
};

/** A place of each kind from the test snapshot, with its asset type that has the most properties there. */
function placeOf(kind: string) {
  return pick<{ name: string; local_name: string; state_code: string; code: string; asset_type: string }>(
    svc,
    `SELECT p.name, p.local_name, p.state_code, p.code, m.asset_type FROM places p
     JOIN markets m ON m.geography_type = p.kind AND m.geography_id = p.code
     WHERE p.kind = ? AND p.local_name NOT LIKE '% %' ORDER BY m.property_count DESC, p.code LIMIT 1`,
    kind,
  );
}

describe("every spelling of a place finds it", () => {
  test.each(["state", "county", "city", "zip", "metro"])("a %s: the market of each spelling is the same record", async (kind) => {
    const p = placeOf(kind);
    const stateName = pick(svc, "SELECT name FROM places WHERE kind = 'state' AND code = ?", p.state_code).name as string;
    const spellings: Record<string, string[]> = {
      state: [p.code, p.code.toLowerCase(), stateName, stateName.toUpperCase()],
      county: [p.name, p.name.toLowerCase(), `${p.local_name} county ${p.state_code}`, `${p.local_name} County, ${stateName}`],
      city: [
        p.name,
        p.name.toUpperCase(),
        `${p.local_name},${p.state_code}`,
        `${p.local_name} ${p.state_code.toLowerCase()}`,
        `${p.local_name}, ${stateName}`,
      ],
      zip: [p.code, `${p.code}-0001`],
      metro: [p.code, p.code.toUpperCase(), p.name, p.name.toLowerCase()],
    };
    const answers = await Promise.all(spellings[kind].map((s) => market(s, p.asset_type)));
    for (const res of answers) expect(res.statusCode).toBe(200);
    const bodies = new Set(answers.map((r) => r.body));
    expect(bodies.size).toBe(1);
    expect(answers[0].json()).toMatchObject({
      geography_type: kind,
      geography_id: p.code,
      geography_name: p.name,
      asset_type: p.asset_type,
    });
    // The grammar's canonical form of each spelling is one text: the add-in's cache key. (A
    // metro's id and its name are two forms only the snapshot can tell are one metro.)
    const forms = kind === "metro" ? [spellings.metro.slice(0, 2), spellings.metro.slice(2)] : [spellings[kind]];
    for (const form of forms) expect(new Set(form.map(canonicalPlace)).size).toBe(1);
  });

  test("county and ZIP markets add up from the properties in them", async () => {
    for (const kind of ["county", "zip"] as const) {
      const p = placeOf(kind);
      const column = kind === "county" ? "county_fips" : "zip";
      const n = pick(svc, `SELECT count(*) AS n FROM properties WHERE ${column} = ? AND asset_type = ?`, p.code, p.asset_type).n;
      expect((await market(p.name, p.asset_type)).json().property_count).toBe(n);
    }
  });
});

describe("a place the snapshot does not hold costs nothing and says what was meant", () => {
  test("a misspelt city: 400 unknown_place with the city as the first suggestion, free", async () => {
    const p = placeOf("city");
    const typo = `${p.local_name.slice(0, -1)}, ${p.state_code}`;
    const before = await remaining();
    const res = await svc.get(`/v1/commercial/sale-comps?${q({ geography: typo })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "unknown_place", parameter: "geography", place: typo });
    expect(res.json().suggestions[0]).toBe(p.name);
    expect(res.json().detail).toContain(`Did you mean ${p.name}`);
    expect(res.headers["x-credits-charged"]).toBe("0");
    expect(await remaining()).toBe(before);
  });

  test("the same city in the wrong state, a city for a county, a longer name: each is suggested", async () => {
    const p = placeOf("city");
    const key = pick(svc, "SELECT key FROM places WHERE kind = 'city' AND code = ?", p.code).key;
    const other = pick(
      svc,
      "SELECT code FROM places WHERE kind = 'state' AND code NOT IN (SELECT state_code FROM places WHERE kind = 'city' AND key = ?) ORDER BY code LIMIT 1",
      key,
    ).code;
    const refusals = [await market(`${p.local_name}, ${other}`, p.asset_type)];
    expect(refusals[0].json()).toMatchObject({ code: "unknown_place", suggestions: expect.arrayContaining([p.name]) });
    const county = pick(
      svc,
      `SELECT c.name, c.local_name, c.state_code FROM places c WHERE c.kind = 'county' AND c.property_count > 0
       AND NOT EXISTS (SELECT 1 FROM places x WHERE x.kind = 'city' AND x.key = c.key AND x.state_code = c.state_code) ORDER BY c.property_count DESC LIMIT 1`,
    );
    refusals.push(await market(`${county.local_name}, ${county.state_code}`, "office"));
    expect(refusals[1].json()).toMatchObject({ code: "unknown_place", suggestions: expect.arrayContaining([county.name]) });
    // "New York, NY" -> "New York City, NY": a name that starts a longer one.
    const long = pick(
      svc,
      `SELECT l.name, substr(l.local_name, 1, instr(l.local_name, ' ') - 1) || ', ' || l.state_code AS start FROM places l
       WHERE l.kind = 'city' AND instr(l.local_name, ' ') > 0 AND NOT EXISTS (
         SELECT 1 FROM places x WHERE x.kind = 'city' AND x.state_code = l.state_code AND x.local_name = substr(l.local_name, 1, instr(l.local_name, ' ') - 1))
       ORDER BY l.record_count DESC LIMIT 1`,
    );
    refusals.push(await market(long.start, "office"));
    expect(refusals[2].json()).toMatchObject({ code: "unknown_place", suggestions: expect.arrayContaining([long.name]) });
    for (const res of refusals) expect([res.statusCode, res.headers["x-credits-charged"]]).toEqual([400, "0"]);
  });

  test("a ZIP code or a metro id the snapshot does not have; a state code that is no state", async () => {
    // (The test snapshot has data in every state, so a state it holds nothing in cannot be asked here.)
    const zip = await svc.get(`/v1/commercial/properties?${q({ zip: "00001" })}`);
    expect(zip.json()).toMatchObject({ code: "unknown_place", parameter: "zip" });
    const metro = await svc.get(`/v1/commercial/diligence/candidates?${q({ metro_id: "metro-atlantis-fl" })}`);
    expect(metro.json()).toMatchObject({ code: "unknown_place", parameter: "metro_id" });
    const code = await svc.get(`/v1/commercial/properties?${q({ state_code: "ZZ" })}`);
    expect(code.json()).toMatchObject({ code: "validation_failed" });
    for (const res of [zip, metro, code]) expect([res.statusCode, res.headers["x-credits-charged"]]).toEqual([400, "0"]);
  });

  test("a city name in several states is ambiguous where one market is needed, and every one of them in a search", async () => {
    const shared = pick(
      svc,
      "SELECT local_name, count(*) AS n FROM places WHERE kind = 'city' GROUP BY key HAVING count(*) > 1 ORDER BY sum(property_count) DESC LIMIT 1",
    );
    const res = await market(shared.local_name, "office");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "ambiguous_place", match_count: shared.n });
    expect(res.json().suggestions.length).toBe(Math.min(3, shared.n));
    const search = await svc.get(`/v1/commercial/properties?${q({ geography: shared.local_name, limit: 100 })}`);
    expect(search.statusCode).toBe(200);
    const states = new Set(search.json().data.map((p: { state_code: string }) => p.state_code));
    const expected = svc.snapshot
      .prepare("SELECT DISTINCT state_code FROM properties WHERE city = ? COLLATE NOCASE ORDER BY 1")
      .pluck()
      .all(shared.local_name);
    expect(search.json().total_count).toBe(
      pick(svc, "SELECT count(*) AS n FROM properties WHERE city = ? COLLATE NOCASE", shared.local_name).n,
    );
    expect(search.json().total_count).toBeLessThanOrEqual(100); // one page holds them all: every state is on it
    expect([...states].sort()).toEqual(expected);
  });

  test("a kind of place the endpoint cannot serve: 400 unsupported_place naming what it takes", async () => {
    const metro = placeOf("metro");
    const res = await svc.get(`/v1/parcels?${q({ geography: metro.name })}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "unsupported_place", accepted_kinds: ["state", "county", "city", "zip"] });
    expect(res.json().detail).toMatch(/is a metro; this endpoint takes a state/);
    expect(res.headers["x-credits-charged"]).toBe("0");
  });

  test("a key pasted where a place goes is never echoed back", async () => {
    for (const url of [
      `/v1/commercial/properties?${q({ geography: svc.key })}`,
      `/v1/commercial/markets/snapshot?${q({ geography: `${svc.key} metro`, asset_type: "office" })}`,
    ]) {
      const res = await svc.get(url);
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toContain(svc.key.slice(6));
      expect(res.body).toContain("propi_[redacted]");
    }
  });

  test("the place given twice, or two places with nothing in common, are refused rather than answered with nothing", async () => {
    const city = placeOf("city");
    const twice = await svc.get(`/v1/commercial/properties?${q({ geography: city.name, state_code: city.state_code })}`);
    expect(twice.json()).toMatchObject({ code: "validation_failed" });
    expect(twice.json().detail).toMatch(/geography and state_code both name a place/);
    const other = city.state_code === "WY" ? "VT" : "WY";
    const apart = await svc.get(`/v1/commercial/properties?${q({ city: city.name, state_code: other })}`);
    expect(apart.json().detail).toMatch(/nothing can match both/);
    const zip = placeOf("zip");
    const away = await svc.get(`/v1/parcels?${q({ zip: zip.code, state_code: zip.state_code === "WY" ? "VT" : "WY" })}`);
    expect(away.json().detail).toMatch(/in different states/);
    for (const res of [twice, apart, away]) expect([res.statusCode, res.headers["x-credits-charged"]]).toEqual([400, "0"]);
  });
});

describe("every place filter applies", () => {
  test("property search, sale comps, diligence and analysis by county and ZIP code", async () => {
    const county = placeOf("county");
    const zip = placeOf("zip");
    for (const [p, column] of [
      [county, "county_fips"],
      [zip, "zip"],
    ] as const) {
      const props = (await svc.get(`/v1/commercial/properties?${q({ geography: p.name, limit: 100 })}`)).json();
      expect(props.total_count).toBe(pick(svc, `SELECT count(*) AS n FROM properties WHERE ${column} = ?`, p.code).n);
      const sales = (await svc.get(`/v1/commercial/sale-comps?${q({ geography: p.name, limit: 100 })}`)).json();
      expect(sales.total_count).toBe(pick(svc, `SELECT count(*) AS n FROM sales WHERE ${column} = ?`, p.code).n);
      const dil = (await svc.get(`/v1/commercial/diligence/candidates?${q({ geography: p.name, limit: 100 })}`)).json();
      expect(dil.total_count).toBe(pick(svc, `SELECT count(*) AS n FROM properties WHERE ${column} = ?`, p.code).n);
      const analysis = (await svc.get(`/v1/commercial/assets/${p.asset_type}/analysis?${q({ geography: p.name })}`)).json();
      expect(analysis).toMatchObject({ geography_type: column === "zip" ? "zip" : "county", geography_id: p.code });
      expect(analysis.property_count).toBe(
        pick(svc, `SELECT count(*) AS n FROM properties WHERE ${column} = ? AND asset_type = ?`, p.code, p.asset_type).n,
      );
    }
  });

  test("a state filter around a subject property is applied, not ignored", async () => {
    const subject = pick(
      svc,
      "SELECT p.id, p.state_code FROM properties p JOIN sales s ON s.asset_type = p.asset_type AND s.state_code = p.state_code GROUP BY p.id ORDER BY count(*) DESC LIMIT 1",
    );
    const elsewhere = subject.state_code === "CA" ? "TX" : "CA";
    // Without the filter the radius reaches sales in other states, so the filter has something to remove.
    const unfiltered = (
      await svc.get(`/v1/commercial/sale-comps?${q({ property_id: subject.id, max_distance_miles: 250, limit: 100 })}`)
    ).json();
    expect(unfiltered.data.some((s: { state_code: string }) => s.state_code !== subject.state_code)).toBe(true);
    const home = (
      await svc.get(
        `/v1/commercial/sale-comps?${q({ property_id: subject.id, state_code: subject.state_code, max_distance_miles: 250, limit: 100 })}`,
      )
    ).json();
    expect(home.data.length).toBeGreaterThan(0);
    expect(home.data.every((s: { state_code: string }) => s.state_code === subject.state_code)).toBe(true);
    const away = (
      await svc.get(
        `/v1/commercial/sale-comps?${q({ property_id: subject.id, state_code: elsewhere, max_distance_miles: 250, limit: 100 })}`,
      )
    ).json();
    expect(away.data.every((s: { state_code: string }) => s.state_code === elsewhere)).toBe(true);
  });
});

describe("the markets batch", () => {
  test("answers each market or its refusal in order, charges one credit a distinct market answered, and gives each the single endpoint's ETag", async () => {
    const state = placeOf("state");
    const city = placeOf("city");
    const before = await remaining();
    const res = await svc.post("/v1/commercial/markets/batch", {
      markets: [
        { geography: state.code, asset_type: state.asset_type },
        { geography: state.code.toLowerCase(), asset_type: state.asset_type }, // the same market again
        { geography: city.name, asset_type: city.asset_type },
        { geography: "Atlantis, FL", asset_type: "office" },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 400]);
    expect(body.results[3].problem).toMatchObject({ code: "unknown_place" });
    expect(body.credits_charged).toBe(2);
    expect(res.headers["x-credits-charged"]).toBe("2");
    expect(await remaining()).toBe(before - 2);
    const single = await market(state.code, state.asset_type);
    expect(body.results[0].etag).toBe(single.headers.etag);
    expect(body.results[0].market).toEqual(single.json());
    expect(body.results[1].etag).toBe(single.headers.etag);
    const singleCity = await market(city.name, city.asset_type);
    expect(body.results[2].etag).toBe(singleCity.headers.etag);
    expect(body.results[2].market).toEqual(singleCity.json());
    const revalidated = await svc.get(`/v1/commercial/markets/snapshot?${q({ geography: state.code, asset_type: state.asset_type })}`, {
      "if-none-match": body.results[0].etag,
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers["x-credits-charged"]).toBe("0");
  });

  test("a batch larger than the credits left is refused (402) with the cost, and nothing is charged", async () => {
    const account = await svc.accounts.create("batch-402@example.com");
    const key = (await svc.keys.createKey(account.id, "batch")).raw;
    // 998 of the Explorer plan's 1,000 credits used, through the store the service charges.
    expect(await svc.app.ledger.hold(account.id, PLANS.explorer, 998)).not.toBeNull();
    const state = placeOf("state");
    const markets = Array.from({ length: 3 }, () => ({ geography: state.code, asset_type: state.asset_type }));
    const res = await svc.post("/v1/commercial/markets/batch", { markets }, { authorization: `Bearer ${key}` });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: "credits_exhausted", cost: 3, credits_remaining: 2 });
    expect(res.headers["x-credits-remaining"]).toBe("2");
    expect(res.headers["x-credits-charged"]).toBe("0");
    // Still two left afterwards: nothing of the batch was charged.
    const after = await svc.get("/v1/commercial/coverage", { authorization: `Bearer ${key}` });
    expect(after.headers["x-credits-remaining"]).toBe("2");
  });
});
