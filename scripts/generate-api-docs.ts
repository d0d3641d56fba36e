// npm run docs:api — writes docs/api-reference.md from the OpenAPI document.
import fs from "node:fs";
import path from "node:path";
import { publishedDocument } from "../src/server/openapi/published-document";
import { renderApiReference } from "../src/server/api-reference";
import { API_ROUTES } from "../src/server/routes";

void (async () => {
  const out = path.join(__dirname, "../docs/api-reference.md");
  fs.writeFileSync(out, renderApiReference(await publishedDocument(API_ROUTES)));
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
})();
