// Writes the settings tables of docs/deployment.md (in full) and README.md (defaults and meanings)
// from the environment schema (npm run docs:settings).
import fs from "node:fs";
import path from "node:path";
import { withSettingsTable } from "../src/server/config-table";

for (const [name, brief] of [
  [path.join("docs", "deployment.md"), false],
  ["README.md", true],
] as const) {
  const file = path.join(__dirname, "..", name);
  fs.writeFileSync(file, withSettingsTable(fs.readFileSync(file, "utf8"), brief));
  console.log(`wrote the settings table of ${name}`);
}
