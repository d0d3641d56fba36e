// Text search on older versions of a snapshot store (src/server/data/property-search.ts) against
// the newest. Prints microseconds per search on the oldest version, the one before the newest,
// and the newest, each opened as the service opens it, for searches as analysts type them (a
// city and a word of a property's name, a city and an asset type), each new to the connection
// (its count made too); for the service benchmark's text scenario, a city and an asset type
// asked again (its count cached: the page alone); and for a few broad words asked again. The
// searches are the same for the same store (a fixed sample of its properties).
//   npx tsx scripts/bench-pinned-text.ts <store.db> [--searches N]
import Database from "better-sqlite3";
import { SnapshotContext } from "../src/server/data/snapshot-context";
import { searchProperties } from "../src/server/data/property-search";
import { openStoreVersion } from "../src/snapshot/store/store-open";
import { storeVersions } from "../src/snapshot/store/store-layout";

const args = process.argv.slice(2);
const searchesAt = args.indexOf("--searches");
const SEARCHES = searchesAt >= 0 ? Number(args.splice(searchesAt, 2)[1]) : 500;
const [store] = args;
if (!store) throw new Error("usage: bench-pinned-text.ts <store.db> [--searches N]");

const ASSETS = ["industrial", "office", "retail", "multifamily", "flex"];
const BROAD = ["industrial", "Tower", "Plaza office", "Austin", "Houston office"];

const db = new Database(store, { readonly: true });
const versions = storeVersions(db).filter((v) => v.retired_at === null);
// A fixed sample, spread over the rowids, so two runs on one store (or on copies) ask the same.
const rows = db.prepare("SELECT name, city FROM properties ORDER BY (rowid * 2654435761) % 1000003 LIMIT ?").all(SEARCHES * 2) as {
  name: string;
  city: string;
}[];
db.close();
const byName = rows.map((r) => `${r.city} ${r.name.split(" ")[0]}`);
const byAsset = rows.map((r, i) => `${r.city} ${ASSETS[i % ASSETS.length]}`);
console.log(`${store}: ${versions.length} versions, oldest ${versions[0].id}; ${SEARCHES} searches a row`);

/** The versions measured: the oldest, the one before the newest, and the newest (opened as the service opens each). */
const VERSIONS = [
  { label: "oldest", open: () => openStoreVersion(store, versions[0].id, { cacheKiB: 8192, mmapBytes: 0 }) },
  { label: "newest - 1", open: () => openStoreVersion(store, versions[versions.length - 2].id, { cacheKiB: 8192, mmapBytes: 0 }) },
  { label: "newest", open: () => openStoreVersion(store) },
];
const search = (context: SnapshotContext, q: string) => searchProperties(context, { q, places: [], limit: 25, offset: 0 });

/** Microseconds per search over `queries` on `context`. */
function timed(context: SnapshotContext, queries: string[]): number {
  const started = performance.now();
  for (const q of queries) search(context, q);
  return ((performance.now() - started) * 1000) / queries.length;
}

const us = (n: number) => `${n.toFixed(0).padStart(6)} µs`;
for (const [label, pool] of [
  ["city and name word", byName],
  ["city and asset type", byAsset],
] as const) {
  // Two rounds over fresh queries, the first warming the page cache; the second is printed.
  const figures: string[] = [];
  for (const round of [0, 1]) {
    const queries = pool.slice(round * SEARCHES, (round + 1) * SEARCHES);
    figures.length = 0;
    for (const version of VERSIONS) {
      const context = new SnapshotContext(version.open());
      figures.push(`${version.label} ${us(timed(context, queries))}`);
      context.close();
    }
  }
  console.log(`${label.padEnd(20)} ${figures.join("   ")}`);
}

// The service benchmark's text scenario: a city and an asset type, each asked before (its count cached).
const again = byAsset.slice(0, SEARCHES);
console.log(
  `${"city and asset type, asked again".padEnd(20)} ${VERSIONS.map((version) => {
    const context = new SnapshotContext(version.open());
    timed(context, again);
    const figure = `${version.label} ${us(timed(context, again))}`;
    context.close();
    return figure;
  }).join("   ")}`,
);

// Broad words, each asked again (its count cached): the page alone.
const contexts = VERSIONS.map((version) => ({ label: version.label, context: new SnapshotContext(version.open()) }));
for (const q of BROAD) {
  const figures = contexts.map(({ label, context }) => {
    search(context, q);
    return `${label} ${us(timed(context, Array<string>(50).fill(q)))}`;
  });
  console.log(`"${q}"`.padEnd(18), figures.join("   "));
}
for (const { context } of contexts) context.close();
