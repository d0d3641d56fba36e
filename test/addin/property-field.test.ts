// PROP.PROPERTY's input checks and value shaping, without a network: the client is a stub.
import type { ApiClient } from "../../src/shared/api-client";
import { InputError, NoDataError } from "../../src/functions/excel-errors";
import { PROPERTY_FIELDS, parseFieldName, parsePropertyId, propertyField } from "../../src/functions/property-field";
import { coverageTable } from "../../src/functions/coverage-table";

function stubClient(body: unknown): ApiClient & { paths: string[] } {
  const paths: string[] = [];
  return {
    baseUrl: "http://svc.test",
    paths,
    get: async <T>(path: string) => {
      paths.push(path);
      return body as T;
    },
  };
}

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
  const client = stubClient({ id: "cp_1", year_built: 1999, name: "Dock 5", owner_name: null, units: [1, 2] });
  await expect(propertyField("cp_1", "year_built", async () => client)).resolves.toBe(1999);
  await expect(propertyField("cp_1", "units", async () => client)).resolves.toBe("1, 2");
  await expect(propertyField("cp_1", "owner_name", async () => client)).rejects.toThrow(NoDataError);
  expect(client.paths[0]).toBe("/v1/commercial/properties/cp_1");
});

test("bad input fails before connecting, so it costs no request", async () => {
  const connect = jest.fn(async () => stubClient({}));
  await expect(propertyField("cp_1", "nope", connect)).rejects.toThrow(InputError);
  expect(connect).not.toHaveBeenCalled();
});

test("coverage spills header first, and an empty snapshot is no data rather than an empty spill", async () => {
  await expect(coverageTable(async () => stubClient({ object: "coverage", counts: { parcels: 3 } }))).resolves.toEqual([
    ["resource", "count"],
    ["parcels", 3],
  ]);
  await expect(coverageTable(async () => stubClient({ object: "coverage", counts: {} }))).rejects.toThrow(NoDataError);
});
