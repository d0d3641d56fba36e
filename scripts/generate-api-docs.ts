// npm run docs:api — writes docs/api-reference.md from the OpenAPI document.
import fs from "node:fs";
import path from "node:path";
import { buildOpenApi } from "../src/server/openapi/openapi-document";
import { renderApiReference } from "../src/server/api-reference";
import { API_ROUTES } from "../src/server/routes";

const out = path.join(__dirname, "../docs/api-reference.md");
fs.writeFileSync(out, renderApiReference(buildOpenApi(API_ROUTES)));
console.log(`wrote ${path.relative(process.cwd(), out)}`);
