// npm run bench:model [-- --subjects 5] [--port 3953] [--snapshot FILE]
//
// A started model's first calculation: the template "Start a model" inserts
// (src/contract/model-template.ts), calculated by the built add-in (dist/addin/functions.js and
// taskpane.js in node:vm, as Excel's shared runtime loads them; scripts/bench-addin-harness.ts)
// against the real service on loopback, for several subjects of the add-in benchmarks' snapshot.
// Each subject on a fresh account and add-in (an empty cache): its HTTP requests, credits
// (X-Credits-Charged), seconds until every formula has settled, and the pane's estimate
// (modelCost) beside them; then the same model calculated again (a recalculation: no request).
// Excel's own formulas (places, statistics) are calculated by test/addin/model-calculation.ts.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { modelCost, modelTemplate } from "../src/contract/model-template";
import { buildApp } from "../src/server/app";
import { openSqliteStores } from "../src/server/stores/sqlite";
import { openSnapshot } from "../src/snapshot/snapshot-file";
import { CellError, calculate } from "../test/addin/model-calculation";
import { DIST, benchSnapshot, excelCall, loadAddin, newCounter } from "./bench-addin-harness";

const USAGE = "usage: npm run bench:model [-- --subjects N] [--port P] [--snapshot FILE]";

function options() {
  const { values } = parseArgs({ options: { subjects: { type: "string" }, port: { type: "string" }, snapshot: { type: "string" } } });
  const subjects = Number(values.subjects ?? 5);
  const port = Number(values.port ?? 3953);
  if (!Number.isInteger(subjects) || subjects < 1 || !Number.isInteger(port)) throw new Error(USAGE);
  return { subjects, port, snapshot: values.snapshot };
}

async function main() {
  const opts = options();
  if (!fs.existsSync(path.join(DIST, "functions.js"))) throw new Error("dist/addin/functions.js is missing: run npm run build:addin first");
  const snapshotDb = openSnapshot(opts.snapshot ?? benchSnapshot(10_000));
  // Subjects with everything the model shows (a metro, an owner, a last sale, leases running on
  // past the capture date), spread over the snapshot. (A subject with no such lease costs a credit
  // less: an empty list is free.)
  const subjects = snapshotDb
    .prepare(
      `SELECT p.id FROM properties p WHERE p.metro_id IS NOT NULL AND p.owner_id IS NOT NULL AND p.last_sale_price IS NOT NULL
        AND EXISTS (SELECT 1 FROM tenancies t WHERE t.property_id = p.id AND t.lease_expiration >= '2027-01-01')
        ORDER BY substr(p.id, -2), p.id LIMIT ?`,
    )
    .pluck()
    .all(opts.subjects) as string[];
  const metadata = JSON.parse(fs.readFileSync(path.join(DIST, "functions.json"), "utf8")) as {
    functions: Array<{ id: string; parameters: Array<{ dimensionality?: string }> }>;
  };
  const matrix = new Map(
    metadata.functions.map((f) => [f.id, new Set(f.parameters.flatMap((p, i) => (p.dimensionality === "matrix" ? [i] : [])))]),
  );
  const pepper = crypto.randomBytes(32);
  const stores = openSqliteStores(":memory:", pepper);
  const app = buildApp({ snapshotDb, stores, pepper });
  await app.listen({ port: opts.port, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${opts.port}`;
  const rows: string[][] = [];
  let mismatches = 0;
  try {
    for (const [i, id] of subjects.entries()) {
      const key = stores.keys.createKey(stores.accounts.create(`model-${i}@bench.example`, "explorer").id, "bench").raw;
      const counter = newCounter();
      const { associated } = loadAddin(origin, key, counter);
      const call = excelCall(associated);
      const caller = (name: string, args: unknown[]) => call({ id: name, args, kind: "table" });
      const template = modelTemplate({ propertyId: id });
      const estimate = modelCost(template);
      const t0 = performance.now();
      const first = await calculate(template, caller, matrix);
      const seconds = (performance.now() - t0) / 1000;
      const first_ = { requests: counter.requests, credits: counter.credits };
      await calculate(template, caller, matrix);
      const errors = first.propCells.filter((c) => c.result instanceof CellError).length;
      if (first_.credits !== estimate.credits) mismatches++;
      rows.push([
        id,
        String(first.propCells.length),
        String(errors),
        String(first_.requests),
        String(estimate.requests),
        String(first_.credits),
        String(estimate.credits),
        seconds.toFixed(2),
        String(counter.requests - first_.requests),
      ]);
    }
  } finally {
    await app.close();
  }
  const header = [
    "subject",
    "PROP formulas",
    "errors",
    "requests",
    "est. requests",
    "credits",
    "est. credits",
    "seconds",
    "recalc requests",
  ];
  console.log(
    `\nStarted model, first calculation; snapshot of ${String(snapshotDb.prepare("SELECT count(*) FROM properties").pluck().get())} properties; Node ${process.version}`,
  );
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  const secs = rows.map((r) => Number(r[7])).sort((a, b) => a - b);
  console.log(
    `\nMedian ${secs[Math.floor(secs.length / 2)].toFixed(2)} s to settle; credits equal to the estimate for ${rows.length - mismatches} of ${rows.length} subjects.`,
  );
  console.log(
    "(errors: PROP cells showing an error, each a field the subject's record does not hold, such as a subtype, or a metro market where there is none.)",
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
