// What the search preview shows: cells as Excel shows them, and a single record's figures
// labelled and first.
import { MARKET_METRICS } from "../../src/functions/market";
import { displayText, previewView } from "../../src/taskpane/preview-text";
import { previewOf } from "./sample-searches";

describe("displayText", () => {
  test("dates as dates and rates as percentages, never [object Object]", () => {
    expect(displayText({ type: "Double", basicValue: 46096, numberFormat: "yyyy-mm-dd" })).toBe("2026-03-15");
    expect(displayText({ type: "Double", basicValue: 46096.75, numberFormat: "yyyy-mm-dd hh:mm" })).toBe("2026-03-15 18:00");
    expect(displayText({ type: "Double", basicValue: 46096.99999, numberFormat: "yyyy-mm-dd hh:mm" })).toBe("2026-03-16 00:00");
    expect(displayText({ type: "Double", basicValue: 0.0625, numberFormat: "0.00%" })).toBe("6.25%");
    expect(displayText({ type: "Double", basicValue: -0.012, numberFormat: "0%" })).toBe("-1%");
    expect(displayText({ type: "Double", basicValue: 1234.5678, numberFormat: "#,##0.00" })).toBe("1,234.57");
  });

  test("plain values as before; missing values stay empty", () => {
    expect([4_250_000, 40.584105, true, "=HYPERLINK(1)", "", null, undefined, NaN].map((v) => displayText(v))).toEqual([
      "4,250,000",
      "40.58",
      "TRUE",
      "=HYPERLINK(1)",
      "",
      "",
      "",
      "",
    ]);
  });

  test("a year is shown as typed, not as an amount", () => {
    expect(["year_built", "median_year_built", "assessment_year"].map((field) => displayText(1976, field))).toEqual([
      "1976",
      "1976",
      "1976",
    ]);
    expect(displayText(1976, "yearly_total")).toBe("1,976");
  });
});

describe("previewView", () => {
  const market = {
    object: "market_snapshot",
    id: "mkt_austin-tx_industrial",
    geography_type: "city",
    geography_name: "Austin, TX",
    as_of: "2026-11-01",
    property_count: 412,
    vacancy_rate: 0.0625,
    asking_rent_sqft_year: 14.5,
    median_cap_rate: null,
  };

  test("a market: labelled figures first, then what it describes; rates as percentages; a missing figure stays empty", () => {
    const view = previewView("market", previewOf("market", market));
    expect(view.columns).toEqual(["Field", "Value"]);
    const shown = Object.fromEntries(view.rows.map((r) => [r.field, r.cells]));
    expect(shown.vacancy_rate).toEqual(["Vacancy rate", "6.25%"]);
    expect(shown.asking_rent_sqft_year).toEqual(["Asking rent ($/sq ft/yr)", "14.5"]);
    expect(shown.median_cap_rate).toEqual(["Median cap rate", ""]);
    expect(shown.as_of).toEqual(["As of", "2026-11-01"]);
    expect(shown.property_count).toEqual(["Property count", "412"]);
    const order = view.rows.map((r) => r.field);
    expect(order.slice(0, 3)).toEqual(["property_count", "thin", "inventory_sqft"]);
    expect(order.slice(-7)).toEqual(["id", "geography_type", "geography_id", "geography_name", "state_code", "asset_type", "as_of"]);
    // Every row of the spill is shown, none twice.
    expect([...order].sort()).toEqual([...MARKET_METRICS].sort());
  });

  test("a list keeps the spill's columns and order (the inserted table's header), with cells as shown", () => {
    const table = previewOf("salecomps", {
      object: "list",
      data: [{ id: "sale_1", sale_date: "2026-03-15", cap_rate: 0.0625, buyer_name: null }],
      total_count: 1,
    });
    const view = previewView("salecomps", table);
    expect(view.columns).toEqual(table.header);
    const cell = (name: string) => view.rows[0].cells[table.header.indexOf(name)];
    expect([cell("id"), cell("sale_date"), cell("cap_rate"), cell("buyer_name")]).toEqual(["sale_1", "2026-03-15", "6.25%", ""]);
  });
});
