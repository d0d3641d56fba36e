// Removes the snapshot global-setup built for this run.
import fs from "node:fs";

export default async function globalTeardown() {
  const file = process.env.TEST_SNAPSHOT;
  if (file) fs.rmSync(file, { force: true });
}
