// Removes the snapshot global-setup built for this run and stops the PostgreSQL server it started.
import fs from "node:fs";

export default async function globalTeardown() {
  const file = process.env.TEST_SNAPSHOT;
  if (file) fs.rmSync(file, { force: true });
  await (globalThis as { testPostgres?: { stop(): Promise<void> } }).testPostgres?.stop();
}
