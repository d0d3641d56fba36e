// Positional arguments that mean more than one thing: geographies, sale-comps subjects,
// market geographies and metrics, ranges of property ids, resource names.
import { assetTypeArg, companyTypeArg, geographyArg, mergeInputs, propertyIdsArg } from "../../src/functions/argument-parsers";
import { saleCompsSubject } from "../../src/functions/sale-comps";
import { marketGeography, marketMetric } from "../../src/functions/market";
import { companyArg } from "../../src/functions/company-tables";
import { resourceNamed } from "../../src/functions/record-fields";
import { chunkIds, statistics } from "../../src/functions/compare-table";
import { InputError } from "../../src/functions/excel-errors";

const ANY = { state: "state_code", city: "city", zip: "zip", metro: "metro_id" } as const;

test("a geography is a state, a city, a ZIP code or a metro id, as the endpoint names them", () => {
  expect(geographyArg("tx", ANY)).toEqual({ state_code: "TX" });
  expect(geographyArg("Austin, TX", ANY)).toEqual({ city: "Austin, TX" });
  expect(geographyArg("St. Louis", ANY)).toEqual({ city: "St. Louis" });
  expect(geographyArg(78701, ANY)).toEqual({ zip: "78701" });
  expect(geographyArg("02134", ANY)).toEqual({ zip: "02134" });
  expect(geographyArg("Metro-Austin-TX", ANY)).toEqual({ metro_id: "metro-austin-tx" });
  expect(geographyArg("TX", { state: "state", city: "city" })).toEqual({ state: "TX" });
});

test("a geography the function does not take says which ones it does", () => {
  expect(() => geographyArg("78701", { state: "state_code", metro: "metro_id" })).toThrow(/give a state code \("TX"\) or a metro id/);
  expect(() => geographyArg("Texas!", ANY)).toThrow(InputError);
  expect(() => geographyArg("", ANY)).toThrow(/geography is empty/);
});

test("a sale-comps subject is a property id, else a state, city or metro", () => {
  expect(saleCompsSubject(" cp_00ab ")).toEqual({ property_id: "cp_00ab" });
  expect(saleCompsSubject("TX")).toEqual({ state_code: "TX" });
  expect(saleCompsSubject("Austin, TX")).toEqual({ city: "Austin, TX" });
  expect(saleCompsSubject("metro-austin-tx")).toEqual({ metro_id: "metro-austin-tx" });
  expect(() => saleCompsSubject("cp_00ab/../x")).toThrow(/not a property id/);
  expect(() => saleCompsSubject("78701")).toThrow(/not a geography this function takes/);
  expect(() => saleCompsSubject(null)).toThrow(/subject is empty/);
});

test("market geographies follow the service's grammar and are normalised for the cache", () => {
  expect(marketGeography(" austin,tx ")).toBe("austin, TX");
  expect(marketGeography("Austin, TX Metro")).toBe("Austin, TX metro");
  expect(marketGeography("tx")).toBe("TX");
  expect(marketGeography("METRO-AUSTIN-TX")).toBe("metro-austin-tx");
  expect(() => marketGeography("Austin")).toThrow(/not a geography/);
  expect(marketMetric("Vacancy Rate")).toBe("vacancy_rate");
  expect(() => marketMetric("vacancy")).toThrow(/PROP.FIELDS\("market"\)/);
});

test("asset and company types accept the spellings people type", () => {
  expect(assetTypeArg("Senior Living")).toBe("senior-living");
  expect(assetTypeArg("HEALTH_CARE")).toBe("health-care");
  expect(companyTypeArg("Property Manager")).toBe("property-manager");
  expect(() => assetTypeArg("warehouse")).toThrow(/not one of multifamily/);
});

test("a company is an id or a name", () => {
  expect(companyArg("co_00ab", "owner")).toEqual({ owner_id: "co_00ab" });
  expect(companyArg("Acme Realty", "tenant")).toEqual({ tenant_name: "Acme Realty" });
  expect(() => companyArg("", "owner")).toThrow(/owner is empty/);
});

test("a range of property ids: blanks skipped, repeats dropped, order kept, bounds checked", () => {
  expect(propertyIdsArg([["cp_2"], [""], ["cp_1"], ["cp_2"], [null]])).toEqual(["cp_2", "cp_1"]);
  expect(() => propertyIdsArg([["cp_1"]])).toThrow(/at least two/);
  expect(() => propertyIdsArg([["cp_1"], ["Main St"]])).toThrow(/"Main St" is not a property id/);
  expect(() => propertyIdsArg(Array.from({ length: 101 }, (_, i) => [`cp_${i}`]))).toThrow(/at most 100/);
});

test("compare splits ranges into near-equal requests of at most 25, and computes statistics like the service", () => {
  const ids = Array.from({ length: 26 }, (_, i) => `cp_${i}`);
  expect(chunkIds(ids).map((c) => c.length)).toEqual([13, 13]);
  expect(chunkIds(ids.slice(0, 25)).map((c) => c.length)).toEqual([25]);
  expect(chunkIds(Array.from({ length: 100 }, (_, i) => `cp_${i}`)).map((c) => c.length)).toEqual([25, 25, 25, 25]);
  expect(statistics([{ a: 3 }, { a: 1 }, { a: null }, { a: 10 }, { a: 4 }], ["a"])).toEqual([{ field: "a", count: 4, min: 1, median: 3.5, max: 10 }]);
});

test("the same input as an argument and in options is refused", () => {
  expect(() => mergeInputs({ asset_type: "office" }, { asset_type: "retail" })).toThrow(/asset_type is given twice/);
  expect(mergeInputs({ state_code: "TX" }, { asset_type: "retail" })).toEqual({ state_code: "TX", asset_type: "retail" });
});

test("resource names accept plurals and function names", () => {
  expect(resourceNamed("Sale Comps")).toBe("sale_comp");
  expect(resourceNamed("properties")).toBe("property");
  expect(resourceNamed("FOOTPRINT")).toBe("tenant_location");
  expect(() => resourceNamed("castles")).toThrow(/not a resource/);
});
