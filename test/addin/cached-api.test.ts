// Recalculation never bills: the gateway over a stubbed service. Point calls are batched,
// a recalculation makes no request, a refresh of an unchanged snapshot costs one free request,
// a changed snapshot revalidates with If-None-Match, previews make no metered call, and a
// reopened workbook starts from the stored cache.
import { propertyField } from "../../src/functions/property-field";
import { SALECOMPS } from "../../src/functions/sale-comps";
import { marketFigures } from "../../src/functions/market";
import { compareTable } from "../../src/functions/compare-table";
import { credits } from "../../src/functions/credits";
import { SEARCH } from "../../src/functions/property-searches";
import { contextOf } from "../../src/functions/call-context";
import { ENDPOINTS } from "../../src/shared/endpoints";
import { OPERATIONS } from "../../src/contract/operations";
import { toExcelSerial } from "../../src/functions/cell-values";
import { jsonResponse, problemResponse } from "./office-stand-ins";
import { compareResponse, listResponse, propertyRecord, testSession, type SeenRequest } from "./session-factory";

/** A service whose snapshot can change under the add-in, with ETags and 304s like the real one. */
function fakeService(state = { snapshot: "snap_1" }) {
  const etagged = (req: SeenRequest, etag: string, body: unknown, headers: Record<string, string> = {}) =>
    req.headers["If-None-Match"] === etag
      ? new Response(null, { status: 304, headers: { etag, ...headers } })
      : new Response(JSON.stringify(body), { headers: { "content-type": "application/json", etag, ...headers } });
  const handler = (req: SeenRequest): Response => {
    if (req.path === "/v1/commercial/coverage") {
      return etagged(
        req,
        `"cov-${state.snapshot}"`,
        { object: "coverage", snapshot: { id: state.snapshot, captured_at: "2025-01-01T00:00:00Z" }, counts: { properties: 100 } },
        { "x-credits-limit": "1000", "x-credits-remaining": "990", "x-credits-charged": "0", "x-credits-reset": "2025-02-01T00:00:00Z" },
      );
    }
    if (req.method === "POST" && req.path.endsWith("/compare")) {
      return compareResponse(req.body.property_ids, state.snapshot, req.body.if_none_match);
    }
    const detail = /^\/v1\/commercial\/properties\/(cp_\w+)$/.exec(req.path);
    if (detail) return etagged(req, `"${detail[1]}"`, propertyRecord(detail[1]));
    if (req.path === "/v1/commercial/sale-comps") {
      const body = {
        object: "list",
        data: [{ id: "sale_1", object: "sale_comp", sale_price: 5e6 }],
        has_more: false,
        next_offset: null,
        total_count: 1,
        snapshot: { id: state.snapshot },
      };
      return etagged(req, `"comps-${state.snapshot}"`, body);
    }
    const market = { id: "mkt_TX_industrial", object: "market_snapshot", geography_name: "Texas", vacancy_rate: 0.07, property_count: 40 };
    if (req.path === "/v1/commercial/markets/snapshot") return etagged(req, '"mkt"', market);
    if (req.method === "POST" && req.path === "/v1/commercial/markets/batch") {
      const results = req.body.markets.map(
        ({ if_none_match, ...m }: { geography: string; asset_type: string; if_none_match?: string }) => ({
          ...m,
          status: if_none_match === '"mkt"' ? 304 : 200,
          market: if_none_match === '"mkt"' ? null : market,
          etag: '"mkt"',
          problem: null,
        }),
      );
      return jsonResponse({
        object: "market_batch",
        results,
        credits_charged: 1,
        snapshot: { id: state.snapshot, captured_at: "2025-01-01T00:00:00Z" },
      });
    }
    if (req.method === "POST" && req.path === "/v1/commercial/properties/match") {
      // Every address matches; its validator is its address's, unchanged across snapshots.
      // An unchanged row carries no content, as the service answers it.
      const data = req.body.addresses.map(({ ref, if_none_match, ...ask }: { ref: string; address: string; if_none_match?: string }) => {
        const unchanged = if_none_match === `W/"m-${ask.address}"`;
        return {
          ref,
          status: "matched",
          property_id: unchanged ? null : "cp_1",
          parcel_id: null,
          matched_address: unchanged ? null : ask.address,
          score: unchanged ? null : 1,
          match: unchanged ? null : "exact",
          candidates: [],
          detail: null,
          etag: `W/"m-${ask.address}"`,
          unchanged,
        };
      });
      const charged = data.filter((r: { unchanged: boolean }) => !r.unchanged).length;
      return jsonResponse({
        object: "property_matches",
        data,
        counts: { matched: data.length, ambiguous: 0, unmatched: 0, refused: 0 },
        credits_charged: charged,
        snapshot: { id: state.snapshot, captured_at: "2025-01-01T00:00:00Z" },
      });
    }
    return problemResponse(404, { detail: `no route ${req.path}`, code: "not_found" });
  };
  return { state, handler };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `cp_${i}`);

/** A model: 10 point cells per property plus a few table cells, calculated all at once. */
function calculate(ctx: ReturnType<typeof testSession>["ctx"], properties: string[]) {
  const fields = [
    "name",
    "year_built",
    "building_area_sqft",
    "asset_type",
    "id",
    "name",
    "year_built",
    "asset_type",
    "building_area_sqft",
    "id",
  ];
  const points = properties.flatMap((id) => fields.map((f) => propertyField(id, f, null, ctx)));
  const tables = [
    SALECOMPS.run(["TX", "industrial"], null, ctx),
    marketFigures("TX", "industrial", null, null, ctx),
    marketFigures("TX", "industrial", "vacancy_rate", null, ctx),
  ];
  return Promise.all([...points, ...tables]);
}

test("first calculation batches point calls; recalculation makes no request; refresh of an unchanged snapshot costs one free request", async () => {
  const service = fakeService();
  const { ctx, requests } = testSession(service.handler);
  await calculate(ctx, ids(100));
  const compares = requests.filter((r) => r.method === "POST" && r.path.endsWith("/compare"));
  expect(compares).toHaveLength(4); // 100 distinct properties, 25 per request
  expect(compares.every((r) => r.body.property_ids.length === 25)).toBe(true);
  expect(requests).toHaveLength(4 + 2); // + sale comps + one market batch (three cells share the market)

  requests.length = 0;
  await calculate(ctx, ids(100));
  expect(requests).toHaveLength(0);

  const result = await ctx.session.api.refresh();
  expect(result).toMatchObject({ snapshotId: "snap_1", changed: false, staleEntries: 0 });
  await calculate(ctx, ids(100));
  expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/commercial/coverage"]);
});

test("after the snapshot changes, refresh marks results stale and each revalidates with its ETag, batches included", async () => {
  const service = fakeService();
  const { ctx, requests } = testSession(service.handler);
  await ctx.session.api.refresh();
  await calculate(ctx, ids(30));
  requests.length = 0;

  service.state.snapshot = "snap_2";
  const result = await ctx.session.api.refresh();
  expect(result).toMatchObject({ snapshotId: "snap_2", changed: true });
  expect(result.staleEntries).toBeGreaterThan(30);
  requests.length = 0;
  await calculate(ctx, ids(30));
  const seen = requests.map((r) => `${r.method} ${r.path} ${r.headers["If-None-Match"] ?? ""}`.trim());
  // The list revalidates with its ETag (this fake's changes with the snapshot); the market goes
  // in a batch again with the ETag held, and the property records in comparisons with theirs.
  expect(seen).toEqual(
    expect.arrayContaining([
      'GET /v1/commercial/sale-comps "comps-snap_1"',
      "POST /v1/commercial/markets/batch",
      "POST /v1/commercial/properties/compare",
    ]),
  );
  expect(seen).not.toContain('GET /v1/commercial/markets/snapshot "mkt"');
  const compares = requests.filter((r) => r.method === "POST" && r.path.endsWith("/compare"));
  expect(compares).toHaveLength(2);
  for (const c of compares) {
    expect(Object.keys(c.body.if_none_match).sort()).toEqual([...c.body.property_ids].sort());
  }
  const batch = requests.find((r) => r.path === "/v1/commercial/markets/batch")!;
  expect(batch.body.markets[0].if_none_match).toBe('"mkt"');
  requests.length = 0;
  await calculate(ctx, ids(30));
  expect(requests).toHaveLength(0);
});

test("a formula-edit preview makes no metered request, but shows what the cache has", async () => {
  const service = fakeService();
  const { session, requests } = testSession(service.handler);
  const preview = { session, preview: true };
  await expect(marketFigures("TX", "industrial", "vacancy_rate", null, preview)).rejects.toMatchObject({ code: "preview_not_fetched" });
  await expect(propertyField("cp_1", "name", null, preview)).rejects.toMatchObject({ code: "preview_not_fetched" });
  expect(requests).toHaveLength(0);
  await marketFigures("TX", "industrial", null, null, { session });
  await expect(marketFigures("TX", "industrial", "vacancy_rate", null, preview)).resolves.toEqual([[0.07]]);
  expect(requests).toHaveLength(1);
});

test("a reopened workbook recalculates from the cache stored in OfficeRuntime.storage", async () => {
  const service = fakeService();
  const first = testSession(service.handler);
  await calculate(first.ctx, ids(10));
  await first.session.persistence.flush();
  const reopened = testSession(service.handler, { storage: first.storage });
  const values = await calculate(reopened.ctx, ids(10));
  expect(values[1]).toBe(1990);
  expect(reopened.requests).toHaveLength(0);
});

test("an unknown id in a batch: the others still resolve, it is not found, and no request repeats", async () => {
  const { ctx, requests } = testSession((req) => {
    if (req.body?.property_ids?.includes("cp_bad")) {
      const i = req.body.property_ids.indexOf("cp_bad");
      return problemResponse(404, {
        detail: "Unknown property id: cp_bad.",
        code: "not_found",
        errors: [{ pointer: `/property_ids/${i}`, detail: "no property" }],
      });
    }
    return compareResponse(req.body.property_ids);
  });
  const cells = await Promise.allSettled(["cp_1", "cp_bad", "cp_2", "cp_3"].map((id) => propertyField(id, "name", null, ctx)));
  expect(cells.map((c) => c.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
  expect((cells[1] as PromiseRejectedResult).reason).toMatchObject({
    status: 404,
    message: "There is no commercial property 'cp_bad' in this snapshot.",
  });
  expect(requests).toHaveLength(2);
  await Promise.allSettled(["cp_1", "cp_bad"].map((id) => propertyField(id, "name", null, ctx)));
  expect(requests).toHaveLength(2);
});

test("COMPARE feeds the point cells: PROPERTY for the compared ids costs nothing more", async () => {
  const { ctx, requests } = testSession((req) => compareResponse(req.body.property_ids));
  const rows = await compareTable([["cp_1"], ["cp_2"], ["cp_3"]], "cols=id,year_built", ctx);
  expect(rows).toEqual([
    ["id", "year_built"],
    ["cp_1", 1990],
    ["cp_2", 1990],
    ["cp_3", 1990],
  ]);
  await expect(propertyField("cp_2", "building_area_sqft", null, ctx)).resolves.toBe(100_000);
  expect(requests).toHaveLength(1);
});

test("a list past 100 rows is fetched a page at a time, following next_offset, and stops at the last page", async () => {
  const { ctx, requests } = testSession((req) => {
    const offset = Number(req.query.offset);
    const limit = Number(req.query.limit);
    const total = 230;
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => propertyRecord(`cp_${offset + i}`));
    const next = offset + data.length;
    return listResponse(data, { limit, offset, total_count: total, has_more: next < total, next_offset: next < total ? next : null });
  });
  const rows = await SEARCH.run([null, "TX"], "limit=500; cols=id", ctx);
  expect(rows).toHaveLength(231);
  expect(rows[230]).toEqual(["cp_229"]);
  expect(requests.map((r) => [r.query.limit, r.query.offset])).toEqual([
    ["100", "0"],
    ["100", "100"],
    ["100", "200"],
  ]);
});

test("PROP.CREDITS shows the last credit headers; it asks (free) only when none were seen", async () => {
  const service = fakeService();
  const { ctx, requests } = testSession(service.handler);
  await expect(credits(null, null, ctx)).resolves.toEqual([
    ["item", "value"],
    ["remaining", 990],
    ["limit", 1000],
    ["used", 10],
    ["resets_at", toExcelSerial("2025-02-01T00:00:00Z")],
    ["charged_this_session", 0],
    ["as_of", expect.any(Number)],
  ]);
  await expect(credits("Remaining", null, ctx)).resolves.toEqual([[990]]);
  await expect(credits("resets_at", "dates=text", ctx)).resolves.toEqual([["2025-02-01T00:00:00.000Z"]]);
  await expect(credits("resets_at", "dates=serial", ctx)).resolves.toEqual([[toExcelSerial("2025-02-01T00:00:00Z")]]);
  // One request, to the free coverage endpoint.
  expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/commercial/coverage"]);
});

test("Excel cancelling a call aborts its request and the cell settles", async () => {
  // The stub answers only by honouring the abort signal, like fetch does: only cancellation settles the call.
  const { session, requests } = testSession(
    (req) => new Promise<Response>((_, reject) => req.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
  );
  const invocation: { onCanceled?: () => void } = {};
  const pending = SALECOMPS.run(["TX", null], null, contextOf(invocation as CustomFunctions.CancelableInvocation, session));
  await new Promise((r) => setTimeout(r, 10));
  expect(requests).toHaveLength(1);
  invocation.onCanceled!();
  await expect(pending).rejects.toMatchObject({ code: "aborted" });
  expect(requests[0].signal?.aborted).toBe(true);
});

test("a refused place is remembered with its fields and suggestions: the repeat answers the same, without a request", async () => {
  const { session, requests } = testSession(() =>
    problemResponse(400, {
      code: "unknown_place",
      detail: 'geography: this snapshot holds no city "Huston, TX". Did you mean Houston, TX?',
      parameter: "geography",
      place: "Huston, TX",
      suggestions: ["Houston, TX"],
    }),
  );
  const ctx = { session };
  const first = await SALECOMPS.run(["Huston, TX", null], null, ctx).catch((e: unknown) => e);
  const again = await session.api
    .get(ENDPOINTS.findSaleComps, {}, { geography: "Huston, TX", limit: 25, offset: 0 })
    .catch((e: unknown) => e);
  expect(requests).toHaveLength(1);
  expect(first).toMatchObject({ message: expect.stringContaining("Did you mean Houston, TX?") });
  expect(again).toMatchObject({
    status: 400,
    code: "unknown_place",
    extensions: { parameter: "geography", place: "Huston, TX", suggestions: ["Houston, TX"] },
  });
});

test("as_of pins a call: every request names the snapshot (batches too), pinned results are kept apart and a refresh leaves those pinned by id alone", async () => {
  const service = fakeService();
  const { ctx, requests } = testSession(service.handler);
  await ctx.session.api.refresh();
  const pinned = "as_of=snap_1";
  await Promise.all([
    propertyField("cp_1", "name", pinned, ctx),
    propertyField("cp_2", "name", pinned, ctx),
    propertyField("cp_1", "name", null, ctx),
    marketFigures("TX", "industrial", "vacancy_rate", pinned, ctx),
    SALECOMPS.run(["TX", "industrial"], "as_of=2026-10-01", ctx),
  ]);
  const seen = requests.map((r) => {
    const query = new URLSearchParams(r.query).toString();
    return `${r.method} ${r.path}${query ? `?${query}` : ""}`;
  });
  // The pinned properties are one comparison of their own; the unpinned one goes alone.
  expect(seen).toEqual(
    expect.arrayContaining([
      "POST /v1/commercial/properties/compare?snapshot=snap_1",
      "GET /v1/commercial/properties/cp_1",
      "POST /v1/commercial/markets/batch?snapshot=snap_1",
      expect.stringMatching(/^GET \/v1\/commercial\/sale-comps\?.*as_of=2026-10-01/),
    ]),
  );
  await expect(propertyField("cp_1", "name", "as_of=yesterday", ctx)).rejects.toThrow(/as_of "yesterday" is not a date; write a date/);

  service.state.snapshot = "snap_2";
  requests.length = 0;
  await ctx.session.api.refresh();
  requests.length = 0;
  await Promise.all([
    propertyField("cp_1", "name", pinned, ctx),
    propertyField("cp_2", "name", pinned, ctx),
    marketFigures("TX", "industrial", "vacancy_rate", pinned, ctx),
  ]);
  expect(requests).toHaveLength(0); // pinned by id: that snapshot's data never changes
});

test("pinning a result already held revalidates the copy held (free while unchanged) instead of fetching it again", async () => {
  const service = fakeService();
  const { ctx, requests } = testSession(service.handler);
  await ctx.session.api.refresh();
  await propertyField("cp_7", "name", null, ctx);
  await SALECOMPS.run(["TX", "industrial"], null, ctx);
  requests.length = 0;
  await propertyField("cp_7", "name", "as_of=snap_1", ctx);
  await SALECOMPS.run(["TX", "industrial"], "as_of=snap_1", ctx);
  expect(requests.map((r) => [r.path, r.query.snapshot, r.headers["If-None-Match"]])).toEqual([
    ["/v1/commercial/properties/cp_7", "snap_1", '"cp_7"'],
    ["/v1/commercial/sale-comps", "snap_1", '"comps-snap_1"'],
  ]);
  requests.length = 0;
  await propertyField("cp_7", "name", "as_of=snap_1", ctx);
  expect(requests).toHaveLength(0); // now held under its pinned request too
});

test("a market confirmed unchanged by a newer snapshot (304 in a batch) is dated by that snapshot's capture", async () => {
  const state = { snapshot: "snap_1", captured: "2025-01-01T00:00:00Z" };
  const market = { id: "mkt_TX_office", object: "market_snapshot", vacancy_rate: 0.1, as_of: "2025-01-01" };
  const { ctx } = testSession((req) => {
    if (req.path === "/v1/commercial/coverage") {
      return jsonResponse({ object: "coverage", snapshot: { id: state.snapshot, captured_at: state.captured } });
    }
    const results = req.body.markets.map(({ if_none_match, ...m }: { if_none_match?: string }) => ({
      ...m,
      status: if_none_match === '"m"' ? 304 : 200,
      market: if_none_match === '"m"' ? null : market,
      etag: '"m"',
      problem: null,
    }));
    return jsonResponse({
      object: "market_batch",
      results,
      credits_charged: 0,
      snapshot: { id: state.snapshot, captured_at: state.captured },
    });
  });
  await ctx.session.api.refresh();
  expect(await marketFigures("TX", "office", "as_of", "dates=text", ctx)).toEqual([["2025-01-01"]]);
  Object.assign(state, { snapshot: "snap_2", captured: "2025-02-01T00:00:00Z" });
  await ctx.session.api.refresh();
  expect(await marketFigures("TX", "office", "as_of", "dates=text", ctx)).toEqual([["2025-02-01"]]);
  expect(await marketFigures("TX", "office", "vacancy_rate", "rates=fraction", ctx)).toEqual([[0.1]]);
});

test("a comparison that confirms a held property unchanged (its id only) keeps the held copy, stamped with the answering snapshot", async () => {
  const state = { snapshot: "snap_1" };
  const { ctx, requests } = testSession((req) => {
    if (req.path === "/v1/commercial/coverage") {
      return jsonResponse({ object: "coverage", snapshot: { id: state.snapshot, captured_at: "2025-01-01T00:00:00Z" } });
    }
    // cp_1 never changes; cp_2 is renamed by snap_2.
    const held: Record<string, string> = req.body.if_none_match ?? {};
    const etags: Record<string, string> = { cp_1: '"cp_1"', cp_2: `"cp_2-${state.snapshot}"` };
    const ids: string[] = req.body.property_ids;
    const unchanged = ids.filter((id) => held[id] === etags[id]);
    return jsonResponse({
      object: "property_comparison",
      fields: [],
      properties: ids.map((id) =>
        unchanged.includes(id) ? { id } : propertyRecord(id, id === "cp_2" && state.snapshot === "snap_2" ? { name: "Renamed" } : {}),
      ),
      statistics: [],
      etags,
      not_modified: unchanged,
      snapshot: { id: state.snapshot, captured_at: "2025-01-01T00:00:00Z" },
    });
  });
  const names = () => Promise.all(["cp_1", "cp_2"].map((id) => propertyField(id, "name", null, ctx)));
  await ctx.session.api.refresh();
  expect(await names()).toEqual(["Building cp_1", "Building cp_2"]);
  state.snapshot = "snap_2";
  await ctx.session.api.refresh();
  requests.length = 0;
  expect(await names()).toEqual(["Building cp_1", "Renamed"]);
  expect(requests).toHaveLength(1);
  expect(requests[0].body.if_none_match).toEqual({ cp_1: '"cp_1"', cp_2: '"cp_2-snap_1"' });
  // Both are now snap_2's: a refresh of the same snapshot leaves them fresh, and no request follows.
  expect((await ctx.session.api.refresh()).staleEntries).toBe(0);
  requests.length = 0;
  expect(await names()).toEqual(["Building cp_1", "Renamed"]);
  expect(await propertyField("cp_1", "year_built", null, ctx)).toBe(1990);
  expect(requests.filter((r) => r.path.endsWith("/compare"))).toHaveLength(0);
});

test("a market a batch refuses on its own (400 for its asset type) fails only its call, and is remembered", async () => {
  const market = { id: "mkt_TX_office", object: "market_snapshot", vacancy_rate: 0.1 };
  const { ctx, requests } = testSession((req) => {
    const results = req.body.markets.map((m: { geography: string; asset_type: string }) =>
      m.asset_type === "office"
        ? { ...m, status: 200, market, etag: '"m"', problem: null }
        : {
            ...m,
            status: 400,
            market: null,
            etag: null,
            problem: { status: 400, code: "validation_failed", detail: "asset_type must be one of: office" },
          },
    );
    return jsonResponse({
      object: "market_batch",
      results,
      credits_charged: 1,
      snapshot: { id: "snap_1", captured_at: "2025-01-01T00:00:00Z" },
    });
  });
  const asks = () => Promise.allSettled([ctx.session.api.market("TX", "office", ctx), ctx.session.api.market("TX", "offices", ctx)]);
  const [ok, refused] = await asks();
  expect(ok).toMatchObject({ status: "fulfilled", value: market });
  expect(refused).toMatchObject({ status: "rejected", reason: { status: 400, code: "validation_failed" } });
  expect(requests).toHaveLength(1);
  await asks();
  expect(requests).toHaveLength(1);
});

test("call(operation) sends get's request and shares its cache entry: a get after a call, and a call after a get, make no request", async () => {
  const service = fakeService();
  const { ctx, requests } = testSession(service.handler);
  const query = { geography: "TX", asset_type: "industrial" as const };
  const called = await ctx.session.api.call(OPERATIONS.getMarketSnapshot, { query }, ctx);
  expect(called.vacancy_rate).toBe(0.07);
  expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/commercial/markets/snapshot"]);
  requests.length = 0;
  expect(await ctx.session.api.get(ENDPOINTS.getMarketSnapshot, {}, query, ctx)).toEqual(called);
  expect(await ctx.session.api.call(OPERATIONS.getMarketSnapshot, { query }, ctx)).toEqual(called);
  expect(requests).toHaveLength(0);
  // A call pinned to a snapshot names it, as get does.
  await ctx.session.api.call(OPERATIONS.getMarketSnapshot, { query }, { ...ctx, pin: { snapshot: "snap_1" } });
  expect(requests.map((r) => r.query)).toEqual([{ asset_type: "industrial", geography: "TX", snapshot: "snap_1" }]);
});

test("addresses matched from an older snapshot are asked again with their validators, so unchanged matches cost nothing", async () => {
  const service = fakeService();
  const { ctx, requests } = testSession(service.handler);
  await ctx.session.api.refresh();
  const addresses = ["1 Main St, Austin, TX", "2 Main St, Austin, TX"];
  const matchAll = () => Promise.all(addresses.map((address) => ctx.session.api.match({ address })));
  const matchPosts = () => requests.filter((r) => r.method === "POST" && r.path.endsWith("/properties/match"));
  await matchAll();
  expect(matchPosts()).toHaveLength(1);
  expect(matchPosts()[0].body.addresses.map((r: { if_none_match?: string }) => r.if_none_match)).toEqual([undefined, undefined]);

  service.state.snapshot = "snap_2";
  requests.length = 0;
  await expect(ctx.session.api.refresh()).resolves.toMatchObject({ changed: true });
  const again = await matchAll();
  // The copies held stand, restamped with the new snapshot.
  expect(again.map((m) => [m.property_id, m.matched_address, m.snapshot?.id])).toEqual(addresses.map((a) => ["cp_1", a, "snap_2"]));
  expect(matchPosts()).toHaveLength(1);
  expect(matchPosts()[0].body.addresses.map((r: { if_none_match?: string }) => r.if_none_match)).toEqual(
    addresses.map((a) => `W/"m-${a}"`),
  );
  // Answered from the new snapshot: a recalculation asks nothing.
  requests.length = 0;
  await matchAll();
  expect(requests).toHaveLength(0);
});
