// Reading from a snapshot store (src/snapshot/store): the same calls, through the route handlers,
// on the store's newest version, on its oldest, and on each one's own snapshot file. Prints, per
// call, microseconds per call (the median of several rounds) and whether each version answered
// exactly as its file did.
//   npx tsx scripts/bench-store-reads.ts <store.db> <oldest month's file> <newest month's file> [--rounds N]
import Database from "better-sqlite3";
import { Value } from "@sinclair/typebox/value";
import { OPERATIONS, type OperationName } from "../src/contract/operations";
import { SnapshotContext, openContext } from "../src/server/data/snapshot-context";
import type { RouteDef } from "../src/server/routes/route-def";
import { parcelsRoute, listingsRoute } from "../src/server/routes/parcels-listings";
import { companiesRoute, diligenceRoute } from "../src/server/routes/companies-diligence";
import { assetPropertiesRoute, propertyDetailRoute, propertySearchRoute } from "../src/server/routes/properties";
import { ownerPortfolioRoute, tenantFootprintRoute } from "../src/server/routes/owners-tenants";
import { saleCompsRoute } from "../src/server/routes/sale-comps";
import { propertyHistoryRoute } from "../src/server/routes/property-history";
import { openStoreVersion } from "../src/snapshot/store/store-open";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 5;
const [store, oldestFile, newestFile] = args;
if (!newestFile) throw new Error("usage: bench-store-reads.ts <store.db> <oldest month's file> <newest month's file> [--rounds N]");

interface Call {
  label: string;
  route: RouteDef;
  operation: OperationName;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
}

/** Calls about records the oldest month has (ids stay the same across months). */
function callsFor(file: string): Call[] {
  const db = new Database(file, { readonly: true });
  const one = <T>(sql: string) => db.prepare(sql).get() as T;
  const prop = one<{ id: string }>("SELECT id FROM properties ORDER BY rowid LIMIT 1 OFFSET 500");
  const owner = one<{ owner_id: string }>(
    "SELECT owner_id FROM properties WHERE owner_id IS NOT NULL GROUP BY owner_id ORDER BY count(*) DESC LIMIT 1",
  );
  const tenant = one<{ tenant_id: string }>("SELECT tenant_id FROM tenancies GROUP BY tenant_id ORDER BY count(*) DESC LIMIT 1");
  const sold = one<{ property_id: string }>("SELECT property_id FROM sales ORDER BY sale_date DESC, id LIMIT 1");
  db.close();
  const c = (
    label: string,
    route: RouteDef,
    operation: OperationName,
    query?: Record<string, unknown>,
    params?: Record<string, string>,
  ): Call => ({
    label,
    route,
    operation,
    query,
    params,
  });
  return [
    c("a property's detail", propertyDetailRoute, "getProperty", {}, { property_id: prop.id }),
    c("50 office properties in TX", propertySearchRoute, "searchProperties", { state_code: "TX", asset_type: "office", limit: 50 }),
    c("50 properties in TX, offset 1000", propertySearchRoute, "searchProperties", { state_code: "TX", limit: 50, offset: 1000 }),
    // The asset search of `npm run bench:service` (two filters, 25 rows).
    c(
      "25 offices in TX of 20,000 sq ft or more",
      assetPropertiesRoute,
      "searchAssetProperties",
      { state_code: "TX", min_building_area_sqft: 20000, limit: 25 },
      { asset_type: "office" },
    ),
    c('text "industrial", first 50', propertySearchRoute, "searchProperties", { q: "industrial", limit: 50 }),
    c('text "industrial", offset 500', propertySearchRoute, "searchProperties", { q: "industrial", limit: 50, offset: 500 }),
    c('text "industrial" in TX, first 50', propertySearchRoute, "searchProperties", { q: "industrial", state_code: "TX", limit: 50 }),
    c("50 parcels in TX", parcelsRoute, "listParcels", { state_code: "TX", limit: 50 }),
    c("50 listings in TX", listingsRoute, "searchListings", { state_code: "TX", limit: 50 }),
    c('50 owners named "a"', companiesRoute, "searchCompanies", { q: "a", limit: 50 }, { company_type: "owner" }),
    c("50 diligence candidates in TX", diligenceRoute, "rankDiligenceCandidates", { state_code: "TX", limit: 50 }),
    c("the largest owner's portfolio", ownerPortfolioRoute, "getOwnerPortfolio", { owner_id: owner.owner_id, limit: 50 }),
    c("the largest tenant's footprint", tenantFootprintRoute, "getTenantFootprint", { tenant_id: tenant.tenant_id, limit: 50 }),
    c("sale comps in TX, 50", saleCompsRoute, "findSaleComps", { state_code: "TX", asset_type: "office", limit: 50 }),
    c("sale comps around a property", saleCompsRoute, "findSaleComps", { property_id: sold.property_id, limit: 50 }),
    c("a property's history", propertyHistoryRoute, "getPropertyHistory", {}, { property_id: sold.property_id }),
  ];
}

function answer(ctx: SnapshotContext, call: Call): string {
  const op = OPERATIONS[call.operation];
  const query = Value.Default(op.query, Value.Clone(call.query ?? {})) as Record<string, unknown>;
  const out = call.route.handler({
    snapshot: ctx,
    kept: () => [],
    params: call.params,
    query,
    body: undefined,
    request: undefined as never,
  } as never);
  // The service serialises answers by their schemas, which leave out the `rowid` a store version's rows carry.
  const text = typeof out === "object" && out !== null && "text" in out ? String((out as { text: string }).text) : JSON.stringify(out);
  return JSON.stringify(JSON.parse(text), (k, v) => (k === "rowid" ? undefined : v));
}

/** Microseconds per call: the median round of enough calls to take about 50 ms. */
function time(ctx: SnapshotContext, call: Call): number {
  answer(ctx, call);
  const t0 = performance.now();
  answer(ctx, call);
  const once = performance.now() - t0;
  const n = Math.max(1, Math.min(2000, Math.round(50 / Math.max(once, 0.001))));
  const per: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const s = performance.now();
    for (let i = 0; i < n; i++) answer(ctx, call);
    per.push(((performance.now() - s) * 1000) / n);
  }
  return per.sort((a, b) => a - b)[Math.floor(per.length / 2)];
}

const versions = new Database(store, { readonly: true }).prepare("SELECT id FROM store_versions ORDER BY seq").pluck().all() as string[];
const contexts = {
  oldestFile: openContext(oldestFile),
  oldest: new SnapshotContext(openStoreVersion(store, versions[0])),
  newestFile: openContext(newestFile),
  newest: new SnapshotContext(openStoreVersion(store)),
};
if (contexts.oldest.ref.id !== contexts.oldestFile.ref.id || contexts.newest.ref.id !== contexts.newestFile.ref.id)
  throw new Error("the files given are not the store's oldest and newest versions");
console.log(`store of ${versions.length} versions; microseconds per call (median of ${rounds} rounds)`);
console.log(["call", "newest file", "store newest", "oldest file", "store oldest", "same answers"].join(" | "));
for (const call of callsFor(oldestFile)) {
  const same =
    answer(contexts.oldest, call) === answer(contexts.oldestFile, call) &&
    answer(contexts.newest, call) === answer(contexts.newestFile, call);
  const figures = [contexts.newestFile, contexts.newest, contexts.oldestFile, contexts.oldest].map((ctx) => time(ctx, call).toFixed(1));
  console.log([call.label, ...figures, same ? "yes" : "NO"].join(" | "));
}
