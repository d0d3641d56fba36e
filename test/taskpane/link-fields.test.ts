// "Link a table": which headers of an analyst's table name a property field, which column holds
// the property ids, and the formula a linked cell gets.
import { PROPERTY_FIELDS } from "../../src/functions/property-field";
import { UNLINKED_FIELDS, fieldOfHeader, linkFormula, linkedColumns, propertyIdColumn } from "../../src/taskpane/link-fields";
import type { CellValue } from "../../src/taskpane/workbook-types";

/** The headers analysts write, each with the field it names. */
const ANALYST_PHRASES: Array<[string, string]> = [
  ["Building SF", "building_area_sqft"],
  ["Bldg SF", "building_area_sqft"],
  ["Sq Ft", "building_area_sqft"],
  ["Square Feet", "building_area_sqft"],
  ["RBA", "building_area_sqft"],
  ["GLA", "building_area_sqft"],
  ["NRA", "building_area_sqft"],
  ["Building Size", "building_area_sqft"],
  ["Size (SF)", "building_area_sqft"],
  ["Occupancy", "occupancy_rate"],
  ["Occ", "occupancy_rate"],
  ["Occ %", "occupancy_rate"],
  ["Occupancy %", "occupancy_rate"],
  ["% Leased", "occupancy_rate"],
  ["Leased %", "occupancy_rate"],
  ["Last Sale Price", "last_sale_price"],
  ["Sale Price", "last_sale_price"],
  ["Last Sale $", "last_sale_price"],
  ["Last Sale Date", "last_sale_date"],
  ["Sale Date", "last_sale_date"],
  ["Last Sold", "last_sale_date"],
  ["Year Built", "year_built"],
  ["Built", "year_built"],
  ["YOC", "year_built"],
  ["Yr Built", "year_built"],
  ["Units", "units"],
  ["# Units", "units"],
  ["Unit Count", "units"],
  ["Keys", "units"],
  ["Stories", "stories"],
  ["Floors", "stories"],
  ["# Floors", "stories"],
  ["Land Acres", "land_area_acres"],
  ["Acres", "land_area_acres"],
  ["Land Area (AC)", "land_area_acres"],
  ["Owner", "owner_name"],
  ["Owner Name", "owner_name"],
  ["Ownership", "owner_name"],
  ["Class", "building_class"],
  ["Bldg Class", "building_class"],
  ["Building Class", "building_class"],
  ["Property Type", "asset_type"],
  ["Asset Type", "asset_type"],
  ["Estimated Value", "estimated_value"],
  ["Est. Value", "estimated_value"],
  ["Asking Rent PSF", "asking_rent_sqft_year"],
  ["Rent PSF", "asking_rent_sqft_year"],
  ["Rent/SF", "asking_rent_sqft_year"],
  ["Rent/Unit", "asking_rent_unit_month"],
  ["Asking Rent/Unit", "asking_rent_unit_month"],
  ["Rent per Unit", "asking_rent_unit_month"],
  ["Property Name", "name"],
  ["Property", "name"],
  ["Building Name", "name"],
  ["County", "county"],
  ["Metro", "metro_name"],
  ["MSA", "metro_name"],
  ["Market", "metro_name"],
  ["Lat", "latitude"],
  ["Long", "longitude"],
  ["Lng", "longitude"],
  ["Lon", "longitude"],
];

describe("linkedColumns", () => {
  test.each(ANALYST_PHRASES)("%s links to %s", (phrase, field) => {
    expect(linkedColumns([phrase])).toEqual([{ column: 0, header: phrase, field }]);
  });

  test("the product's own names and labels link, in any case and spacing", () => {
    const header = ["year_built", "Building area (sq ft)", "occupancy rate", "TENANT COUNT", "Asking rent ($/unit/mo)", "Subtype"];
    expect(linkedColumns(header).map((c) => c.field)).toEqual([
      "year_built",
      "building_area_sqft",
      "occupancy_rate",
      "tenant_count",
      "asking_rent_unit_month",
      "subtype",
    ]);
  });

  test("case, spacing and punctuation do not matter; $ and % do", () => {
    const header = [" bldg  sf ", "YR. BUILT", "occ%", "rent / sf", "last-sale-$", "Occupancy (%)"];
    expect(linkedColumns(header).map((c) => [c.column, c.header, c.field])).toEqual([
      [0, "bldg  sf", "building_area_sqft"],
      [1, "YR. BUILT", "year_built"],
      [2, "occ%", "occupancy_rate"],
      [3, "rent / sf", "asking_rent_sqft_year"],
      [4, "last-sale-$", "last_sale_price"],
    ]);
    // "Occupancy (%)" named occupancy_rate already (column 2): linked once.
    expect(fieldOfHeader("Occupancy (%)")).toBe("occupancy_rate");
    // Without its symbol a phrase may name something else, or nothing: not linked.
    expect(fieldOfHeader("Last Sale")).toBeNull();
    expect(fieldOfHeader("Leased")).toBeNull();
  });

  test("a header that names no field exactly is not linked", () => {
    const header = [
      "Notes",
      "Tenant",
      "Cap Rate",
      "Price",
      "Lease Expiration",
      "Building",
      "Year",
      "Sq Ft Leased",
      "Asking Rent",
      "SF",
      "Beds",
      "Type",
      "Value",
    ];
    expect(linkedColumns(header)).toEqual([]);
  });

  test("the fields that identify or locate a row, and ids analysts do not type, are never linked", () => {
    const header = ["Address", "ZIP", "City", "State", "State code", "ID", "Object", "Owner ID", "Parcel ID", "Last sale ID", "Metro ID"];
    header.push("County FIPS", "fips");
    expect(header.map((h) => fieldOfHeader(h))).toEqual([
      "address",
      "zip",
      "city",
      null,
      "state_code",
      "id",
      "object",
      "owner_id",
      "parcel_id",
      "last_sale_id",
      "metro_id",
      "county_fips",
      "county_fips",
    ]);
    expect(linkedColumns(header)).toEqual([]);
  });

  test("the fields left out are the ones named, each a property field with a reason", () => {
    expect(Object.keys(UNLINKED_FIELDS).sort()).toEqual(
      ["address", "city", "county_fips", "id", "last_sale_id", "metro_id", "object", "owner_id", "parcel_id", "state_code", "zip"].sort(),
    );
    for (const [field, reason] of Object.entries(UNLINKED_FIELDS)) {
      expect(PROPERTY_FIELDS).toContain(field);
      expect(reason).toMatch(/^[a-z].{10,}$/);
    }
  });

  test("two headers naming one field: the first is linked", () => {
    const header = ["Property ID", "RBA", "Year Built", "Building SF", "YOC", "Owner"];
    expect(linkedColumns(header)).toEqual([
      { column: 1, header: "RBA", field: "building_area_sqft" },
      { column: 2, header: "Year Built", field: "year_built" },
      { column: 5, header: "Owner", field: "owner_name" },
    ]);
  });

  test("headers that are not text are skipped, their columns counted", () => {
    const header: CellValue[] = [2019, null, true, { type: "Double", basicValue: 0.92, numberFormat: "0.00%" }, "", "  ", "Owner"];
    expect(linkedColumns(header)).toEqual([{ column: 6, header: "Owner", field: "owner_name" }]);
  });

  test("the id column is never linked, and a later header for its field is", () => {
    const header = ["Property", "Property Name", "Year Built"];
    expect(linkedColumns(header, 0)).toEqual([
      { column: 1, header: "Property Name", field: "name" },
      { column: 2, header: "Year Built", field: "year_built" },
    ]);
    expect(linkedColumns(header).map((c) => c.column)).toEqual([0, 2]);
  });
});

describe("propertyIdColumn", () => {
  const ids = (n: number) => `cp_${String(n).padStart(8, "0")}`;

  test.each([["Property id"], ["Property ID"], ["property_id"], ["id"], ["ID"], ["PROP id"]])("by a header %s", (name) => {
    const rows: CellValue[][] = [
      [ids(9), "Harbor", ids(1)],
      [ids(8), "Dock", ids(2)],
      [ids(7), "Mill", ""],
    ];
    // Column 0 holds more ids, but the header names column 2.
    expect(propertyIdColumn(["Ref", "Name", name], rows)).toBe(2);
  });

  test("a property id header is preferred to a bare ID", () => {
    const rows: CellValue[][] = [
      [ids(1), ids(1)],
      [ids(2), ids(2)],
    ];
    expect(propertyIdColumn(["ID", "Property ID"], rows)).toBe(1);
  });

  test("an ID column of row numbers is passed over for the column of ids", () => {
    const rows: CellValue[][] = [
      [1, "100 Main St", ids(1)],
      [2, "200 Main St", ids(2)],
      [3, "300 Main St", null],
    ];
    expect(propertyIdColumn(["ID", "Address", "Match"], rows)).toBe(2);
  });

  test("by content: the column where most filled cells are ids, the one holding the most", () => {
    const rows: CellValue[][] = [
      ["Harbor", ids(1), ids(5), "cp_x"],
      ["Dock", ids(2), "", "n/a"],
      ["Mill", "no match", "", "n/a"],
      ["Yard", ids(3), null, " "],
    ];
    // Column 1: 3 ids of 4 filled; column 2: 1 of 1; column 3: 1 of 3 (not most).
    expect(propertyIdColumn(["Name", "Ref", "Other", "Third"], rows)).toBe(1);
  });

  test("ids with spaces around them count; equal columns: the leftmost", () => {
    const rows: CellValue[][] = [
      [" cp_a1 ", "cp_b1"],
      ["cp_a2", "cp_b2"],
    ];
    expect(propertyIdColumn([null, null], rows)).toBe(0);
  });

  test("null when no column holds mostly ids, even under an id header", () => {
    const rows: CellValue[][] = [
      ["", "cp_1", 1],
      ["", "x", 2],
      ["", "y", 3],
    ];
    expect(propertyIdColumn(["Property ID", "Ref", "Row"], rows)).toBeNull();
    expect(propertyIdColumn([], [])).toBeNull();
    // Ids of other records are not property ids.
    expect(propertyIdColumn(["id"], [["sale_0001"], ["sale_0002"]])).toBeNull();
  });
});

test("linkFormula names the id cell and the field", () => {
  expect(linkFormula("$B2", "year_built")).toBe('=PROP.PROPERTY($B2,"year_built")');
  expect(linkFormula("$AA10", "occupancy_rate")).toBe('=PROP.PROPERTY($AA10,"occupancy_rate")');
});
