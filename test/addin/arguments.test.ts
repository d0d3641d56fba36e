// Positional arguments that mean more than one thing: geographies, sale-comps subjects,
// market geographies and metrics, ranges of property ids, resource names.
import { assetTypeArg, companyTypeArg, mergeInputs, placeArg, propertyIdsArg } from "../../src/functions/argument-parsers";
import { saleCompsSubject } from "../../src/functions/sale-comps";
import { marketMetric } from "../../src/functions/market";
import { ENDPOINTS } from "../../src/shared/endpoints";
import { PLACE_FORMS } from "../contract/place-forms";
import { companyArg } from "../../src/functions/company-tables";
import { resourceNamed } from "../../src/functions/record-fields";
import { chunkIds } from "../../src/functions/compare-table";
import { fieldStatistics } from "../../src/contract/statistics";
import { InputError } from "../../src/functions/excel-errors";

test.each(PLACE_FORMS)("the place argument $input becomes geography=$canonical", ({ input, canonical }) => {
  // The property search takes every kind of place; its request carries the canonical form.
  expect(placeArg(input, ENDPOINTS.searchProperties)).toEqual({ geography: canonical });
});

test("a place of a kind the function does not take, or no place at all, says which kinds it takes", () => {
  expect(() => placeArg("Austin, TX metro", ENDPOINTS.listParcels)).toThrow(
    /"Austin, TX metro" is a metro; this function takes a state .*, a county .*, a city .* or a ZIP code/,
  );
  expect(() => placeArg("Travis County, TX", ENDPOINTS.searchListings)).toThrow(/is a county; this function takes a state/);
  expect(() => placeArg("Texas!", ENDPOINTS.searchProperties)).toThrow(InputError);
  expect(() => placeArg("", ENDPOINTS.searchProperties)).toThrow(/geography is empty/);
  expect(() => placeArg("Austin, ZZ", ENDPOINTS.searchProperties)).toThrow(/geography: "Austin, ZZ": "ZZ" is not a US state/);
});

test("a sale-comps subject is a property id, else a place", () => {
  expect(saleCompsSubject(" cp_00ab ")).toEqual({ property_id: "cp_00ab" });
  expect(saleCompsSubject("tx")).toEqual({ geography: "TX" });
  expect(saleCompsSubject("austin,tx")).toEqual({ geography: "Austin, TX" });
  expect(saleCompsSubject("Austin, TX metro")).toEqual({ geography: "Austin, TX metro" });
  expect(saleCompsSubject(78704)).toEqual({ geography: "78704" });
  expect(() => saleCompsSubject("cp_00ab/../x")).toThrow(/not a property id/);
  expect(() => saleCompsSubject(null)).toThrow(/subject is empty/);
});

test("market metrics take the spellings people type", () => {
  expect(marketMetric("Vacancy Rate")).toBe("vacancy_rate");
  expect(() => marketMetric("vacancy")).toThrow(/PROP.FIELDS\("market"\)/);
});

test("the place is named once: a geography argument and a place option are refused", () => {
  expect(() => mergeInputs({ geography: "TX" }, { city: "Austin" })).toThrow(/place is given twice: the geography argument and city/);
  expect(() => mergeInputs({}, { geography: "TX", zip: "78704" })).toThrow(/place is given twice: geography and zip/);
  expect(mergeInputs({ property_id: "cp_1" }, { state_code: "CA" })).toEqual({ property_id: "cp_1", state_code: "CA" });
});

test("asset and company types accept the spellings people type", () => {
  expect(assetTypeArg("Senior Living")).toBe("senior-living");
  expect(assetTypeArg("HEALTH_CARE")).toBe("health-care");
  expect(companyTypeArg("Property Manager")).toBe("property-manager");
  expect(() => assetTypeArg("castle")).toThrow(/not one of multifamily/);
  expect(() => assetTypeArg("warehouse")).toThrow(/the warehouse subtype of industrial: use asset_type industrial with subtype=warehouse/);
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
  expect(fieldStatistics([{ a: 3 }, { a: 1 }, { a: null }, { a: 10 }, { a: 4 }], ["a"])).toEqual([
    { field: "a", count: 4, mean: 4.5, min: 1, median: 3.5, max: 10 },
  ]);
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
