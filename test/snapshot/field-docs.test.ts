import fs from "node:fs";
import path from "node:path";
import { fieldTables } from "../../scripts/snapshot-field-docs";

test("docs/snapshot.md lists the importable fields as the contract defines them (run npx tsx scripts/snapshot-field-docs.ts)", () => {
  const doc = fs.readFileSync(path.join(__dirname, "../../docs/snapshot.md"), "utf8");
  const tables = fieldTables();
  expect(tables).toContain("| `county_fips` |");
  expect(doc).toContain(`\n\n${tables}\n<!-- field-tables:end -->`);
});
