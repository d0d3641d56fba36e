// The newest version of a snapshot store written out as the snapshot file it was published from
// (src/snapshot/store/store-export.ts), for building the next month of a chain whose files are gone:
//   npx tsx scripts/export-store-newest.ts <store.db> <template snapshot.db> <out.db>
import { exportNewest } from "../src/snapshot/store/store-export";

const [store, template, out] = process.argv.slice(2);
if (!store || !template || !out) throw new Error("usage: export-store-newest.ts <store.db> <template snapshot.db> <out.db>");
const started = performance.now();
const lap = (what: string) => console.log(`${what} at ${((performance.now() - started) / 1000).toFixed(1)} s`);
const id = exportNewest(store, template, out, lap);
lap(`${out}: snapshot ${id}`);
