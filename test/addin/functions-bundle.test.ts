// The built bundles run in node:vm with stand-ins for what Office provides, against the real
// service (started here over the shared test snapshot, listening on a loopback port).
// functions.js must register exactly the ids in functions.json; every function, called with
// valid arguments, spills a rectangle with its header first (or returns a value), and called
// with bad ones answers an Excel error with a message, before any request. taskpane.js
// (loaded after it, as taskpane.html does) must register exactly the ribbon functions the
// manifest names.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";
import { ROOT, ensureAddinBuild, readDist } from "./addin-build";
import { loadFunctionsBundle } from "./bundle-harness";
import { ExcelErrorStandIn, wellFormedKey } from "./office-stand-ins";
import { pick, startService, type TestService, listenOnLoopback } from "../helpers/service";

let svc: TestService;
let origin: string;
let ids: { a: string; b: string; c: string; owner: string; tenant: string; state: string; asset: string; address: string };

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
  const [a, b, c] = svc.snapshot.prepare("SELECT id FROM properties WHERE asset_type = 'industrial' ORDER BY id LIMIT 3").all() as {
    id: string;
  }[];
  const owner = pick(svc, "SELECT owner_id FROM properties WHERE owner_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
  const tenant = pick(svc, "SELECT tenant_id FROM tenancies GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
  const state = pick(svc, "SELECT state_code FROM properties WHERE asset_type = 'industrial' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1");
  // An address no other property shares in its city or ZIP code: one match.
  const address = pick(
    svc,
    `SELECT p.address || ', ' || p.city || ', ' || p.state_code || ' ' || p.zip AS line FROM properties p
     WHERE NOT EXISTS (SELECT 1 FROM properties q WHERE q.id <> p.id AND q.address = p.address AND (q.zip = p.zip OR q.city = p.city))
     ORDER BY p.id LIMIT 1`,
  );
  ids = {
    a: a.id,
    b: b.id,
    c: c.id,
    owner: owner.owner_id,
    tenant: tenant.tenant_id,
    state: state.state_code,
    asset: "industrial",
    address: address.line,
  };
}, 240_000);

afterAll(() => svc?.app.close());

async function serviceSendsCredits(): Promise<boolean> {
  const response = await fetch(`${origin}/v1/commercial/coverage`, { headers: { authorization: `Bearer ${svc.key}` } });
  return response.headers.has("x-credits-remaining");
}

const bundle = () => loadFunctionsBundle({ origin, apiKey: svc.key });

/** Valid arguments for every function (a thunk: the ids come from the snapshot). */
const VALID: Record<string, () => unknown[]> = {
  PROPERTY: () => [ids.a, "year_built"],
  CARD: () => [ids.a, null],
  DETAILS: () => [ids.a, null],
  COMPARE: () => [[[ids.a], [ids.b], [""], [ids.c]], "cols=name,building_area_sqft"],
  SALECOMPS: () => [ids.a, null, "limit=5"],
  MARKET: () => [ids.state, ids.asset, null, null],
  MARKETHISTORY: () => [ids.state, ids.asset, [["vacancy_rate", "asking_rent_sqft_year"]], "2020-Q1", null, null],
  MATCH: () => [[[ids.address], [""]], null, null, null, "headers=true; cols=property_id,status,matched_address"],
  HISTORY: () => [ids.a, null],
  ANALYSIS: () => [ids.asset, ids.state, null],
  SEARCH: () => [null, ids.state, "limit=5"],
  ASSETSEARCH: () => [ids.asset, ids.state, "limit=5; cols=id,name,building_area_sqft"],
  PARCELS: () => [ids.state, "limit=5"],
  LISTINGS: () => [null, "active", "limit=5"],
  COMPANIES: () => ["owner", null, "limit=5"],
  PORTFOLIO: () => [ids.owner, "limit=5"],
  FOOTPRINT: () => [ids.tenant, "limit=5"],
  DILIGENCE: () => [null, null, "limit=5"],
  COVERAGE: () => [null, null],
  CATALOG: () => [null, null],
  FIELDS: () => ["property", null],
  CREDITS: () => [null, null],
};

/** Bad arguments for every function, and what the message must mention. */
const BAD: Record<string, [unknown[], RegExp]> = {
  PROPERTY: [["cp_1", "colour"], /"colour" is not a property field/],
  CARD: [["cp_1", "colour=red"], /"colour" is not an option here; use as_of/],
  DETAILS: [["par_1", null], /is not a property id/],
  COMPARE: [[[["cp_1"]], null], /at least two/],
  SALECOMPS: [["Texas!", null, null], /subject/],
  MARKET: [["TX", "castle", null, null], /asset_type: "castle" is not one of/],
  MARKETHISTORY: [["TX", "industrial", "vacancy_rate", "2016-Q5", null, null], /"2016-Q5" is not a quarter/],
  MATCH: [[[["1 Main St"]], null, null, null, "cols=owner_name"], /cols: owner_name is not a field here/],
  HISTORY: [["cp_1", "event_type=renovation"], /"renovation" is not one of built, sale/],
  ANALYSIS: [["industrial", "Texas!", null], /geography: "Texas!" is not a place/],
  SEARCH: [[null, "TX", "limit=5000"], /limit must be at most 1000/],
  ASSETSEARCH: [["industrial", null, "min_units=lots"], /min_units: "lots" is not a number/],
  PARCELS: [[null, "zip=7870"], /five-digit ZIP/],
  LISTINGS: [[null, "for sale", null], /status: "for sale" is not one of/],
  COMPANIES: [["landlord", null, null], /company_type/],
  PORTFOLIO: [[null, null], /owner is empty/],
  FOOTPRINT: [["co_1", "colour=red"], /"colour" is not an option here/],
  DILIGENCE: [[null, null, "min_score=101"], /at most 100/],
  COVERAGE: [["everything", null], /section/],
  CATALOG: [[null, "headers=maybe"], /headers must be true or false/],
  FIELDS: [["castles", null], /not a resource/],
  CREDITS: [["balance", null], /item/],
};

test("functions.js registers exactly the ids in functions.json, and every one has valid and bad arguments here", () => {
  const { customFunctions } = bundle();
  const metadataIds = (JSON.parse(readDist("functions.json")) as { functions: { id: string }[] }).functions.map((f) => f.id);
  expect([...customFunctions.associated.keys()].sort()).toEqual([...metadataIds].sort());
  for (const fn of customFunctions.associated.values()) expect(typeof fn).toBe("function");
  expect(Object.keys(VALID).sort()).toEqual([...metadataIds].sort());
  expect(Object.keys(BAD).sort()).toEqual([...metadataIds].sort());
});

function expectRectangle(result: unknown, id: string) {
  expect(Array.isArray(result)).toBe(true);
  const rows = result as unknown[][];
  expect(rows.length).toBeGreaterThan(0);
  const width = rows[0].length;
  for (const row of rows) expect({ id, width: row.length }).toEqual({ id, width });
  for (const row of rows) for (const cell of row) expect(["string", "number", "boolean"]).toContain(typeof cell);
  return rows;
}

describe("each function with valid arguments, against the service", () => {
  test.each(Object.keys(VALID))("%s", async (id) => {
    const loaded = bundle();
    if (id === "CREDITS" && !(await serviceSendsCredits())) {
      // Until the service sends X-Credits-* headers, the cell must say so rather than guess.
      await expect(loaded.call(id, VALID[id]())).rejects.toMatchObject({
        code: "#N/A",
        message: expect.stringMatching(/did not report credits/),
      });
      return;
    }
    const result = await loaded.call(id, VALID[id]());
    if (id === "PROPERTY") {
      expect(typeof result).toBe("number");
      return;
    }
    // This stand-in host has no CustomFunctionsRuntime 1.4: a card's fallback is the property id.
    if (id === "CARD") {
      expect(result).toBe(ids.a);
      return;
    }
    const rows = expectRectangle(result, id);
    // Header first: a row of distinct, non-empty text naming the columns.
    const header = rows[0];
    for (const name of header) expect(typeof name === "string" && name.length > 0).toBe(true);
    expect(new Set(header).size).toBe(header.length);
    expect(rows.length).toBeGreaterThan(1);
    if (id !== "FIELDS") expect(loaded.calls.length).toBeGreaterThan(0);
    for (const call of loaded.calls) expect(call.status).toBeLessThan(300);
  });

  test("a point MARKET is one number, and the spill's first column names the metrics", async () => {
    const loaded = bundle();
    const value = (await loaded.call("MARKET", [ids.state, ids.asset, "property_count", null])) as unknown[][];
    expect(value).toEqual([[expect.any(Number)]]);
    const spill = (await loaded.call("MARKET", [ids.state, ids.asset, null, null])) as unknown[][];
    expect(spill[0]).toEqual(["metric", "value"]);
    expect(spill.find((r) => r[0] === "property_count")?.[1]).toBe(value[0][0]);
    // The second call asked for the same market: one request (a batch) between them.
    expect(loaded.calls.filter((c) => c.url.includes("/markets/"))).toHaveLength(1);
  });

  test("COMPARE keeps the order of the range and skips blanks", async () => {
    const rows = (await bundle().call("COMPARE", VALID.COMPARE())) as unknown[][];
    expect(rows[0]).toEqual(["name", "building_area_sqft"]);
    expect(rows).toHaveLength(4);
    // A range not in the snapshot's order, with blanks: the rows follow the range.
    const byId = (await bundle().call("COMPARE", [[[ids.c], [""], [ids.a], [null], [ids.b]], "cols=id"])) as unknown[][];
    expect(byId).toEqual([["id"], [ids.c], [ids.a], [ids.b]]);
  });
});

describe("each function with bad arguments", () => {
  test.each(Object.keys(BAD))("%s answers #VALUE! with a message, before any request", async (id) => {
    const loaded = bundle();
    const [args, message] = BAD[id];
    const err = await loaded.call(id, args).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExcelErrorStandIn);
    expect(err).toMatchObject({ code: "#VALUE!", message: expect.stringMatching(message) });
    expect(loaded.calls).toHaveLength(0);
  });
});

test("no key, a mistyped key, and a key the service does not know: #N/A with a reason", async () => {
  const noKey = loadFunctionsBundle({ origin, apiKey: null });
  await expect(noKey.call("COVERAGE", [null, null])).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringMatching(/No API key yet/),
  });
  const typo = loadFunctionsBundle({ origin, apiKey: `${svc.key.slice(0, -1)}${svc.key.endsWith("A") ? "B" : "A"}` });
  await expect(typo.call("COVERAGE", [null, null])).rejects.toMatchObject({ code: "#N/A", message: expect.stringMatching(/checksum/) });
  expect(noKey.calls.length + typo.calls.length).toBe(0);
  const unknown = loadFunctionsBundle({ origin, apiKey: wellFormedKey("live") });
  await expect(unknown.call("COVERAGE", [null, null])).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringMatching(/API key not accepted/),
  });
});

test("an id the snapshot does not have: #N/A saying so, and a recalculation asks again for nothing", async () => {
  const loaded = bundle();
  await expect(loaded.call("PROPERTY", ["cp_doesnotexist", "name"])).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringMatching(/no commercial property 'cp_doesnotexist'/),
  });
  await expect(loaded.call("PROPERTY", ["cp_doesnotexist", "name"])).rejects.toMatchObject({ code: "#N/A" });
  expect(loaded.calls).toHaveLength(1);
});

test("a formula-edit preview makes no metered request", async () => {
  const loaded = bundle();
  const preview = { functionName: "SEARCH", isInValuePreview: true };
  await expect(loaded.call("SEARCH", [null, ids.state, "limit=5"], preview)).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringMatching(/preview/),
  });
  expect(loaded.calls).toHaveLength(0);
  // Free endpoints are fine in a preview.
  const coverage = await loaded.call("COVERAGE", [null, null], { functionName: "COVERAGE", isInValuePreview: true });
  expect(Array.isArray(coverage) && coverage[0]).toEqual(["resource", "count"]);
});

test("taskpane.js, loaded after functions.js, registers exactly the ribbon functions manifest.xml names", () => {
  const { context } = bundle();
  const actions = new Map<string, unknown>();
  context.Office = {
    onReady: (callback: () => void) => callback(),
    actions: { associate: (name: string, fn: unknown) => actions.set(name, fn) },
  };
  // No pane markup: the runtime registers the ribbon commands and mounts nothing (the pane
  // itself is tested in Chromium, test/browser/taskpane.test.ts).
  context.document = { getElementById: () => null };
  vm.runInContext(readDist("taskpane.js"), context, { filename: "taskpane.js" });

  const manifest = fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8");
  const named = [...manifest.matchAll(/<FunctionName>\s*([^<\s]+)\s*<\/FunctionName>/g)].map((m) => m[1]);
  expect([...actions.keys()].sort()).toEqual([...new Set(named)].sort());
  expect(actions.size).toBeGreaterThan(0);
});

test("Refresh workbook (taskpane.js's ribbon command) in a host whose formulas it cannot list: one free check, a full recalculation, every cell from the cache", async () => {
  const loaded = bundle();
  const model = async () => {
    const cells = [
      loaded.call("PROPERTY", [ids.a, "year_built"]),
      loaded.call("PROPERTY", [ids.b, "name"]),
      loaded.call("PROPERTY", [ids.c, "building_area_sqft"]),
      loaded.call("SALECOMPS", [ids.a, null, "limit=5"]),
      loaded.call("MARKET", [ids.state, ids.asset, "property_count", null]),
    ];
    return Promise.all(cells);
  };
  const first = await model();
  // Three properties asked at once: one compare request for all three.
  expect(loaded.calls.filter((c) => c.url.includes("/properties")).map((c) => c.method)).toEqual(["POST"]);

  let recalculated = 0;
  const actions = new Map<string, (event: { completed(): void }) => Promise<void>>();
  loaded.context.Office = { onReady: (cb: () => void) => cb(), actions: { associate: (name: string, fn: never) => actions.set(name, fn) } };
  loaded.context.document = { getElementById: () => null };
  // A host with no worksheets to list formulas from: the command falls back to Excel's full
  // recalculation (the refresh of each formula is tested in test/taskpane/pane-flows.test.ts).
  loaded.context.console = { ...console, warn: () => undefined };
  loaded.context.Excel = {
    CalculationType: { full: "Full" },
    run: async (body: (ctx: unknown) => Promise<void>) =>
      body({
        workbook: { application: { calculate: (type: string) => (recalculated += type === "Full" ? 1 : 0) } },
        sync: async () => undefined,
      }),
  };
  vm.runInContext(readDist("taskpane.js"), loaded.context, { filename: "taskpane.js" });
  const before = loaded.calls.length;

  await new Promise<void>((resolve) => void actions.get("refreshWorkbook")!({ completed: resolve }));
  expect(recalculated).toBe(1);
  // Excel's full recalculation runs every formula again: the cache answers all of them.
  await expect(model()).resolves.toEqual(first);
  const after = loaded.calls.slice(before);
  expect(after.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual(["GET /v1/commercial/coverage"]);
  expect(after[0].charged ?? 0).toBe(0);
});
