// PROP.PROPERTY's input checks and value shaping, and the coverage spill, over a stubbed
// service (a fresh session per test: no network, no shared cache).
import { InputError, NoDataError, toExcelError } from "../../src/functions/excel-errors";
import { PROPERTY_FIELDS, parseFieldName, parsePropertyId, propertyField } from "../../src/functions/property-field";
import { coverageTable } from "../../src/functions/coverage-table";
import { customFunctionsStandIn, jsonResponse, problemResponse } from "./office-stand-ins";
import { propertyRecord, testSession } from "./session-factory";

test("field names come from the shared contract's commercial property record", () => {
  expect(PROPERTY_FIELDS).toEqual(expect.arrayContaining(["id", "year_built", "building_area_sqft", "owner_name", "last_sale_price"]));
  expect(parseFieldName("  Year_Built ")).toBe("year_built");
  expect(() => parseFieldName("yearbuilt")).toThrow(InputError);
  expect(() => parseFieldName(null)).toThrow(/field is empty/);
});

test("property ids must look like the contract's ids", () => {
  expect(parsePropertyId(" cp_00ab-9 ")).toBe("cp_00ab-9");
  expect(() => parsePropertyId("par_00ab")).toThrow(InputError);
  expect(() => parsePropertyId("cp_00ab/../../v1/parcels")).toThrow(InputError);
  expect(() => parsePropertyId(42)).toThrow(/property_id is empty/);
});

test("returns the value, joins lists, and reports a missing value as no data", async () => {
  const { ctx, requests } = testSession(() => jsonResponse(propertyRecord("cp_1", { year_built: 1999, units: [1, 2] })));
  await expect(propertyField("cp_1", "year_built", null, ctx)).resolves.toBe(1999);
  await expect(propertyField("cp_1", "units", null, ctx)).resolves.toBe("1, 2");
  await expect(propertyField("cp_1", "owner_name", null, ctx)).rejects.toThrow(NoDataError);
  // One property, asked three times: one request (the detail endpoint, for a lone id).
  expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/commercial/properties/cp_1"]);
});

test("bad input fails before any request, so it costs nothing", async () => {
  const { ctx, requests } = testSession(() => jsonResponse({}));
  await expect(propertyField("cp_1", "nope", null, ctx)).rejects.toThrow(InputError);
  await expect(propertyField("", "name", null, ctx)).rejects.toThrow(InputError);
  expect(requests).toHaveLength(0);
});

test("coverage spills header first, and an empty snapshot is no data rather than an empty spill", async () => {
  const full = testSession(() => jsonResponse({ object: "coverage", snapshot: { id: "s" }, counts: { parcels: 3 } }));
  await expect(coverageTable(null, null, full.ctx)).resolves.toEqual([
    ["resource", "count"],
    ["parcels", 3],
  ]);
  const empty = testSession(() => jsonResponse({ object: "coverage", snapshot: { id: "s" }, counts: {} }));
  await expect(coverageTable(null, null, empty.ctx)).rejects.toThrow(NoDataError);
});

test("coverage sections: the known gaps, and the snapshot's identity", async () => {
  const { ctx } = testSession(() =>
    jsonResponse({
      object: "coverage",
      snapshot: { id: "snap_9", captured_at: "2025-01-01T00:00:00Z" },
      counts: {},
      known_gaps: [{ resource: "properties", asset_type: "land", field: "units", detail: "no unit counts" }],
      build_seconds: 4,
    }),
  );
  await expect(coverageTable("Gaps", "cols=asset_type,detail", ctx)).resolves.toEqual([
    ["asset_type", "detail"],
    ["land", "no unit counts"],
  ]);
  await expect(coverageTable("snapshot", "headers=false", ctx)).resolves.toEqual([
    ["id", "snap_9"],
    ["captured_at", 45658],
    ["build_seconds", 4],
  ]);
  await expect(coverageTable("gaps", "cols=colour", ctx)).rejects.toThrow(/cols: colour not in this section/);
});

test("coverage's snapshot section: its moments follow dates= as every date does (serial: numbers; text: the service's text)", async () => {
  const { ctx } = testSession(() =>
    jsonResponse({
      object: "coverage",
      snapshot: { id: "snap_9", captured_at: "2025-01-01T12:00:00Z", built_at: "2025-01-02T00:00:00Z", source: "generated", seed: "7" },
      counts: {},
      build_seconds: 4,
    }),
  );
  const value = (rows: unknown[][], name: string) => rows.find((r) => r[0] === name)?.[1];
  const serial = (await coverageTable("snapshot", "dates=serial", ctx)) as unknown[][];
  expect([value(serial, "captured_at"), value(serial, "built_at"), value(serial, "seed")]).toEqual([45658.5, 45659, "7"]);
  const text = (await coverageTable("snapshot", "dates=text", ctx)) as unknown[][];
  expect([value(text, "captured_at"), value(text, "built_at")]).toEqual(["2025-01-01T12:00:00Z", "2025-01-02T00:00:00Z"]);
});

test("a 404 for the property is #N/A-kind no data, remembered until a refresh", async () => {
  const { ctx, requests } = testSession((req) =>
    req.path === "/v1/commercial/coverage"
      ? jsonResponse({ object: "coverage", snapshot: { id: "snap_1" }, counts: { properties: 1 } })
      : problemResponse(404, { detail: "There is no commercial property 'cp_9' in this snapshot.", code: "not_found" }),
  );
  const err = await propertyField("cp_9", "name", null, ctx).catch((e: unknown) => e);
  expect(err).toMatchObject({ status: 404, message: expect.stringMatching(/cp_9/) });
  (globalThis as Record<string, unknown>).CustomFunctions = customFunctionsStandIn();
  try {
    expect(toExcelError(err)).toMatchObject({ code: "#N/A", message: expect.stringMatching(/cp_9/) });
  } finally {
    delete (globalThis as Record<string, unknown>).CustomFunctions;
  }
  await expect(propertyField("cp_9", "name", null, ctx)).rejects.toMatchObject({ status: 404 });
  expect(requests).toHaveLength(1);
  // A refresh (which learns the snapshot) makes the next use ask again.
  await ctx.session.api.refresh();
  await expect(propertyField("cp_9", "name", null, ctx)).rejects.toMatchObject({ status: 404 });
  expect(requests.map((r) => r.path)).toEqual([
    "/v1/commercial/properties/cp_9",
    "/v1/commercial/coverage",
    "/v1/commercial/properties/cp_9",
  ]);
});

test("coverage's snapshots section spills id, captured, retires and latest, the moments as Excel dates (dates=text: the service's text)", async () => {
  const { ctx } = testSession(() =>
    jsonResponse({
      object: "coverage",
      snapshot: { id: "snap_b" },
      counts: {},
      snapshots: [
        {
          id: "snap_b",
          captured_at: "2025-02-01T00:00:00Z",
          built_at: "2025-02-02T00:00:00Z",
          retires_at: "2027-02-01T00:00:00Z",
          latest: true,
        },
        {
          id: "snap_a",
          captured_at: "2025-01-01T12:00:00Z",
          built_at: "2025-01-02T00:00:00Z",
          retires_at: "2027-01-01T12:00:00Z",
          latest: false,
        },
      ],
    }),
  );
  await expect(coverageTable("Snapshots", null, ctx)).resolves.toEqual([
    ["id", "captured", "retires", "latest"],
    ["snap_b", 45689, 46419, true],
    ["snap_a", 45658.5, 46388.5, false],
  ]);
  await expect(coverageTable("snapshots", "dates=text; cols=id,retires; headers=false", ctx)).resolves.toEqual([
    ["snap_b", "2027-02-01T00:00:00Z"],
    ["snap_a", "2027-01-01T12:00:00Z"],
  ]);
});
