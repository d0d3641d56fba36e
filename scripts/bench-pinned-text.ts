// Text search on an older version of a snapshot store (src/server/data/property-search.ts): the
// cost of a page read run by run against one read from the whole replaced part, sorted, which is
// what TEXT_SORT_LIMIT chooses between. Prints, for searches as analysts type them (a city and a
// word of a property's name, a city and an asset type, each new) and for a few broad words,
// microseconds per search on the oldest version by each path and on the newest.
//   npx tsx scripts/bench-pinned-text.ts <store.db> [--searches N]
import Database from "better-sqlite3";
import { SnapshotContext } from "../src/server/data/snapshot-context";
import { searchProperties } from "../src/server/data/property-search";
import { openStoreVersion } from "../src/snapshot/store/store-open";
import { OLD_FTS_TABLE, storeVersions } from "../src/snapshot/store/store-layout";

const args = process.argv.slice(2);
const searchesAt = args.indexOf("--searches");
const SEARCHES = searchesAt >= 0 ? Number(args.splice(searchesAt, 2)[1]) : 500;
const [store] = args;
if (!store) throw new Error("usage: bench-pinned-text.ts <store.db> [--searches N]");

const ASSETS = ["industrial", "office", "retail", "multifamily", "flex"];
const BROAD = ["industrial", "Tower", "Plaza office", "Austin", "Houston office"];
const PATHS = { "run by run": 0, sorted: Number.MAX_SAFE_INTEGER } as const;

const db = new Database(store, { readonly: true });
const versions = storeVersions(db).filter((v) => v.retired_at === null);
const rows = db.prepare("SELECT name, city FROM properties ORDER BY random() LIMIT ?").all(SEARCHES * 4) as {
  name: string;
  city: string;
}[];
const replacedMatches = (q: string) =>
  db.prepare(`SELECT count(*) FROM ${OLD_FTS_TABLE} WHERE ${OLD_FTS_TABLE} MATCH ?`).pluck().get(q) as number;
const byName = rows.map((r) => `${r.city} ${r.name.split(" ")[0]}`);
const byAsset = rows.map((r, i) => `${r.city} ${ASSETS[i % ASSETS.length]}`);
console.log(`${store}: ${versions.length} versions, oldest ${versions[0].id}; ${SEARCHES} searches a row`);

const oldest = (textSortLimit: number) =>
  new SnapshotContext(openStoreVersion(store, versions[0].id, { cacheKiB: 8192, mmapBytes: 0 }), { textSortLimit });
const search = (context: SnapshotContext, q: string) => searchProperties(context, { q, places: [], limit: 25, offset: 0 });

/** Microseconds per search over `queries`, each new to `context` (its counts are not cached). */
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
    const queries = pool.slice((round * 2 + 0) * SEARCHES, (round * 2 + 1) * SEARCHES);
    figures.length = 0;
    for (const [name, limit] of Object.entries(PATHS)) {
      const context = oldest(limit);
      figures.push(`oldest ${name} ${us(timed(context, queries))}`);
      context.close();
    }
    const newest = new SnapshotContext(openStoreVersion(store));
    figures.push(`newest ${us(timed(newest, pool.slice((round * 2 + 1) * SEARCHES, (round * 2 + 2) * SEARCHES)))}`);
    newest.close();
  }
  console.log(`${label.padEnd(20)} ${figures.join("   ")}`);
}

// Broad words, each asked again (its count cached): the page alone, by each path.
const contexts = Object.entries(PATHS).map(([name, limit]) => ({ name, context: oldest(limit) }));
for (const q of BROAD) {
  const figures = contexts.map(({ name, context }) => {
    search(context, q);
    return `${name} ${us(timed(context, Array<string>(20).fill(q)))}`;
  });
  console.log(`"${q}" (${replacedMatches(q)} replaced matches in the store)`.padEnd(52), figures.join("   "));
}
for (const { context } of contexts) context.close();
db.close();
