// The add-in's view of the API (src/shared/endpoints.ts, src/functions/record-fields.ts) held
// equal to the OpenAPI document the server generates from its route definitions. Operations
// (method, path, paging), query inputs and costs come from one shared definition
// (src/contract/operations.ts, queries.ts, credit-costs.ts); what the add-in states
// itself (paging bounds as it checks them, record fields) and how it reads the shared schemas
// are checked here.
import { SNAPSHOT_SELECTORS } from "../../src/contract/snapshot-select";
import { DATE_INPUT_MAX_LENGTH } from "../../src/contract/dates";
import { publishedDocument } from "../../src/server/openapi/published-document";
import { API_ROUTES } from "../../src/server/routes";
import { ENDPOINTS, LIST_PATTERNS, endpointFor, type EndpointSpec, type ParamSpec } from "../../src/shared/endpoints";
import { MAX_LIMIT, MAX_OFFSET } from "../../src/contract/paging";
import { RESOURCES, type ResourceName } from "../../src/functions/record-fields";

type Json = Record<string, any>;
let doc: Json;
let operations: { method: string; path: string; op: Json }[];
beforeAll(async () => {
  doc = (await publishedDocument(API_ROUTES)) as Json;
  operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ method: method.toUpperCase(), path, op: op as Json })),
  );
});
const resolve = (schema: Json): Json => (schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema);

test("the add-in knows exactly the service's operations, with their method and path", () => {
  const api = operations.filter((o) => o.path.startsWith("/v1/") && o.op.operationId);
  const published = api.map((o) => ({ id: o.op.operationId, method: o.method, path: o.path }));
  const ours = (Object.values(ENDPOINTS) as EndpointSpec[]).map((e) => ({ id: e.operationId, method: e.method, path: e.path }));
  expect(ours.sort((a, b) => a.id.localeCompare(b.id))).toEqual(published.sort((a, b) => a.id.localeCompare(b.id)));
  for (const [key, spec] of Object.entries(ENDPOINTS)) expect(spec.operationId).toBe(key);
});

/** What the add-in's check of a parameter, derived from the shared schema, must agree with in the published one. */
function expectSameParam(ours: ParamSpec, schema: Json, where: string) {
  const label = `${where} ${ours.name}`;
  const pattern: Record<string, string> = {
    state: "^[A-Za-z]{2}$",
    zip: "^[0-9]{5}(-[0-9]{4})?$",
    fips: "^[0-9]{5}$",
    metro: "^metro-[a-z0-9-]+$",
    company_id: "^co_[A-Za-z0-9-]+$",
    property_id: "^cp_[A-Za-z0-9-]+$",
  };
  const seen = {
    label,
    type: schema.type,
    pattern: schema.pattern,
    enum: schema.enum,
    format: schema.format,
    min: schema.minimum ?? schema.exclusiveMinimum,
    max: schema.maximum,
    minLength: schema.minLength,
    maxLength: schema.maxLength,
  };
  const expected: Json = {
    label,
    type: "string",
    pattern: pattern[ours.kind],
    enum: undefined,
    format: undefined,
    min: undefined,
    max: undefined,
    minLength: undefined,
    maxLength: undefined,
  };
  if (ours.kind === "enum") expected.enum = [...ours.values!];
  if (ours.kind === "text") Object.assign(expected, { minLength: ours.minLength, maxLength: ours.maxLength });
  // Places and cities are read with the place grammar; the service bounds only their length.
  if (ours.kind === "place") Object.assign(expected, { minLength: 1, maxLength: 120 });
  if (ours.kind === "city") Object.assign(expected, { minLength: 1, maxLength: 80 });
  // Dates are read with the date grammar; the service bounds only their length.
  if (ours.kind === "date") Object.assign(expected, { minLength: 1, maxLength: DATE_INPUT_MAX_LENGTH });
  if (ours.kind === "name_list") {
    // Names checked one by one against the contract's vocabulary: every list the add-in can
    // send (at most all the names, once each) matches the published pattern and fits its length.
    expect(LIST_PATTERNS).toContain(schema.pattern);
    const all = ours.values!.join(",");
    expect({ label, matches: new RegExp(schema.pattern).test(all) }).toEqual({ label, matches: true });
    expect(all.length).toBeLessThanOrEqual(schema.maxLength ?? Infinity);
    Object.assign(expected, { pattern: schema.pattern, minLength: schema.minLength, maxLength: schema.maxLength });
  }
  if (ours.kind === "number" || ours.kind === "integer") Object.assign(expected, { type: ours.kind, min: ours.min, max: ours.max });
  expect(seen).toEqual(expected);
  if (ours.exclusiveMin) expect(schema.exclusiveMinimum).toBe(ours.min);
}

test("every query input of every endpoint is read into the check the service makes, and paging is where the add-in expects it", () => {
  for (const spec of Object.values(ENDPOINTS) as EndpointSpec[]) {
    const { op } = operations.find((o) => o.op.operationId === spec.operationId)!;
    const query = ((op.parameters ?? []) as Json[]).filter((p) => p.in === "query");
    const paging = query.filter((p) => p.name === "limit" || p.name === "offset").map((p) => p.name);
    expect({ id: spec.operationId, paged: paging.length === 2 }).toEqual({ id: spec.operationId, paged: spec.paged });
    // The snapshot selectors every operation takes are the call's pin (the as_of option), sent on every request of a call.
    for (const name of Object.keys(SNAPSHOT_SELECTORS)) expect(query.map((p) => p.name)).toContain(name);
    const inputs = query.filter((p) => !paging.includes(p.name) && !(p.name in SNAPSHOT_SELECTORS));
    expect({ id: spec.operationId, names: spec.query.map((q) => q.name).sort() }).toEqual({
      id: spec.operationId,
      names: inputs.map((p) => p.name).sort(),
    });
    for (const ours of spec.query) expectSameParam(ours, resolve(inputs.find((p) => p.name === ours.name)!.schema), spec.operationId);
  }
});

test("the published paging bounds are the shared contract's, which the add-in pages by", () => {
  const paging = operations.find((o) => o.op.operationId === "listParcels")!.op.parameters as Json[];
  const schemaOf = (name: string) => resolve(paging.find((p) => p.name === name)!.schema);
  expect({ limit: schemaOf("limit").maximum, offset: schemaOf("offset").maximum }).toEqual({ limit: MAX_LIMIT, offset: MAX_OFFSET });
});

/** The record schema a response carries: a list's items, or the body itself. */
function recordOf(
  operationId: string,
  pick: (body: Json) => Json = (body) => (body.properties?.data ? body.properties.data.items : body),
): Json {
  const { op } = operations.find((o) => o.op.operationId === operationId)!;
  return resolve(pick(resolve(op.responses["200"].content["application/json"].schema)));
}

const RECORDS: [ResourceName, () => Json][] = [
  ["property", () => recordOf("getProperty")],
  ["parcel", () => recordOf("listParcels")],
  ["listing", () => recordOf("searchListings")],
  ["sale_comp", () => recordOf("findSaleComps")],
  ["market", () => recordOf("getMarketSnapshot")],
  ["company", () => recordOf("searchCompanies")],
  ["portfolio_holding", () => recordOf("getOwnerPortfolio")],
  ["tenant_location", () => recordOf("getTenantFootprint")],
  ["diligence_candidate", () => recordOf("rankDiligenceCandidates")],
  ["property_event", () => recordOf("getPropertyHistory")],
  ["breakdown", () => recordOf("analyseAssetType", (body) => resolve(body).properties.by_subtype.items)],
  ["statistic", () => recordOf("compareProperties", (body) => body.properties.statistics.items)],
];

test.each(RECORDS)("the columns of %s are the fields of the service's record, in its order", (resource, record) => {
  expect(RESOURCES[resource].map((f) => f.name)).toEqual(Object.keys(record().properties));
});

test("a nullable enum's column names its values (not null) and that it may be empty", () => {
  expect(RESOURCES.property.find((f) => f.name === "building_class")?.type).toBe("one of A, B, C, may be empty");
});

test("asset_analysis lists the analysis' figures (its breakdown arrays are spilled by breakdown=)", () => {
  const fields = Object.keys(recordOf("analyseAssetType").properties).filter((f) => !f.startsWith("by_"));
  expect(RESOURCES.asset_analysis.map((f) => f.name)).toEqual(fields);
});

test("a request path maps back to its endpoint (for credit counting)", () => {
  expect(endpointFor("GET", "/v1/commercial/properties/cp_1")?.operationId).toBe("getProperty");
  expect(endpointFor("POST", "/v1/commercial/properties/compare")?.operationId).toBe("compareProperties");
  expect(endpointFor("GET", "/v1/commercial/assets/office/analysis")?.operationId).toBe("analyseAssetType");
  expect(endpointFor("GET", "/v1/nothing")).toBeNull();
});
