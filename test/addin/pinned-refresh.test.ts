// A refresh and pinned results: a date pin (as_of=) whose snapshot is still kept is not asked
// again (its data never changes), one whose date now names another snapshot is, and a pin whose
// data is no longer served keeps the value it has rather than turning into the refusal.
import { propertyField } from "../../src/functions/property-field";
import { SALECOMPS } from "../../src/functions/sale-comps";
import { keptFor, keptOnRefresh, pinOfKey } from "../../src/shared/snapshot-tracker";
import { jsonResponse, problemResponse } from "./office-stand-ins";
import { propertyRecord, testSession, type SeenRequest } from "./session-factory";

interface Kept {
  id: string;
  captured_at: string;
}

/** A service keeping `state.kept` (newest first), answering pins by the service's rule, with ETags and 304s. */
function retainingService(state: { kept: Kept[] }) {
  const listed = () => state.kept.map((k, i) => ({ ...k, built_at: k.captured_at, retires_at: "2028-01-01T00:00:00Z", latest: i === 0 }));
  const chosen = (req: SeenRequest): Kept | undefined =>
    req.query.snapshot
      ? state.kept.find((k) => k.id === req.query.snapshot)
      : req.query.as_of
        ? state.kept.find((k) => k.captured_at.slice(0, 10) <= req.query.as_of)
        : state.kept[0];
  return (req: SeenRequest): Response => {
    if (req.path === "/v1/commercial/coverage") {
      const latest = state.kept[0];
      return jsonResponse({ object: "coverage", snapshot: latest, counts: { properties: 1 }, snapshots: listed() });
    }
    const snap = chosen(req);
    if (!snap) return problemResponse(404, { code: "snapshot_not_found", detail: "The data of that date is no longer served." });
    const etag = `"${req.path}-${snap.id}"`;
    if (req.headers["If-None-Match"] === etag) return new Response(null, { status: 304, headers: { etag, "x-snapshot-id": snap.id } });
    const headers = { "content-type": "application/json", etag, "x-snapshot-id": snap.id };
    if (req.path === "/v1/commercial/sale-comps") {
      const body = { object: "list", data: [{ id: "sale_1", object: "sale_comp", sale_price: 5e6 }], has_more: false, next_offset: null };
      return new Response(JSON.stringify({ ...body, total_count: 1, snapshot: snap }), { headers });
    }
    const detail = /^\/v1\/commercial\/properties\/(cp_\w+)$/.exec(req.path);
    if (detail) return new Response(JSON.stringify(propertyRecord(detail[1], { name: `${detail[1]} of ${snap.id}` })), { headers });
    return problemResponse(404, { code: "not_found", detail: `no route ${req.path}` });
  };
}

const OCT = { id: "snap_oct", captured_at: "2026-10-01T00:00:00Z" };
const NOV = { id: "snap_nov", captured_at: "2026-11-01T00:00:00Z" };
const DEC = { id: "snap_dec", captured_at: "2026-12-01T00:00:00Z" };

test("a date pin whose snapshot is kept is not revalidated by a refresh: no request, free or not, after its first answer", async () => {
  const state = { kept: [NOV, OCT] };
  const { ctx, requests } = testSession(retainingService(state));
  await ctx.session.api.refresh();
  const cells = () =>
    Promise.all([SALECOMPS.run(["TX", "industrial"], "as_of=2026-10-15", ctx), propertyField("cp_1", "name", "as_of=2026-10-15", ctx)]);
  const first = await cells();
  expect(first[1]).toBe("cp_1 of snap_oct");
  state.kept = [DEC, NOV, OCT];
  await ctx.session.api.refresh();
  await ctx.session.api.refresh();
  requests.length = 0;
  expect(await cells()).toEqual(first);
  const revalidations = requests.filter((r) => r.path !== "/v1/commercial/coverage");
  expect(revalidations).toHaveLength(0);
});

test("a date pin that now names another kept snapshot is asked again", async () => {
  const state = { kept: [NOV, OCT] };
  const { ctx, requests } = testSession(retainingService(state));
  await ctx.session.api.refresh();
  expect(await propertyField("cp_1", "name", "as_of=2026-12-31", ctx)).toBe("cp_1 of snap_nov");
  state.kept = [DEC, NOV, OCT];
  await ctx.session.api.refresh();
  requests.length = 0;
  expect(await propertyField("cp_1", "name", "as_of=2026-12-31", ctx)).toBe("cp_1 of snap_dec");
  expect(requests.map((r) => r.path)).toEqual(["/v1/commercial/properties/cp_1"]);
});

test("a refresh after a pin's snapshot retired keeps the cell's value instead of the refusal, for a date pin and an id pin", async () => {
  const state = { kept: [NOV, OCT] };
  const { ctx, requests } = testSession(retainingService(state));
  await ctx.session.api.refresh();
  const cells = () =>
    Promise.all([
      propertyField("cp_1", "name", "as_of=2026-10-15", ctx),
      propertyField("cp_2", "name", "as_of=snap_oct", ctx),
      SALECOMPS.run(["TX", "industrial"], "as_of=2026-10-31", ctx),
    ]);
  const first = await cells();
  expect(first.slice(0, 2)).toEqual(["cp_1 of snap_oct", "cp_2 of snap_oct"]);
  state.kept = [DEC, NOV]; // snap_oct retired
  await ctx.session.api.refresh();
  requests.length = 0;
  await expect(cells()).resolves.toEqual(first);
  expect(requests).toHaveLength(0);
});

test("the rule: pins read from cache keys and resolved against the kept list as the service resolves them", () => {
  const key = (query: string) => `https://svc|GET /v1/commercial/properties/cp_1${query}`;
  expect(pinOfKey(key("?as_of=2026-10-15"))).toEqual({ as_of: "2026-10-15" });
  expect(pinOfKey(key("?snapshot=snap_oct"))).toEqual({ snapshot: "snap_oct" });
  expect(pinOfKey(key(""))).toBeUndefined();
  const kept = [DEC, NOV].map((k) => ({ ...k, built_at: k.captured_at, retires_at: "2028-01-01T00:00:00Z", latest: k === DEC }));
  expect(keptFor({ as_of: "2026-11-30" }, kept)?.id).toBe("snap_nov");
  expect(keptFor({ as_of: "2026-10-31" }, kept)).toBeUndefined();
  // Unpinned results revalidate after a refresh; so do date pins when the service lists no snapshots.
  expect(keptOnRefresh({ key: key(""), snapshotId: "snap_nov" }, kept, kept)).toBe(false);
  expect(keptOnRefresh({ key: key("?as_of=2026-11-30"), snapshotId: null }, undefined, undefined)).toBe(false);
  expect(keptOnRefresh({ key: key("?as_of=2026-11-30"), snapshotId: "snap_nov" }, undefined, kept)).toBe(true);
  expect(keptOnRefresh({ key: key("?as_of=2026-12-31"), snapshotId: "snap_nov" }, undefined, kept)).toBe(false);
});
