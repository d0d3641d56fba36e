// The comparison sheet: properties as columns, fields as rows, statistics at the right.
import { comparisonRows, type Comparison } from "../../src/taskpane/comparison-table";

function property(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `Building ${id}`,
    asset_type: "industrial",
    year_built: 1990,
    building_area_sqft: 100_000,
    owner_name: null,
    ...overrides,
  };
}

function comparison(properties: Record<string, unknown>[], overrides: Partial<Comparison> = {}): Comparison {
  return {
    fields: ["id", "name", "asset_type", "year_built", "building_area_sqft", "owner_name"],
    properties,
    statistics: [
      { field: "year_built", count: properties.length, mean: 1992, min: 1985, median: 1990, max: 2001 },
      { field: "building_area_sqft", count: 0, mean: null, min: null, median: null, max: null },
    ],
    snapshot: { id: "snap_1", captured_at: "2025-01-01T00:00:00Z" },
    ...overrides,
  };
}

test("a header of property names, an id row, then one row per field with its statistics", () => {
  const rows = comparisonRows(
    comparison([property("cp_1", { year_built: 1985 }), property("cp_2", { year_built: 2001, owner_name: "Acme REIT" })]),
  );
  expect(rows).toEqual([
    ["Field", "Building cp_1", "Building cp_2", "Minimum", "Median", "Maximum"],
    ["id", "cp_1", "cp_2", "", "", ""],
    ["name", "Building cp_1", "Building cp_2", "", "", ""],
    ["asset_type", "industrial", "industrial", "", "", ""],
    ["year_built", 1985, 2001, 1985, 1990, 2001],
    ["building_area_sqft", 100_000, 100_000, "", "", ""],
    ["owner_name", "", "Acme REIT", "", "", ""],
  ]);
});

test("a property without a name is headed by its id", () => {
  const [header] = comparisonRows(comparison([property("cp_1", { name: null }), property("cp_2", { name: "  " }), property("cp_3")]));
  expect(header.slice(1, 4)).toEqual(["cp_1", "cp_2", "Building cp_3"]);
});

test("every row is as wide as the header, even when a property lacks a field", () => {
  const rows = comparisonRows(comparison([property("cp_1"), { id: "cp_2" }]));
  expect(new Set(rows.map((r) => r.length))).toEqual(new Set([6]));
  expect(rows.find((r) => r[0] === "year_built")).toEqual(["year_built", 1990, "", 1985, 1990, 2001]);
});

test("names from the data are kept exactly (the Excel edge writes them as text)", () => {
  const rows = comparisonRows(
    comparison([property("cp_1", { name: '=HYPERLINK("http://x")' }), property("cp_2", { owner_name: "@owner" })]),
  );
  expect(rows[0][1]).toBe('=HYPERLINK("http://x")');
  expect(rows.find((r) => r[0] === "owner_name")![2]).toBe("@owner");
});

test("fields follow the answer's order, and a field without statistics gets blanks", () => {
  const rows = comparisonRows(comparison([property("cp_1"), property("cp_2")], { fields: ["id", "year_built", "name"], statistics: [] }));
  expect(rows.map((r) => r[0])).toEqual(["Field", "id", "year_built", "name"]);
  expect(rows[2].slice(3)).toEqual(["", "", ""]);
});
