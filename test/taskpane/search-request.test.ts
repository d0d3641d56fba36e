// The request a pane search sends, the formula that stands for it, and the preview table.
import { fieldNames } from "../../src/functions/record-fields";
import { MARKET_METRICS } from "../../src/functions/market";
import { apiRequestFor, excelText, formulaFor, readField, type SearchRequest } from "../../src/taskpane/search-request";
import { previewOf } from "./sample-searches";

const search = (kind: SearchRequest["kind"], values: Record<string, string>, limit = 25): SearchRequest => ({ kind, values, limit });

describe("apiRequestFor", () => {
  test("an asset search: the asset type in the path, the place as `geography` in its canonical spelling, paging from offset 0", () => {
    expect(apiRequestFor(search("assetsearch", { asset_type: "Health Care", geography: "austin,tx", min_units: "1,200" }, 10))).toEqual({
      method: "GET",
      path: "/v1/commercial/assets/health-care/properties",
      query: { geography: "Austin, TX", min_units: 1200, limit: 10, offset: 0 },
    });
  });

  test("every search names its place `geography`, whatever kind of place it is", () => {
    expect(apiRequestFor(search("listings", { geography: "tx", status: "Active" })).query).toEqual({
      geography: "TX",
      status: "active",
      limit: 25,
      offset: 0,
    });
    expect(apiRequestFor(search("parcels", { geography: "Travis County, Texas" })).query).toEqual({
      geography: "Travis County, TX",
      limit: 25,
      offset: 0,
    });
    expect(apiRequestFor(search("search", { geography: "78701" })).query).toEqual({ geography: "78701", limit: 25, offset: 0 });
  });

  test("a sale-comps subject is a property id or a place; dates from Excel serials become ISO dates", () => {
    expect(apiRequestFor(search("salecomps", { subject: "cp_00ab", max_distance_miles: "10", min_sale_date: "45473" })).query).toEqual({
      property_id: "cp_00ab",
      max_distance_miles: 10,
      min_sale_date: "2024-06-30",
      limit: 25,
      offset: 0,
    });
    expect(apiRequestFor(search("salecomps", { subject: "metro-austin-tx", asset_type: "office" })).path).toBe("/v1/commercial/sale-comps");
  });

  test("a market snapshot is one record: no paging", () => {
    expect(apiRequestFor(search("market", { geography: "austin,tx", asset_type: "Industrial" }))).toEqual({
      method: "GET",
      path: "/v1/commercial/markets/snapshot",
      query: { geography: "Austin, TX", asset_type: "industrial" },
    });
  });

  test("companies by type in the path; owners and tenants by id or by name", () => {
    expect(apiRequestFor(search("companies", { company_type: "Property Manager", q: "capital" }))).toMatchObject({
      path: "/v1/commercial/companies/property-manager",
      query: { q: "capital" },
    });
    expect(apiRequestFor(search("portfolio", { owner: "co_0001a2b3" })).query).toMatchObject({ owner_id: "co_0001a2b3" });
    expect(apiRequestFor(search("footprint", { tenant: "Acme Logistics" })).query).toMatchObject({ tenant_name: "Acme Logistics" });
  });

  test("a value checkSearch would refuse throws rather than sending something else", () => {
    expect(() => apiRequestFor(search("parcels", { geography: "Texas!" }))).toThrow(/Place: "Texas!" is not a place: use a state/);
  });
});

describe("formulaFor", () => {
  test("positional arguments in order, other filters and limit in options", () => {
    expect(formulaFor(search("assetsearch", { asset_type: "industrial", geography: "tx", min_building_area_sqft: "100000" }))).toBe(
      '=PROP.ASSETSEARCH("industrial","TX","min_building_area_sqft=100000; limit=25")',
    );
  });

  test("an omitted argument in the middle is left empty; trailing omitted ones are dropped", () => {
    expect(formulaFor(search("listings", { status: "sold" }, 50))).toBe('=PROP.LISTINGS(,"sold","limit=50")');
    expect(formulaFor(search("search", {}))).toBe('=PROP.SEARCH(,,"limit=25")');
    expect(formulaFor(search("market", { geography: "Austin, TX metro", asset_type: "office" }))).toBe(
      '=PROP.MARKET("Austin, TX metro","office")',
    );
  });

  test("values are written normalised, in the form the function reads back the same", () => {
    expect(
      formulaFor(
        search("salecomps", { subject: " Austin , tx ", asset_type: "Senior Living", min_price: "1,000,000", min_sale_date: "45473" }),
      ),
    ).toBe('=PROP.SALECOMPS("Austin, TX","senior-living","min_sale_date=2024-06-30; min_price=1000000; limit=25")');
    expect(formulaFor(search("companies", { company_type: "owner", state_code: "tx" }))).toBe(
      '=PROP.COMPANIES("owner",,"state_code=TX; limit=25")',
    );
  });

  test("quotes are doubled, in arguments and in options", () => {
    expect(formulaFor(search("search", { q: 'the "big" one', owner_name: 'Smith "Holdings"' }))).toBe(
      '=PROP.SEARCH("the ""big"" one",,"owner_name=Smith ""Holdings""; limit=25")',
    );
  });

  test("a semicolon is fine in a positional argument but refused in an option, which it would split", () => {
    expect(formulaFor(search("footprint", { tenant: "Acme; Co" }))).toBe('=PROP.FOOTPRINT("Acme; Co","limit=25")');
    expect(() => formulaFor(search("search", { owner_name: "Acme; Co" }))).toThrow(/Owner name cannot contain ";"/);
  });
});

test("excelText: text longer than Excel's 255-character constant is joined with &, without splitting a doubled quote", () => {
  expect(excelText("")).toBe('""');
  const long = `${"a".repeat(254)}"${"b".repeat(10)}`;
  expect(excelText(long)).toBe(`"${"a".repeat(254)}"""&"${"b".repeat(10)}"`);
  expect(
    excelText("x".repeat(600))
      .split("&")
      .map((p) => p.length - 2),
  ).toEqual([255, 255, 90]);
});

test("readField names the input a field becomes, and its normalised value", () => {
  expect(readField("search", "geography", "Metro-Austin-TX")).toEqual({
    path: {},
    query: { geography: "metro-austin-tx" },
    normalised: "metro-austin-tx",
  });
  expect(readField("assetsearch", "asset_type", "health care")).toEqual({
    path: { asset_type: "health-care" },
    query: {},
    normalised: "health-care",
  });
  expect(() => readField("search", "min_units", "2.5")).toThrow("Min. units must be a whole number, not 2.5.");
});

describe("previewRows", () => {
  const envelope = (data: Record<string, unknown>[], total = data.length) => ({
    object: "list",
    data,
    limit: 25,
    offset: 0,
    has_more: false,
    next_offset: null,
    total_count: total,
  });

  test("a list: the spill's columns (every field but object), cells as the spill shows them, and the total", () => {
    const table = previewOf(
      "salecomps",
      envelope(
        [{ id: "sale_1", object: "sale_comp", sale_date: "2024-06-30", cap_rate: 0.065, sale_price: 4_250_000, buyer_name: null }],
        812,
      ),
    );
    const columns = fieldNames("sale_comp").filter((f) => f !== "object");
    expect(table.header).toEqual(columns);
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0][columns.indexOf("id")]).toBe("sale_1");
    // Dates as Excel dates and rates as percentages, each a number with its format; amounts plain.
    expect(table.rows[0][columns.indexOf("sale_date")]).toEqual({ type: "Double", basicValue: 45473, numberFormat: "yyyy-mm-dd" });
    expect(table.rows[0][columns.indexOf("cap_rate")]).toEqual({ type: "Double", basicValue: 0.065, numberFormat: "0.00%" });
    expect(table.rows[0][columns.indexOf("sale_price")]).toBe(4_250_000);
    expect(table.rows[0][columns.indexOf("buyer_name")]).toBe("");
    expect(table.total).toBe(812);
    expect(table.pairs).toBe(false);
  });

  test("an empty page keeps the header and has no rows", () => {
    const table = previewOf("parcels", envelope([]));
    expect(table.header).toEqual(fieldNames("parcel").filter((f) => f !== "object"));
    expect(table.rows).toEqual([]);
    expect(table.total).toBe(0);
  });

  test("a market snapshot: metric and value rows, like PROP.MARKET without a metric", () => {
    const table = previewOf("market", { object: "market_snapshot", vacancy_rate: 0.071, property_count: 412 });
    expect(table.header).toEqual(["metric", "value"]);
    expect(table.rows.map((r) => r[0])).toEqual(MARKET_METRICS);
    expect(table.rows.find((r) => r[0] === "vacancy_rate")).toEqual([
      "vacancy_rate",
      { type: "Double", basicValue: 0.071, numberFormat: "0.00%" },
    ]);
    expect(table.rows.find((r) => r[0] === "property_count")).toEqual(["property_count", 412]);
    expect(table.total).toBeNull();
    expect(table.pairs).toBe(true);
  });
});

describe("the history searches", () => {
  test("a market history: its metrics and bounds read as PROP.MARKETHISTORY reads them (a quarter, a year), no paging", () => {
    const request = search("markethistory", {
      geography: "austin tx",
      asset_type: "Industrial",
      metrics: "Vacancy Rate, sales_volume",
      from: "2016-Q1",
      to: "2020",
      interval: "Year",
    });
    expect(apiRequestFor(request)).toEqual({
      method: "GET",
      path: "/v1/commercial/markets/history",
      query: {
        geography: "Austin, TX",
        asset_type: "industrial",
        metrics: "vacancy_rate,sales_volume",
        from: "2016-01-01",
        to: "2020-12-31",
        interval: "year",
      },
    });
    expect(formulaFor(request)).toBe(
      '=PROP.MARKETHISTORY("Austin, TX","industrial","vacancy_rate,sales_volume","2016-01-01","2020-12-31","interval=year")',
    );
    expect(formulaFor(search("markethistory", { geography: "TX", asset_type: "office", metrics: "sales_count" }))).toBe(
      '=PROP.MARKETHISTORY("TX","office","sales_count")',
    );
  });

  test("a property's history: the id in the path, filters and limit in options", () => {
    const request = search("history", { property_id: "cp_0001a2b3", event_type: "sale, Lease Start", from: "45473" }, 50);
    expect(apiRequestFor(request)).toEqual({
      method: "GET",
      path: "/v1/commercial/properties/cp_0001a2b3/history",
      query: { event_type: "sale,lease_start", from: "2024-06-30", limit: 50, offset: 0 },
    });
    expect(formulaFor(request)).toBe('=PROP.HISTORY("cp_0001a2b3","event_type=sale,lease_start; from=2024-06-30; limit=50")');
  });

  test("previews: a series as its spill (period end, then the metrics asked); events in PROP.HISTORY's default columns", () => {
    const series = {
      object: "market_history",
      geography_name: "Austin, TX",
      asset_type: "industrial",
      interval: "quarter",
      metrics: ["vacancy_rate", "sales_volume"],
      units: { vacancy_rate: "fraction", sales_volume: "usd" },
      periods: [
        {
          period: "2024-Q1",
          period_start: "2024-01-01",
          period_end: "2024-03-31",
          complete: true,
          values: { vacancy_rate: 0.05, sales_volume: null },
        },
      ],
    };
    const table = previewOf("markethistory", series);
    expect(table.header).toEqual(["period_end", "vacancy_rate", "sales_volume"]);
    expect(table.rows).toEqual([
      [{ type: "Double", basicValue: 45382, numberFormat: "yyyy-mm-dd" }, { type: "Double", basicValue: 0.05, numberFormat: "0.00%" }, ""],
    ]);
    expect(previewOf("markethistory", { ...series, periods: [] }).rows).toEqual([]);
    const events = previewOf("history", {
      object: "list",
      data: [{ id: "sale_s1", date: "2024-03-31", event_type: "sale", record_id: "s1" }],
      total_count: 1,
    });
    expect(events.header.slice(0, 3)).toEqual(["date", "event_type", "description"]);
    expect(events.header).not.toContain("record_id");
  });

  test("a bound, metric or event type that cannot be right is refused before any request", () => {
    expect(() => readField("markethistory", "from", "2016-Q5")).toThrow(/not a quarter/);
    expect(() => readField("markethistory", "metrics", "rent")).toThrow(/"rent" is not one of/);
    expect(() => readField("history", "event_type", "renovation")).toThrow(/"renovation" is not one of/);
    expect(() => readField("history", "property_id", "0001")).toThrow(/not a property id/);
  });
});
