// Each PROP call keeps, beside its cell's outcome, the requests it answered from: against the
// real service on a loopback port, the place as the service read it, the record, the snapshot,
// whether the cache answered, and the credits the service charged.
import { withExcelErrors } from "../../src/functions/excel-errors";
import { marketFigures } from "../../src/functions/market";
import { propertyField } from "../../src/functions/property-field";
import { SEARCH } from "../../src/functions/property-searches";
import { createSession } from "../../src/shared/addin-session";
import type { CellSourceRecord } from "../../src/shared/cell-outcomes";
import { MAX_SOURCES, RequestTrace, answerFacts, operationOf, requestSource } from "../../src/shared/cell-provenance";
import { SETTING_KEYS } from "../../src/shared/settings";
import { startService, type TestService } from "../helpers/service";
import { customFunctionsStandIn, memoryStorage } from "./office-stand-ins";

let svc: TestService;
let base: string;
let propertyId: string;
let propertyName: string;

beforeAll(async () => {
  svc = await startService();
  base = await svc.app.listen({ host: "127.0.0.1", port: 0 });
  const row = svc.snapshot.prepare("SELECT id, name FROM properties ORDER BY id LIMIT 1").get() as { id: string; name: string };
  propertyId = row.id;
  propertyName = row.name;
});
afterAll(() => svc.app.close());

beforeEach(() => {
  (globalThis as Record<string, unknown>).CustomFunctions = customFunctionsStandIn();
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).CustomFunctions;
});

/** A session over the real service that notes the credits each response charged. */
function setup() {
  const charged: number[] = [];
  const storage = memoryStorage({ [SETTING_KEYS.apiKey]: svc.key, [SETTING_KEYS.baseUrl]: base });
  const session = createSession({
    storage: () => storage,
    batchWindowMs: 5,
    onResponse: (info) => charged.push(info.credits?.charged ?? 0),
  });
  return { session, charged };
}

function invocation(address: string, functionName: string): CustomFunctions.CancelableInvocation {
  return { address, functionName, isInValuePreview: false } as unknown as CustomFunctions.CancelableInvocation;
}

function provenanceOf(session: ReturnType<typeof setup>["session"], address: string): CellSourceRecord {
  const outcome = session.outcomes.outcomeOf(address);
  if (!outcome?.ok || !outcome.provenance) throw new Error(`no provenance recorded for ${address}`);
  return outcome.provenance;
}

test("a market figure keeps the place the service resolved, the properties behind it, the snapshot and the credit it cost", async () => {
  const { session, charged } = setup();
  const cell = () =>
    withExcelErrors(invocation("Sheet1!B2", "MARKET"), (ctx) => marketFigures("tx", "industrial", "property_count", null, ctx), session);
  const value = await cell();

  const first = provenanceOf(session, "Sheet1!B2");
  expect(first.functionName).toBe("PROP.MARKET");
  expect(first.sources).toHaveLength(1);
  const [market] = first.sources;
  expect(market).toMatchObject({
    operation: "getMarketSnapshot",
    // As the function's parsing sent it ("tx" typed), and as the service resolved it.
    query: { asset_type: "industrial", geography: "TX" },
    answer: { id: "mkt_TX_industrial", place: "Texas", placeKind: "state", assetType: "industrial" },
    origin: "fetched",
    batched: true,
  });
  expect([[market.answer.propertyCount]]).toEqual(value);
  expect(market.snapshotId).toMatch(/\S/);
  expect(market.capturedAt).toMatch(/^2026-11-01T00:00:00(\.000)?Z$/);
  expect(typeof market.fetchedAt).toBe("number");
  // What the cell says it cost is what the service charged for it.
  expect(market.credits).toBe(1);
  expect(charged.reduce((a, b) => a + b, 0)).toBe(1);

  // Calculated again: from the cache, free, and said so.
  const requests = charged.length;
  await cell();
  expect(charged).toHaveLength(requests);
  expect(provenanceOf(session, "Sheet1!B2").sources[0]).toMatchObject({ origin: "cache", credits: 0, snapshotId: market.snapshotId });

  // After a refresh that found another snapshot, the copy is revalidated: a free 304.
  session.cache.markStaleUnless("snap_other");
  await cell();
  expect(charged.slice(requests)).toEqual([0]);
  expect(provenanceOf(session, "Sheet1!B2").sources[0]).toMatchObject({ origin: "revalidated", credits: 0 });
});

test("a property field keeps the record (id and name) it was read from", async () => {
  const { session } = setup();
  await withExcelErrors(invocation("Sheet1!C3", "PROPERTY"), (ctx) => propertyField(propertyId, "name", null, ctx), session);
  const [record] = provenanceOf(session, "Sheet1!C3").sources;
  expect(record).toMatchObject({
    operation: "getProperty",
    path: `/v1/commercial/properties/${propertyId}`,
    answer: { id: propertyId, name: propertyName },
    origin: "fetched",
    credits: 1,
  });
});

test("a search keeps the inputs it sent (not its paging), how many records matched, and what it cost", async () => {
  const { session, charged } = setup();
  await withExcelErrors(invocation("Sheet2!A1", "SEARCH"), (ctx) => SEARCH.run([null, "TX"], "limit=3", ctx), session);
  const [list] = provenanceOf(session, "Sheet2!A1").sources;
  expect(list.operation).toBe("searchProperties");
  expect(list.query).toMatchObject({ geography: "TX" });
  expect(list.query).not.toHaveProperty("limit");
  expect(list.answer.totalCount).toBeGreaterThan(3);
  expect(list.credits).toBe(charged.reduce((a, b) => a + b, 0));
});

test("a call keeps at most MAX_SOURCES requests, counting the rest and their credits", () => {
  const trace = new RequestTrace();
  const source = { operation: "x", method: "GET" as const, path: "/v1/x", query: {}, answer: {}, origin: "fetched" as const };
  const rest = { snapshotId: null, capturedAt: null, fetchedAt: null, batched: false };
  for (let i = 0; i < MAX_SOURCES + 3; i++) trace.add({ ...source, ...rest, credits: 2 });
  const kept = trace.provenance();
  expect(kept.sources).toHaveLength(MAX_SOURCES);
  expect([kept.more, kept.moreCredits]).toEqual([3, 6]);
  expect(operationOf("POST", "/v1/commercial/properties/match")?.name).toBe("matchProperties");
  expect(operationOf("GET", "/v1/commercial/properties/cp_1")?.name).toBe("getProperty");
});

test("a match answer: the operation is matchProperty (not getProperty of a property 'match'), its facts, and a credit only when it names a property", () => {
  expect(operationOf("GET", "/v1/commercial/properties/match?address=1+Main+St")?.name).toBe("matchProperty");
  const none = { property_id: null, parcel_id: null, matched_address: null, score: null, match: null, candidates: [], detail: null };
  const matched = {
    object: "property_match",
    ...none,
    status: "matched",
    property_id: "cp_1",
    matched_address: "1 Main St, Austin, TX 78701",
    score: 0.8,
    match: "street_spelling",
  };
  expect(answerFacts(matched)).toEqual({
    id: "cp_1",
    address: "1 Main St, Austin, TX 78701",
    match: { status: "matched", score: 0.8, kind: "street_spelling", lowConfidence: true, detail: null, candidates: 0, names: true },
  });
  const candidate = { property_id: "cp_2", address: "2 Main St, Austin, TX 78701", score: 0.9 };
  const ambiguous = { object: "property_match", ...none, status: "ambiguous", candidates: [candidate], detail: "Add the ZIP code." };
  const unmatched = { object: "property_match", ...none, status: "unmatched", detail: "check the street name" };
  expect(answerFacts(unmatched).match).toMatchObject({
    status: "unmatched",
    lowConfidence: false,
    names: false,
    detail: "check the street name",
  });
  const request = { method: "GET" as const, path: "/v1/commercial/properties/match", query: { address: "2 Main St", city: "Austin" } };
  const probe = { held: undefined, fresh: false, joined: false };
  const cost = (body: unknown) => requestSource(request, probe, undefined, body, () => null, true).credits;
  expect([cost(matched), cost(ambiguous), cost(unmatched)]).toEqual([1, 1, 0]);
  expect(requestSource(request, probe, undefined, ambiguous, () => null, true).operation).toBe("matchProperty");
});
