// "Compare selected rows" reads property ids from the selection and explains, before any
// request, what is wrong with a selection it cannot compare.
import { COMPARE_MAX, COMPARE_MIN, SelectionError, propertyIdsFrom } from "../../src/taskpane/selection-ids";
import type { CellValue, SelectedRows } from "../../src/taskpane/workbook-types";
import { publishedDocument } from "../../src/server/openapi/published-document";
import { API_ROUTES } from "../../src/server/routes";

function selection(header: CellValue[] | null, rows: CellValue[][], source = 'table "Comps"'): SelectedRows {
  return { address: "Sheet1!B4:D6", header, rows, source };
}

function searchRow(n: number): CellValue[] {
  return [`cp_${String(n).padStart(8, "0")}`, `Building ${n}`, "Austin"];
}

function errorOf(run: () => unknown): SelectionError {
  try {
    run();
  } catch (err) {
    if (err instanceof SelectionError) return err;
    throw err;
  }
  throw new Error("expected a SelectionError");
}

test("the compare bounds are the service's", async () => {
  expect([COMPARE_MIN, COMPARE_MAX]).toEqual([2, 25]);
  // As the OpenAPI document publishes them for the compare body.
  const doc = (await publishedDocument(API_ROUTES)) as { paths: Record<string, Record<string, any>> };
  const ids = doc.paths["/v1/commercial/properties/compare"].post.requestBody.content["application/json"].schema.properties.property_ids;
  expect([ids.minItems, ids.maxItems]).toEqual([COMPARE_MIN, COMPARE_MAX]);
});

test("reads the id column by its header, in the order of the rows", () => {
  const rows = [searchRow(3), searchRow(1), searchRow(2)];
  expect(propertyIdsFrom(selection(["ID", "name", "city"], rows))).toEqual(["cp_00000003", "cp_00000001", "cp_00000002"]);
});

test("finds the header whatever its case, spacing or separator", () => {
  const rows = [
    ["Harbor", " cp_a1 "],
    ["Dock", "cp_b2"],
  ];
  expect(propertyIdsFrom(selection(["name", "  Property ID "], rows))).toEqual(["cp_a1", "cp_b2"]);
});

test("prefers property_id over a table's own id (DILIGENCE, SALECOMPS, FOOTPRINT)", () => {
  const rows = [
    ["dil_0001", "cp_0001", 80],
    ["dil_0002", "cp_0002", 75],
  ];
  expect(propertyIdsFrom(selection(["id", "property_id", "score"], rows))).toEqual(["cp_0001", "cp_0002"]);
});

test("without an id header, uses the one column that holds only property ids", () => {
  const rows = [
    ["Harbor", "cp_0001", 1990],
    ["Dock", "cp_0002", null],
    ["Gap", "", 2001],
  ];
  expect(propertyIdsFrom(selection(null, rows, "Sheet1!A1:C3"))).toEqual(["cp_0001", "cp_0002"]);
  expect(propertyIdsFrom(selection(["Property", "Ref", "Built"], rows))).toEqual(["cp_0001", "cp_0002"]);
});

test("drops repeated ids and blank cells", () => {
  const rows = [["cp_1"], [""], ["cp_2"], ["cp_1"], [null]];
  expect(propertyIdsFrom(selection(["id"], rows))).toEqual(["cp_1", "cp_2"]);
});

test("a selection with no id column says what to select, naming the source", () => {
  const err = errorOf(() =>
    propertyIdsFrom(
      selection(
        ["name", "city"],
        [
          ["Harbor", "Austin"],
          ["Dock", "Dallas"],
        ],
        "Sheet2!A1:B3",
      ),
    ),
  );
  expect(err.message).toBe(
    "The selection in Sheet2!A1:B3 has no property id column; select rows of a PROP.SEARCH, ASSETSEARCH, PORTFOLIO or COMPARE result, or of a table with an id column.",
  );
});

test("two headerless columns of property ids are ambiguous, not guessed", () => {
  const rows = [
    ["cp_1", "cp_9"],
    ["cp_2", "cp_8"],
  ];
  expect(errorOf(() => propertyIdsFrom(selection(null, rows))).message).toMatch(/has no property id column/);
});

test("selected rows with blank ids say so", () => {
  const err = errorOf(() =>
    propertyIdsFrom(
      selection(
        ["id", "name"],
        [
          ["", "Harbor"],
          [null, "Dock"],
        ],
      ),
    ),
  );
  expect(err.message).toBe('The selected rows of table "Comps" hold no property ids; select the rows of the properties to compare.');
});

test("a value in the id column that is not a property id is named with its row", () => {
  const rows = [["cp_1"], ["par_0001"], ["cp_3"]];
  const err = errorOf(() => propertyIdsFrom(selection(["id"], rows)));
  expect(err.message).toBe('Selected row 2 of table "Comps" holds "par_0001" where a property id (like cp_0001a2b3) should be.');
});

test("one property is not a comparison", () => {
  const err = errorOf(() => propertyIdsFrom(selection(["id"], [["cp_1"], ["cp_1"]])));
  expect(err.message).toBe("Compare needs at least 2 different properties; the selection has 1 (cp_1). Select more rows.");
});

test("more than 25 properties are refused with the count", () => {
  const rows = Array.from({ length: 40 }, (_, i) => searchRow(i + 1));
  expect(errorOf(() => propertyIdsFrom(selection(["id", "name", "city"], rows))).message).toBe(
    "Compare takes at most 25 properties; the selection has 40.",
  );
  expect(propertyIdsFrom(selection(["id", "name", "city"], rows.slice(0, 25)))).toHaveLength(25);
});
