// Every operation of the OpenAPI document the service serves, called for every answer it can
// give: success, 304, 400, 401, 402, 404, 413, 415 and 429, with inputs read from the test
// snapshot. Each answer must have a status the document declares for that operation, the
// declared content type, a body that validates against the schema declared for that status
// (JSON Schema 2020-12, as OpenAPI 3.1 clients read it; no body where none is declared) and
// the declared headers. The other way round, every status the document declares for an
// operation must have been answered here: a declared set that is short, or padded with
// statuses the operation never answers, fails. 500 is declared everywhere and provoked where a
// broken snapshot can provoke it (the last test).
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import type Database from "better-sqlite3";
import type { SqliteStores } from "../../src/server/stores/sqlite";
import { PLANS } from "../../src/server/auth/plans";
import { periodOf } from "../../src/server/credits/periods";
import { publishedDocument } from "../../src/server/openapi/published-document";
import { API_ROUTES } from "../../src/server/routes";
import { DEFAULT_BODY_LIMIT } from "../../src/contract/operation";
import { type OpenApiDoc, type Operation, SchemaValidator, type JsonSchema, operationsOf, pointer } from "../helpers/openapi-document";
import { startService } from "../helpers/service";

/** One request to an operation. */
interface Call {
  /** Path parameters by name. */
  path?: Record<string, string>;
  query?: Record<string, string | number>;
  /** A JSON body (sent as application/json). */
  body?: unknown;
  /** A body sent as it is, with its content type. */
  raw?: { type: string; text: string };
}

/** The requests that get an operation's answers (401, 402, 429, 304, 413 and 415 are derived from `ok`). */
interface Calls {
  /** Answered 200. */
  ok: Call[];
  /** Answered 400. */
  invalid: Call[];
  /** Answered 404: only operations that look up something the caller names can answer it. */
  missing?: Call[];
}

/** An asset type with a search input this snapshot does not support for it (from the catalog). */
interface CatalogFacts {
  unsupported: { assetType: string; input: string };
}

/** Real ids and values from the test snapshot, so the calls ask about what is there. */
function snapshotFacts(db: Database.Database, catalog: CatalogFacts) {
  const one = <T>(sql: string, ...params: unknown[]): T => {
    const row = db.prepare(sql).get(...params) as T | undefined;
    if (!row) throw new Error(`the test snapshot has no row for: ${sql}`);
    return row;
  };
  type Property = {
    id: string;
    asset_type: string;
    state_code: string;
    metro_id: string;
    name: string;
    address: string;
    city: string;
    zip: string;
  };
  return {
    // A property without a building class: its null must validate (the enum lists null).
    unclassed: one<Property>("SELECT * FROM properties WHERE building_class IS NULL ORDER BY id LIMIT 1"),
    classed: one<Property>("SELECT * FROM properties WHERE building_class IS NOT NULL AND metro_id IS NOT NULL ORDER BY id LIMIT 1"),
    // The subject with the most sales of its asset type in its metro, so a subject search finds comps.
    subject: one<{ id: string }>(
      `SELECT p.id FROM properties p JOIN sales s ON s.asset_type = p.asset_type AND s.metro_id = p.metro_id AND s.property_id <> p.id
       GROUP BY p.id ORDER BY count(*) DESC, p.id LIMIT 1`,
    ),
    unclassedSale: one<{ state_code: string; metro_id: string; asset_type: string }>(
      "SELECT state_code, metro_id, asset_type FROM sales WHERE building_class IS NULL AND metro_id IS NOT NULL ORDER BY id LIMIT 1",
    ),
    parcel: one<{ state_code: string; apn: string }>("SELECT state_code, apn FROM parcels ORDER BY rowid LIMIT 1"),
    listingStatuses: db.prepare("SELECT DISTINCT status FROM listings ORDER BY status").pluck().all() as string[],
    markets: ["state", "city", "metro"].map((type) =>
      one<{ geography_id: string; geography_name: string; asset_type: string }>(
        "SELECT geography_id, geography_name, asset_type FROM markets WHERE geography_type = ? ORDER BY property_count DESC, id LIMIT 1",
        type,
      ),
    ),
    // A place the snapshot holds with no properties of some asset type: the market endpoint's 404.
    noMarket: one<{ geography: string; asset_type: string }>(
      `SELECT p.name AS geography, t.asset_type FROM places p, (SELECT DISTINCT asset_type FROM markets) t
       WHERE p.kind = 'city' AND NOT EXISTS (SELECT 1 FROM markets m WHERE m.geography_type = 'city' AND m.geography_id = p.code AND m.asset_type = t.asset_type)
       ORDER BY p.record_count DESC, p.code, t.asset_type LIMIT 1`,
    ),
    // A city name found in several states: ambiguous where one market is asked for.
    sharedCityName: one<{ local_name: string }>(
      "SELECT min(local_name) AS local_name FROM places WHERE kind = 'city' GROUP BY key HAVING count(*) > 1 ORDER BY key LIMIT 1",
    ).local_name,
    owner: one<{ id: string; name: string }>(
      "SELECT id, name FROM companies WHERE company_type = 'owner' ORDER BY property_count DESC, id LIMIT 1",
    ),
    tenant: one<{ id: string; name: string }>(
      "SELECT c.id, c.name FROM companies c JOIN tenancies t ON t.tenant_id = c.id GROUP BY c.id ORDER BY count(*) DESC, c.id LIMIT 1",
    ),
    companyTypes: db.prepare("SELECT DISTINCT company_type FROM companies ORDER BY company_type").pluck().all() as string[],
    ...catalog,
  };
}

type Facts = ReturnType<typeof snapshotFacts>;

/**
 * The calls of each operation that takes inputs, by operationId (callsFor gives one without
 * inputs its calls). An operation that needs inputs and is missing here fails its test.
 */
function callsOf(f: Facts): Record<string, Calls> {
  const nowhere = { property: "cp_doesnotexist", company: "co_doesnotexist" };
  const propertyIds = [f.unclassed.id, f.classed.id];
  return {
    listParcels: {
      ok: [{ query: { limit: 100 } }, { query: { state_code: f.parcel.state_code, apn: f.parcel.apn } }],
      invalid: [{ query: { limit: 0 } }, { query: { stat_code: "TX" } }, { query: { geography: "metro-austin-tx" } }], // unsupported_place
    },
    searchListings: {
      ok: f.listingStatuses.map((status) => ({ query: { status, limit: 50 } })),
      invalid: [{ query: { status: "bogus" } }, { query: { min_price: 900000, max_price: 100000 } }],
    },
    getCoverage: { ok: [{}], invalid: [{ query: { state_code: "TX" } }] },
    getCatalog: { ok: [{}], invalid: [{ query: { limit: 5 } }] },
    searchProperties: {
      ok: [
        { query: { asset_type: f.unclassed.asset_type, limit: 100 } },
        { query: { state_code: f.unclassed.state_code, limit: 100 } },
        { query: { q: f.unclassed.name.split(" ")[0], limit: 10 } },
      ],
      invalid: [
        { query: { limit: 101 } },
        { query: { asset_type: f.unsupported.assetType, [f.unsupported.input]: 1 } }, // unsupported_filter
        { query: { geography: "Springfeld, IL" } }, // unknown_place
      ],
    },
    getProperty: {
      ok: propertyIds.map((property_id) => ({ path: { property_id } })),
      invalid: [{ path: { property_id: "cp_" + "x".repeat(62) } }],
      missing: [{ path: { property_id: nowhere.property } }],
    },
    getPropertyHistory: {
      ok: [
        ...propertyIds.map((property_id) => ({ path: { property_id } })),
        { path: { property_id: f.classed.id }, query: { event_type: "built,sale,lease_start", from: "1900-01-01", limit: 5 } },
      ],
      invalid: [
        { path: { property_id: f.classed.id }, query: { event_type: "renovation" } },
        { path: { property_id: f.classed.id }, query: { from: "2024-01-01", to: "2020-01-01" } },
      ],
      missing: [{ path: { property_id: nowhere.property } }],
    },
    compareProperties: {
      ok: [
        { body: { property_ids: propertyIds } },
        { body: { property_ids: propertyIds, fields: ["building_class", "units", "occupancy_rate"] } },
      ],
      invalid: [{ body: { property_ids: [f.unclassed.id] } }, { raw: { type: "application/json", text: '{"property_ids": [' } }],
      missing: [{ body: { property_ids: [f.unclassed.id, nowhere.property] } }],
    },
    matchProperties: {
      ok: [
        {
          body: {
            addresses: [
              { ref: "1", address: `${f.classed.address}, ${f.classed.city}, ${f.classed.state_code} ${f.classed.zip}` },
              { ref: "2", address: f.unclassed.address, city: f.unclassed.city, state: f.unclassed.state_code },
              { ref: "3", address: "1 Nowhere Lane", zip: "00000" },
              { ref: "4", state: "Atlantis" },
            ],
          },
        },
      ],
      invalid: [{ body: { addresses: [] } }, { body: { addresses: [{ address: "1 Main St" }] } }],
    },
    matchProperty: {
      ok: [
        { query: { address: `${f.classed.address}, ${f.classed.city}, ${f.classed.state_code}` } },
        { query: { address: "1 Nowhere Lane", zip: "00000" } },
      ],
      invalid: [{ query: {} }, { query: { address: f.classed.address, state: "Atlantis" } }],
    },
    findSaleComps: {
      ok: [
        { query: { property_id: f.subject.id, limit: 50 } },
        { query: { state_code: f.unclassedSale.state_code, asset_type: f.unclassedSale.asset_type, limit: 100 } },
        { query: { metro_id: f.unclassedSale.metro_id, limit: 100 } },
      ],
      invalid: [
        { query: {} },
        { query: { property_id: f.subject.id, max_distance_miles: 0 } },
        { query: { state_code: f.unclassedSale.state_code, min_sale_date: "2024-01-01", max_sale_date: "2023-01-01" } },
        { query: { state_code: f.unclassedSale.state_code, sort: "distance_miles" } },
      ],
      missing: [{ query: { property_id: nowhere.property } }],
    },
    getMarketSnapshot: {
      ok: f.markets.map((m, i) => ({ query: { geography: i === 1 ? m.geography_name : m.geography_id, asset_type: m.asset_type } })),
      invalid: [
        { query: { geography: "TX" } },
        { query: { geography: "Atlantis, FL", asset_type: f.markets[0].asset_type } }, // unknown_place
        { query: { geography: f.sharedCityName, asset_type: f.markets[0].asset_type } }, // ambiguous_place
      ],
      missing: [{ query: { geography: f.noMarket.geography, asset_type: f.noMarket.asset_type } }],
    },
    getMarketHistory: {
      ok: [
        ...f.markets.map((m, i) => ({ query: { geography: i === 1 ? m.geography_name : m.geography_id, asset_type: m.asset_type } })),
        {
          query: {
            geography: f.markets[0].geography_id,
            asset_type: f.markets[0].asset_type,
            metrics: "sales_volume,inventory_sqft,net_absorption_sqft",
            from: "2019-01-01",
            to: "2022-12-31",
            interval: "year",
          },
        },
      ],
      invalid: [
        { query: { geography: f.markets[0].geography_id, asset_type: f.markets[0].asset_type, metrics: "rent_index" } },
        { query: { geography: f.markets[0].geography_id, asset_type: f.markets[0].asset_type, from: "2024-01-01", to: "2020-01-01" } },
        { query: { geography: "Atlantis, FL", asset_type: f.markets[0].asset_type } },
      ],
      missing: [{ query: { geography: f.noMarket.geography, asset_type: f.noMarket.asset_type } }],
    },
    getMarketSnapshotBatch: {
      ok: [
        {
          body: {
            markets: [
              ...f.markets.map((m) => ({ geography: m.geography_name, asset_type: m.asset_type })),
              { geography: "Atlantis, FL", asset_type: f.markets[0].asset_type },
              { geography: f.noMarket.geography, asset_type: f.noMarket.asset_type },
            ],
          },
        },
      ],
      invalid: [
        { body: { markets: [] } },
        { body: { markets: [{ geography: "TX" }] } },
        { raw: { type: "application/json", text: '{"markets": [' } },
      ],
    },
    analyseAssetType: {
      ok: [
        { path: { asset_type: f.unclassed.asset_type } },
        { path: { asset_type: f.classed.asset_type }, query: { state_code: f.classed.state_code } },
        { path: { asset_type: f.classed.asset_type }, query: { metro_id: f.classed.metro_id } },
      ],
      invalid: [{ path: { asset_type: f.classed.asset_type }, query: { state_code: "Texas" } }],
      missing: [{ path: { asset_type: "spaceport" } }],
    },
    searchAssetProperties: {
      ok: [{ path: { asset_type: f.unclassed.asset_type }, query: { limit: 100 } }],
      invalid: [{ path: { asset_type: f.unsupported.assetType }, query: { [f.unsupported.input]: 1 } }],
      missing: [{ path: { asset_type: "spaceport" } }],
    },
    getOwnerPortfolio: {
      ok: [{ query: { owner_id: f.owner.id, limit: 100 } }, { query: { owner_name: f.owner.name } }],
      invalid: [
        { query: {} },
        { query: { owner_name: "an", name_match: "unique" } },
        { query: { owner_id: f.owner.id, geography: "00000" } },
      ],
      missing: [{ query: { owner_id: nowhere.company } }],
    },
    searchCompanies: {
      ok: f.companyTypes.map((company_type) => ({ path: { company_type }, query: { limit: 100 } })),
      invalid: [{ path: { company_type: "owner" }, query: { q: "" } }],
      missing: [{ path: { company_type: "astronaut" } }],
    },
    getTenantFootprint: {
      ok: [{ query: { tenant_id: f.tenant.id, limit: 100 } }, { query: { tenant_name: f.tenant.name } }],
      invalid: [{ query: {} }],
      missing: [{ query: { tenant_id: nowhere.company } }],
    },
    rankDiligenceCandidates: {
      ok: [{ query: { limit: 100 } }],
      invalid: [{ query: { min_score: 101 } }],
    },
  };
}

// ---- the service, on a clock the test moves ----

let clockMs = Date.parse("2026-11-15T12:00:00Z");
const now = () => new Date(clockMs);
const EXPLORER = PLANS.explorer;

let app: FastifyInstance;
let accountsDb: Database.Database;
let stores: SqliteStores;
let served: OpenApiDoc;
let validator: SchemaValidator;
let calls: Record<string, Calls>;
let accounts = 0;

/** A key of a new Explorer account; with `creditsLeft`, the account has used all but that many this period. */
function newKey(creditsLeft?: number): string {
  const account = stores.accounts.create(`conformance-${++accounts}@example.com`);
  if (creditsLeft !== undefined) {
    accountsDb
      .prepare("INSERT INTO credit_usage (account_id, period, used) VALUES (?, ?, ?)")
      .run(account.id, periodOf(now()), EXPLORER.monthlyCredits - creditsLeft);
  }
  return stores.keys.createKey(account.id, "conformance").raw;
}

let mainKey: string;

beforeAll(async () => {
  const built = await startService({ now, store: "sqlite", email: null });
  app = built.app;
  stores = built.sqlite!;
  accountsDb = stores.db;
  const snapshot = built.snapshot;
  mainKey = newKey();
  served = (await app.inject({ method: "GET", url: "/v1/openapi.json" })).json();
  validator = new SchemaValidator(served);
  const catalog = (
    await app.inject({ method: "GET", url: "/v1/commercial/catalog", headers: { authorization: `Bearer ${mainKey}` } })
  ).json();
  const withGap = (catalog.asset_types as { asset_type: string; unsupported_inputs: { input: string }[] }[]).find(
    (a) => a.unsupported_inputs.length,
  );
  if (!withGap) throw new Error("the test snapshot supports every input for every asset type: no unsupported_filter to ask for");
  calls = callsOf(snapshotFacts(snapshot, { unsupported: { assetType: withGap.asset_type, input: withGap.unsupported_inputs[0].input } }));
});
afterAll(() => app.close());

function urlOf(o: Operation, call: Call): string {
  const path = o.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = call.path?.[name];
    if (value === undefined) throw new Error(`${o.op.operationId}: a call without its path parameter '${name}'`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(Object.entries(call.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  return query ? `${path}?${query}` : path;
}

function send(o: Operation, call: Call, headers: Record<string, string>, to: FastifyInstance = app): Promise<LightMyRequestResponse> {
  const request: InjectOptions = { method: o.method as InjectOptions["method"], url: urlOf(o, call), headers: { ...headers } };
  if (call.raw) {
    request.payload = call.raw.text;
    request.headers = { ...request.headers, "content-type": call.raw.type };
  } else if (call.body !== undefined) {
    request.payload = call.body as InjectOptions["payload"];
  }
  return to.inject(request);
}

/** A call with the main key, a second after the last, so its token bucket never runs dry. */
function sendAsMain(o: Operation, call: Call, headers: Record<string, string> = {}) {
  clockMs += 1000;
  return send(o, call, { authorization: `Bearer ${mainKey}`, ...headers });
}

/** A header's text as the value its schema describes (headers are text; the schema may say integer). */
function headerValue(schema: JsonSchema, text: string): unknown {
  const numeric = schema.type === "integer" || schema.type === "number";
  return numeric && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/**
 * Checks one answer against what the document declares for its status, and records the status
 * as answered. Returns what does not conform (empty when the answer does).
 */
function nonConformance(o: Operation, res: LightMyRequestResponse, expected: number, label: string, answered: Set<string>): string[] {
  const status = String(res.statusCode);
  const where = `${o.op.operationId} ${label}`;
  if (res.statusCode !== expected) return [`${where}: answered ${status}, expected ${expected}: ${res.body.slice(0, 300)}`];
  answered.add(status);
  const declared = o.op.responses[status];
  if (!declared) return [`${where}: answered ${status}, which the document does not declare for ${o.method} ${o.path}`];
  const problems: string[] = [];
  const contentType = String(res.headers["content-type"] ?? "")
    .split(";")[0]
    .trim();
  if (declared.content) {
    if (!(contentType in declared.content)) {
      problems.push(`${where}: content type '${contentType}', declared ${Object.keys(declared.content).join(", ")}`);
    } else {
      const errors = validator.errors(pointer(...o.at, "responses", status, "content", contentType, "schema"), res.json());
      problems.push(...errors.slice(0, 5).map((e) => `${where}: body ${e}`));
    }
  } else if (res.body !== "" || contentType !== "") {
    problems.push(`${where}: a body ('${contentType}', ${res.body.length} characters) where the document declares none`);
  }
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`${where}: no ${name} header, which the document declares required`);
      continue;
    }
    const errors = validator.errors(
      pointer(...o.at, "responses", status, "headers", name, "schema"),
      headerValue(header.schema, String(value)),
    );
    problems.push(...errors.map((e) => `${where}: header ${name}: ${e}`));
  }
  return problems;
}

/** Statuses declared for every operation that no single operation can be made to answer here. */
const NOT_PROVOKED_PER_OPERATION = new Set(["500", "503"]);

/**
 * The calls of an operation: those callsOf gives it, or, for one that takes no path parameter,
 * no required query input and no body, a call with nothing and one with a parameter it does not
 * take (400). An operation that needs inputs has no calls until callsOf gives it some.
 */
function callsFor(o: Operation): Calls | undefined {
  const given = calls[o.op.operationId];
  if (given) return given;
  const needs = (o.op.parameters ?? []).some((p) => p.in === "path" || p.required);
  return needs || o.op.requestBody ? undefined : { ok: [{}], invalid: [{ query: { not_an_input: 1 } }] };
}

test("the document served is the one npm run docs:api publishes, and every operation in it has calls", async () => {
  expect(served).toEqual(JSON.parse(JSON.stringify(await publishedDocument(API_ROUTES))));
  const operations = operationsOf(served);
  const ids = operations.map((o) => o.op.operationId);
  // An operation without calls: add them to callsOf.
  expect(operations.filter((o) => !callsFor(o)).map((o) => o.op.operationId)).toEqual([]);
  expect(Object.keys(calls).filter((id) => !ids.includes(id))).toEqual([]); // calls for an operation that is gone
});

const cases = API_ROUTES.map((r) => [`${r.operation.method} ${r.operation.path}`, r.operation.name] as const);

test.each(cases)("%s answers as the document declares", async (_name, name) => {
  const o = operationsOf(served).find((x) => x.op.operationId === name);
  if (!o) throw new Error(`${name} is not in the document served`);
  const mine = callsFor(o);
  if (!mine) throw new Error(`no calls for ${o.op.operationId}: add them to callsOf in this file, so its answers are checked`);
  const answered = new Set<string>();
  const problems: string[] = [];
  const check = (res: LightMyRequestResponse, expected: number, label: string) => {
    problems.push(...nonConformance(o, res, expected, label, answered));
  };

  let first: LightMyRequestResponse | undefined;
  for (const [i, call] of mine.ok.entries()) {
    const res = await sendAsMain(o, call);
    check(res, 200, `ok[${i}] ${urlOf(o, call)}`);
    first ??= res;
    // Lists are asked about what the snapshot holds, so their records are validated too.
    const data = res.statusCode === 200 ? (res.json() as { data?: unknown }).data : undefined;
    if (Array.isArray(data) && data.length === 0)
      problems.push(`${o.op.operationId} ok[${i}]: an empty list validates nothing; ask for records the snapshot has`);
  }
  if (o.method === "GET" && first?.headers.etag) {
    check(await sendAsMain(o, mine.ok[0], { "if-none-match": String(first.headers.etag) }), 304, "If-None-Match");
  }
  for (const [i, call] of mine.invalid.entries()) check(await sendAsMain(o, call), 400, `invalid[${i}] ${urlOf(o, call)}`);
  for (const [i, call] of (mine.missing ?? []).entries()) check(await sendAsMain(o, call), 404, `missing[${i}] ${urlOf(o, call)}`);
  // Every operation takes the snapshot selectors: the one snapshot kept here by its id and by a
  // later date; both at once and a malformed date are 400s, an id not kept a 404.
  const pinned = (selectors: Record<string, string>): Call => ({ ...mine.ok[0], query: { ...mine.ok[0].query, ...selectors } });
  const latestId = app.snapshot.ref.id;
  check(await sendAsMain(o, pinned({ snapshot: latestId })), 200, "snapshot=<the id kept>");
  check(await sendAsMain(o, pinned({ as_of: "2999-12-31" })), 200, "as_of after its capture");
  check(await sendAsMain(o, pinned({ snapshot: latestId, as_of: "2999-12-31" })), 400, "snapshot and as_of");
  check(await sendAsMain(o, pinned({ as_of: "2026-02-30" })), 400, "as_of not a date");
  check(await sendAsMain(o, pinned({ snapshot: "snap_000000000000" })), 404, "snapshot not kept");

  check(await send(o, mine.ok[0], {}), 401, "no key");
  check(await send(o, mine.ok[0], { authorization: "Bearer propi_live_000000000000_notakey" }), 401, "malformed key");

  // One credit short of the published cost: 402, unless the call is free (free calls always work).
  const cost = o.op["x-credit-cost"];
  const short = await send(o, mine.ok[0], { authorization: `Bearer ${newKey(Math.max(0, cost - 1))}` });
  check(short, cost > 0 ? 402 : 200, `credits left: ${Math.max(0, cost - 1)}`);

  // A key whose token bucket is empty (the clock stands still while it is emptied).
  const limited = { authorization: `Bearer ${newKey()}` };
  for (let i = 0; i < EXPLORER.rate.burst; i++) await app.inject({ method: "GET", url: "/v1/commercial/coverage", headers: limited });
  check(await send(o, mine.ok[0], limited), 429, "bucket empty");

  if (o.op.requestBody) {
    const body = mine.ok[0].body;
    const limit = API_ROUTES.find((r) => r.operation.name === o.op.operationId)?.operation.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const oversized = JSON.stringify({ ...(body as object), padding: "x".repeat(limit) });
    check(
      await sendAsMain(o, { ...mine.ok[0], body: undefined, raw: { type: "application/json", text: oversized } }),
      413,
      `body over ${limit / 1024} KiB`,
    );
    check(
      await sendAsMain(o, { ...mine.ok[0], body: undefined, raw: { type: "text/plain", text: JSON.stringify(body) } }),
      415,
      "text/plain body",
    );
  }

  const declared = Object.keys(o.op.responses).filter((s) => !NOT_PROVOKED_PER_OPERATION.has(s));
  for (const s of declared)
    if (!answered.has(s)) problems.push(`${o.op.operationId}: declares ${s}, which none of its calls here was answered`);
  expect(problems).toEqual([]);
});

test("a failure inside the service answers the 500 problem every operation declares", async () => {
  // The same service over a snapshot closed under it: every query on the snapshot throws.
  // Operations that answer from what was read at start (coverage) still succeed.
  const { app: broken, key, snapshot } = await startService({ now, store: "sqlite", email: "broken@example.com" });
  snapshot.close();
  const failed: string[] = [];
  const problems: string[] = [];
  try {
    for (const o of operationsOf(served)) {
      const res = await send(o, callsFor(o)!.ok[0], { authorization: `Bearer ${key}` }, broken);
      if (res.statusCode === 200) continue;
      problems.push(...nonConformance(o, res, 500, "snapshot closed", new Set()));
      if (res.statusCode === 500) failed.push(o.op.operationId);
    }
  } finally {
    await broken.close();
  }
  expect(problems).toEqual([]);
  expect(failed).toContain("getProperty");
  expect(failed.length).toBeGreaterThan(operationsOf(served).length / 2);
});

test("a store outage answers the 503 problem every operation declares", async () => {
  // The same service over a store whose rate limits cannot be reached (as PostgreSQL's, stopped).
  const { app: down, key, stores: outOfReach } = await startService({ now, store: "sqlite", email: "outage@example.com" });
  outOfReach.rateLimits.take = () => {
    throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  };
  const problems: string[] = [];
  try {
    for (const o of operationsOf(served)) {
      const res = await send(o, callsFor(o)!.ok[0], { authorization: `Bearer ${key}` }, down);
      if (o.op.responses["503"] === undefined) continue; // free and unmetered (the document itself)
      problems.push(...nonConformance(o, res, 503, "store unreachable", new Set()));
      if (res.headers["retry-after"] !== "5") problems.push(`${o.op.operationId}: 503 without Retry-After: 5`);
    }
  } finally {
    await down.close();
  }
  expect(problems).toEqual([]);
});
