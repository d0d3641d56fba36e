// The catalog's value lists are named once (CATALOG_VALUE_LISTS): the schema's members, the
// PROP.CATALOG sections and their column names all come from it.
import type { TSchema } from "@sinclair/typebox";
import { Catalog, CATALOG_VALUE_LIST_NAMES, CATALOG_VALUE_LISTS, isCatalogValueList } from "../../src/contract/responses";
import { CATALOG_SECTIONS } from "../../src/functions/catalog-table";

test("the catalog's arrays of plain strings are exactly the value lists", () => {
  const stringLists = Object.entries(Catalog.properties as Record<string, TSchema>)
    .filter(([, s]) => s.type === "array" && (s.items as TSchema).type === "string")
    .map(([name]) => name);
  expect(stringLists).toEqual(CATALOG_VALUE_LIST_NAMES);
  expect(Catalog.required).toEqual(expect.arrayContaining(CATALOG_VALUE_LIST_NAMES));
});

test("PROP.CATALOG offers a section for every value list, its column named by one value", () => {
  expect(CATALOG_SECTIONS).toEqual(expect.arrayContaining(CATALOG_VALUE_LIST_NAMES));
  expect(CATALOG_VALUE_LISTS).toEqual({
    company_types: "company_type",
    listing_statuses: "listing_status",
    listing_property_types: "listing_property_type",
  });
});

test("isCatalogValueList does not take inherited names", () => {
  expect(isCatalogValueList("company_types")).toBe(true);
  expect(isCatalogValueList("metros")).toBe(false);
  expect(isCatalogValueList("toString")).toBe(false);
});
