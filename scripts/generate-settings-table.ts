// Writes the settings table of docs/deployment.md from the environment schema (npm run docs:settings).
import fs from "node:fs";
import path from "node:path";
import { withSettingsTable } from "../src/server/config-table";

const file = path.join(__dirname, "..", "docs", "deployment.md");
fs.writeFileSync(file, withSettingsTable(fs.readFileSync(file, "utf8")));
console.log(`wrote the settings table of ${path.relative(process.cwd(), file)}`);
