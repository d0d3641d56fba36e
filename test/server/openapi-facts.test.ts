// The facts of the published OpenAPI document that clients and the API reference rely on, held
// in a snapshot so a change to how the document is built cannot change them unnoticed: every
// operation of the contract (OPERATIONS, one snapshot each, so a new operation adds its own)
// with its path, method, operationId, tags, summary and cost; its parameters with their
// schemas; its request body; every response it declares with its headers and content, schemas
// resolved (a record's schema is compared whole, wherever the document names it); the shared
// records it lists once in components.schemas; and the document's info, servers and security.
import { OPERATION_LIST } from "../../src/contract/operations";
import { DECISIONS_MARKDOWN } from "../../src/server/openapi/api-decisions";
import type { OpenApiDoc } from "../helpers/openapi-document";
import { startService, type TestService } from "../helpers/service";

let svc: TestService;
let doc: OpenApiDoc;

beforeAll(async () => {
  svc = await startService();
  doc = (await svc.app.inject({ method: "GET", url: "/v1/openapi.json" })).json();
});
afterAll(() => svc.app.close());

type Json = { [k: string]: unknown };

/** `schema` with every `#/components/schemas/...` reference replaced by the schema it names (keys sorted). */
function resolved(schema: unknown, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolved(s, seen));
  if (!schema || typeof schema !== "object") return schema;
  const s = schema as Json;
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace("#/components/schemas/", "");
    if (seen.includes(name)) return { $ref: name };
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`unresolved reference ${s.$ref}`);
    return resolved(target, [...seen, name]);
  }
  const out: Json = {};
  for (const k of Object.keys(s).sort()) if (k !== "$id") out[k] = resolved(s[k], seen);
  return out;
}

function operationFacts(op: Json) {
  const responses = op.responses as Record<string, Json>;
  return {
    operationId: op.operationId,
    tags: op.tags,
    summary: op.summary,
    description: op.description,
    cost: op["x-credit-cost"],
    costPer: op["x-credit-cost-per"],
    parameters: ((op.parameters as Json[] | undefined) ?? []).map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      description: p.description,
      schema: resolved(p.schema),
    })),
    requestBody: resolved(op.requestBody),
    responses: Object.fromEntries(
      Object.keys(responses)
        .sort()
        .map((status) => [status, resolved(responses[status])]),
    ),
  };
}

test("the document lists exactly the contract's operations, each at its path and method", () => {
  const listed = Object.keys(doc.paths).flatMap((path) => Object.keys(doc.paths[path]).map((method) => `${method.toUpperCase()} ${path}`));
  expect(listed.sort()).toEqual(OPERATION_LIST.map((o) => `${o.method} ${o.path}`).sort());
});

test.each(OPERATION_LIST.map((o) => [o.name, o] as const))("%s keeps its operationId, parameters, body, responses and cost", (_name, o) => {
  const op = doc.paths[o.path]?.[o.method.toLowerCase()] as unknown as Json | undefined;
  if (!op) throw new Error(`${o.method} ${o.path} is not in the document`);
  expect({ path: o.path, method: o.method.toLowerCase(), ...operationFacts(op) }).toMatchSnapshot();
});

test("the shared records are listed once each in components.schemas, each with its schema", () => {
  const names = Object.keys(doc.components.schemas).sort();
  expect(names).toMatchSnapshot();
  expect(Object.fromEntries(names.map((n) => [n, resolved(doc.components.schemas[n], [n])]))).toMatchSnapshot();
});

test("the document states the API decisions, its server, and bearer-key security", () => {
  const info = doc.info as Json;
  expect(doc.openapi).toBe("3.1.0");
  expect(info).toEqual({ title: "Property Intelligence API", version: "1.0.0", description: DECISIONS_MARKDOWN });
  expect(doc.servers).toEqual([{ url: "/", description: "This service" }]);
  expect(doc.security).toEqual([{ bearerAuth: [] }]);
  expect((doc.components as Json).securitySchemes).toEqual({
    bearerAuth: { type: "http", scheme: "bearer", description: "API key: `Authorization: Bearer propi_live_...`." },
  });
});

test("only the public API's operations are in the document (no account pages, health or the document itself)", () => {
  const paths = Object.keys(doc.paths);
  expect(paths.every((p) => p.startsWith("/v1/"))).toBe(true);
  expect(paths).not.toContain("/v1/openapi.json");
  expect(paths).not.toContain("/healthz");
});
