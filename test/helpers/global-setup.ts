// Builds one small generated snapshot for the whole test run; tests open it read-only.
import os from "node:os";
import path from "node:path";
import { buildSnapshot } from "../../src/snapshot/build";

export default async function globalSetup() {
  const out = path.join(os.tmpdir(), `propintel-test-${process.pid}.db`);
  buildSnapshot({ out, seed: 7, properties: 3000 });
  process.env.TEST_SNAPSHOT = out;
}
