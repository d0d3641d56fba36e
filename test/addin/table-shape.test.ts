// Shaping records into spills: rectangular, header first, columns chosen and ordered by cols,
// empty results as a reason (never an empty spill), values as cells show them.
import { shapePairs, shapeTable, tableOptions } from "../../src/functions/table-shape";
import { fieldsTable } from "../../src/functions/fields-table";
import { NoDataError } from "../../src/functions/excel-errors";
import { parseOptions } from "../../src/functions/options";
import { LIST_OPTIONS } from "../../src/functions/table-shape";

const FIELDS = ["id", "object", "name", "sale_date", "tags", "cap_rate"];
const records = () => [
  { id: "sale_1", object: "sale_comp", name: "Dock 5", sale_date: "2024-06-30", tags: ["a", "b"], cap_rate: 0.065 },
  { id: "sale_2", object: "sale_comp", name: "Yard", sale_date: null, tags: [], cap_rate: null },
];
const opts = (text: string | null) => tableOptions(parseOptions(text, LIST_OPTIONS), FIELDS, "sale_comp");

test("header first, every field but object, nulls as empty text, lists joined, dates as Excel dates", () => {
  // No Office here, so no formatted numbers: a date is its serial number, a rate its fraction.
  expect(shapeTable(records(), FIELDS, opts(null), "none")).toEqual([
    ["id", "name", "sale_date", "tags", "cap_rate"],
    ["sale_1", "Dock 5", 45473, "a, b", 0.065],
    ["sale_2", "Yard", "", "", ""],
  ]);
});

test("cols chooses and orders the columns; headers=false drops the header; dates=text keeps the text", () => {
  expect(shapeTable(records(), FIELDS, opts("cols=cap_rate,id; headers=false"), "none")).toEqual([
    [0.065, "sale_1"],
    ["", "sale_2"],
  ]);
  expect(shapeTable(records(), FIELDS, opts("cols=sale_date; dates=text"), "none")).toEqual([["sale_date"], ["2024-06-30"], [""]]);
});

test("cols naming a field the records do not have is refused before any request, pointing at PROP.FIELDS", () => {
  expect(() => opts("cols=name,price")).toThrow(/cols: price is not a field here; =PROP.FIELDS\("sale_comp"\) lists them/);
});

test("no records is no data with the caller's reason, not an empty spill", () => {
  expect(() => shapeTable([], FIELDS, opts(null), "No sale comps match for state_code=VT.")).toThrow(NoDataError);
  expect(() => shapeTable([], FIELDS, opts(null), "No sale comps match for state_code=VT.")).toThrow(
    "No sale comps match for state_code=VT.",
  );
});

test("pairs read down as name/value rows; cols picks the rows", () => {
  const pairs: [string, unknown][] = [
    ["vacancy_rate", 0.08],
    ["as_of", "2025-01-01"],
    ["property_count", 12],
  ];
  expect(shapePairs(pairs, ["metric", "value"], tableOptions(new Map(), null, "market"), "none")).toEqual([
    ["metric", "value"],
    ["vacancy_rate", 0.08],
    ["as_of", 45658],
    ["property_count", 12],
  ]);
  const chosen = tableOptions(new Map<string, any>([["cols", ["property_count", "vacancy_rate"]]]), null, "market");
  expect(shapePairs(pairs, ["metric", "value"], chosen, "none")).toEqual([
    ["metric", "value"],
    ["property_count", 12],
    ["vacancy_rate", 0.08],
  ]);
});

test("PROP.FIELDS lists a resource's fields with label, type and description, without a request", () => {
  const rows = fieldsTable("market", null);
  expect(rows[0]).toEqual(["field", "label", "type", "description"]);
  expect(rows).toContainEqual([
    "vacancy_rate",
    "Vacancy rate",
    "percentage (a fraction: 0.065 is 6.5%), may be empty",
    "1 - occupancy_rate.",
  ]);
  expect(rows).toContainEqual(["as_of", "As of", "date", "Date the snapshot's figures describe (the capture date)."]);
  expect(fieldsTable("property", "headers=false; cols=field").slice(0, 2)).toEqual([["id"], ["object"]]);
});
