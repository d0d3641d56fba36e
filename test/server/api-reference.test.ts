import fs from "node:fs";
import path from "node:path";
import { renderApiReference } from "../../src/server/api-reference";
import { publishedDocument } from "../../src/server/openapi/published-document";
import { API_ROUTES } from "../../src/server/routes";

test("docs/api-reference.md is generated from the current schemas (run npm run docs:api)", async () => {
  const onDisk = fs.readFileSync(path.join(__dirname, "../../docs/api-reference.md"), "utf8");
  expect(onDisk).toBe(renderApiReference(await publishedDocument(API_ROUTES)));
});

test("the reference documents every endpoint and every parameter", async () => {
  const doc = await publishedDocument(API_ROUTES);
  const md = renderApiReference(doc);
  // Each operation's section, from its heading to the next heading.
  const sections = new Map(
    md
      .split(/\n### /)
      .slice(1)
      .map((s) => [s.slice(0, s.indexOf("\n")), s.split(/\n## /)[0]]),
  );
  expect([...sections.keys()]).toEqual(expect.arrayContaining(API_ROUTES.map((r) => r.operation.name)));
  const seen = { query: 0, path: 0, body: 0 };
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      const section = sections.get(op.operationId) ?? "";
      for (const p of (op.parameters ?? []) as { name: string; in: "query" | "path" }[]) {
        expect({ op: op.operationId, documented: section.includes(`| \`${p.name}\` | ${p.in} |`) }).toEqual({
          op: op.operationId,
          documented: true,
        });
        seen[p.in]++;
      }
      for (const name of Object.keys(op.requestBody?.content["application/json"].schema.properties ?? {})) {
        expect({ op: op.operationId, documented: section.includes(`| \`${name}\` |`) }).toEqual({ op: op.operationId, documented: true });
        seen.body++;
      }
    }
  }
  // Path parameters and body fields were walked too, not only the query strings.
  expect(seen.query).toBeGreaterThan(0);
  expect(seen.path).toBeGreaterThan(0);
  expect(seen.body).toBeGreaterThan(0);
});
