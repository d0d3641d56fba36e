import fs from "node:fs";
import path from "node:path";
import { renderApiReference } from "../../src/server/api-reference";
import { buildOpenApi } from "../../src/server/openapi";
import { API_ROUTES } from "../../src/server/routes";

test("docs/api-reference.md is generated from the current schemas (run npm run docs:api)", () => {
  const onDisk = fs.readFileSync(path.join(__dirname, "../../docs/api-reference.md"), "utf8");
  expect(onDisk).toBe(renderApiReference(buildOpenApi(API_ROUTES)));
});

test("the reference documents every endpoint and every parameter", () => {
  const md = renderApiReference(buildOpenApi(API_ROUTES));
  for (const route of API_ROUTES) {
    expect(md).toContain(`### ${route.operationId}`);
    for (const name of Object.keys(route.querystring?.properties ?? {})) expect(md).toContain(`| \`${name}\` | query |`);
  }
});
