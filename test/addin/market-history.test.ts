// PROP.MARKETHISTORY and PROP.HISTORY over a stubbed service: their arguments read (and refused)
// before any request, the spill (period end dates as Excel date serials, a column per metric,
// headers, intervals), and cells asking one market with different metrics sent as one request.
import { periodBoundArg, periodRange } from "../../src/functions/history-periods";
import { historyTable, marketHistory, metricsArg } from "../../src/functions/market-history";
import { HISTORY } from "../../src/functions/property-history";
import { InputError, NoDataError, withExcelErrors } from "../../src/functions/excel-errors";
import { MISSING, valueForms } from "../../src/functions/cell-values";
import { tableOptions } from "../../src/functions/table-shape";
import { fieldsTable } from "../../src/functions/fields-table";
import type { MarketHistory, PropertyEvent } from "../../src/contract/history";
import { customFunctionsStandIn, jsonResponse } from "./office-stand-ins";
import { listResponse, testSession, type SeenRequest } from "./session-factory";

/** A series answer for the query asked: two quarters of 2024, the second holding the capture date. */
function seriesFor(query: Record<string, string>, extra: Partial<MarketHistory> = {}): MarketHistory {
  const metrics = (query.metrics ?? "asking_rent_sqft_year,vacancy_rate,median_cap_rate").split(",");
  const value = (m: string, i: number) => (m === "sales_count" ? null : m.endsWith("_rate") ? 0.05 + i / 100 : 20 + i);
  const year = query.interval === "year";
  return {
    object: "market_history",
    market_id: "mkt_city_austin-tx_industrial",
    geography_type: "city",
    geography_id: "austin-tx",
    geography_name: "Austin, TX",
    state_code: "TX",
    asset_type: "industrial",
    interval: year ? "year" : "quarter",
    metrics,
    units: Object.fromEntries(metrics.map((m) => [m, m.endsWith("_rate") ? "fraction" : "usd_per_sqft_year"])),
    periods: (year ? ["2023", "2024"] : ["2024-Q1", "2024-Q2"]).map((period, i) => ({
      period,
      period_start: year ? `${period}-01-01` : ["2024-01-01", "2024-04-01"][i],
      period_end: year ? (i === 0 ? "2023-12-31" : "2024-05-20") : ["2024-03-31", "2024-05-20"][i],
      complete: i === 0,
      values: Object.fromEntries(metrics.map((m) => [m, value(m, i)])),
    })),
    snapshot: { id: "snap_1", captured_at: "2024-05-20T00:00:00Z" },
    ...extra,
  } as MarketHistory;
}

const seriesService = (request: SeenRequest) => jsonResponse(seriesFor(request.query));

describe("from and to", () => {
  test("a date cell, date text, a quarter or a year become the dates the service takes", () => {
    expect(periodBoundArg(45473, "from")).toBe("2024-06-30");
    expect(periodBoundArg("2024-06-30", "to")).toBe("2024-06-30");
    expect(periodBoundArg("2016-Q1", "from")).toBe("2016-01-01");
    expect(periodBoundArg("2016-Q1", "to")).toBe("2016-03-31");
    expect(periodBoundArg("q4 2020", "to")).toBe("2020-12-31");
    expect(periodBoundArg("2020Q2", "to")).toBe("2020-06-30");
    expect(periodBoundArg(2016, "from")).toBe("2016-01-01");
    expect(periodBoundArg("2016", "to")).toBe("2016-12-31");
    expect(periodBoundArg(null, "from")).toBeNull();
    expect(periodBoundArg("  ", "to")).toBeNull();
  });

  test("nonsense is #VALUE! with what would work, and a from after to is refused", () => {
    expect(() => periodBoundArg("2016-Q5", "from")).toThrow(/"2016-Q5" is not a quarter \(quarters are Q1 to Q4\); write a date/);
    expect(() => periodBoundArg("soon", "from")).toThrow(/from: "soon" is not a date; write a date.*a year \(2026\), a quarter \(2026-Q1/);
    expect(() => periodBoundArg("2024-02-30", "to")).toThrow(InputError);
    expect(() => periodBoundArg(true, "to")).toThrow(/cannot be TRUE or FALSE/);
    expect(() => periodBoundArg(-3, "to")).toThrow(/not a date/);
    expect(() => periodRange("2020", "2019-Q4")).toThrow(/from \(2020-01-01\) is after to \(2019-12-31\)/);
    expect(periodRange("2019", "2019")).toEqual({ from: "2019-01-01", to: "2019-12-31" });
  });
});

describe("metrics", () => {
  test("text or a range of names, in the order given, in any case and spacing; blank is the service's default set", () => {
    expect(metricsArg([["Vacancy Rate, asking_rent_sqft_year"]])).toBe("vacancy_rate,asking_rent_sqft_year");
    expect(
      metricsArg([
        ["sales_volume", null],
        ["", "net-absorption-sqft"],
      ]),
    ).toBe("sales_volume,net_absorption_sqft");
    expect(metricsArg([[null]])).toBe("asking_rent_sqft_year,vacancy_rate,median_cap_rate");
    expect(metricsArg("")).toBe("asking_rent_sqft_year,vacancy_rate,median_cap_rate");
  });

  test("an unknown or repeated metric is refused, naming the metrics", () => {
    expect(() => metricsArg("vacancy")).toThrow(/metrics: "vacancy" is not one of asking_rent_sqft_year, .*deliveries_units/);
    expect(() => metricsArg([["vacancy_rate"], ["Vacancy_Rate"]])).toThrow(/names vacancy_rate twice/);
  });
});

describe("PROP.MARKETHISTORY", () => {
  test("sends the checked query and spills period end dates as Excel dates, a column per metric in the order asked", async () => {
    const { ctx, requests } = testSession(seriesService);
    const spill = await marketHistory("austin tx", "Industrial", "vacancy_rate,asking_rent_sqft_year", "2024-Q1", 45473, null, ctx);
    expect(requests).toHaveLength(1);
    expect(requests[0].path).toBe("/v1/commercial/markets/history");
    expect(requests[0].query).toEqual({
      geography: "Austin, TX",
      asset_type: "industrial",
      metrics: "vacancy_rate,asking_rent_sqft_year",
      from: "2024-01-01",
      to: "2024-06-30",
    });
    // No Office here: a date is its serial number (2024-03-31 is 45382), a rate its fraction. The
    // period to date (2024-Q2, to May 20) is left out by default.
    expect(spill).toEqual([
      ["period_end", "vacancy_rate", "asking_rent_sqft_year"],
      [45382, 0.05, 20],
    ]);
  });

  test("partial=true keeps the period to date, labelled with the date it runs to; labels=false leaves the names out", async () => {
    const { ctx } = testSession(seriesService);
    const spill = await marketHistory("TX", "industrial", "vacancy_rate", null, null, "partial=true", ctx);
    expect(spill).toEqual([
      ["period_end", "period", "vacancy_rate"],
      [45382, "2024-Q1", 0.05],
      [45432, "2024-Q2 (to May 20)", 0.060000000000000005],
    ]);
    const yearly = await marketHistory("TX", "industrial", "vacancy_rate", null, null, "partial=true; interval=year; labels=true", ctx);
    expect(yearly.map((r) => r[1])).toEqual(["period", "2023", "2024 (to May 20)"]);
    const bare = await marketHistory("TX", "industrial", "vacancy_rate", null, null, "partial=true; labels=false", ctx);
    expect(bare).toEqual([
      ["period_end", "vacancy_rate"],
      [45382, 0.05],
      [45432, 0.060000000000000005],
    ]);
  });

  test("a series holding only the period to date is #N/A by default, saying partial=true keeps it", async () => {
    const only = testSession((r) => {
      const body = seriesFor(r.query);
      return jsonResponse({ ...body, periods: body.periods.slice(1) });
    });
    await expect(marketHistory("TX", "industrial", "vacancy_rate", "2024-05-01", null, null, only.ctx)).rejects.toThrow(
      /partial=true keeps it/,
    );
  });

  test("headers=false, labels=true, interval=year; a gap is empty text", async () => {
    const { ctx, requests } = testSession(seriesService);
    const spill = await marketHistory(
      "TX",
      "industrial",
      "sales_count,median_cap_rate",
      null,
      null,
      "headers=false; interval=Year; labels=true",
      ctx,
    );
    expect(requests[0].query).toMatchObject({ interval: "year", metrics: "sales_count,median_cap_rate" });
    expect(requests[0].query).not.toHaveProperty("from");
    expect(spill).toEqual([[45291, "2023", "", 0.05]]);
  });

  test("where the host formats numbers, the date column is a formatted date and rates percentages", () => {
    const body = seriesFor({ metrics: "vacancy_rate,asking_rent_sqft_year" });
    const shape = { ...tableOptions(new Map(), null, "market_history"), forms: valueForms(new Map(), true) };
    const [header, first] = historyTable(body, ["vacancy_rate", "asking_rent_sqft_year"], shape, { labels: false, partial: false });
    expect(header).toEqual(["period_end", "vacancy_rate", "asking_rent_sqft_year"]);
    expect(first).toEqual([
      { type: "Double", basicValue: 45382, numberFormat: "yyyy-mm-dd" },
      { type: "Double", basicValue: 0.05, numberFormat: "0.00%" },
      20,
    ]);
  });

  test("a from before the history ends the spill with a note row saying where the series starts; footer=false leaves it out", async () => {
    const early = testSession((r) =>
      jsonResponse(seriesFor(r.query, { coverage: { requested_from: "2005-01-01", first_held: "2024-01-01", from_before_history: true } })),
    );
    const spill = await marketHistory("TX", "industrial", "vacancy_rate,asking_rent_sqft_year", 2005, null, null, early.ctx);
    expect(spill).toEqual([
      ["period_end", "vacancy_rate", "asking_rent_sqft_year"],
      [45382, 0.05, 20],
      ["Starts 2024-Q1, the first quarter held: from (2005-01-01) is before the history.", "", ""],
    ]);
    const bare = await marketHistory("TX", "industrial", "vacancy_rate,asking_rent_sqft_year", 2005, null, "footer=false", early.ctx);
    expect(bare).toEqual(spill.slice(0, 2));
    // A from within the history says nothing more.
    const within = testSession((r) =>
      jsonResponse(
        seriesFor(r.query, { coverage: { requested_from: "2024-01-01", first_held: "2006-01-01", from_before_history: false } }),
      ),
    );
    expect(await marketHistory("TX", "industrial", "vacancy_rate", "2024-Q1", null, null, within.ctx)).toHaveLength(2);
  });

  test("thin periods (fewer than 5 properties) are named in the note row, as runs of periods; footer=false leaves it out", async () => {
    const body = (query: Record<string, string>): MarketHistory => {
      const base = seriesFor(query);
      const quarters = ["2023-Q1", "2023-Q2", "2023-Q3", "2023-Q4", "2024-Q1"].map((period, i) => ({
        ...base.periods[0],
        period,
        period_start: ["2023-01-01", "2023-04-01", "2023-07-01", "2023-10-01", "2024-01-01"][i],
        period_end: ["2023-03-31", "2023-06-30", "2023-09-30", "2023-12-31", "2024-03-31"][i],
        property_count: [3, 4, 7, 2, 9][i],
        thin: [true, true, false, true, false][i],
      }));
      return { ...base, periods: quarters };
    };
    const thin = testSession((r) => jsonResponse(body(r.query)));
    const spill = await marketHistory("Austin, TX", "industrial", "vacancy_rate", null, null, "labels=true", thin.ctx);
    expect(spill).toHaveLength(7);
    expect(spill[6]).toEqual(["Thin (fewer than 5 properties): 2023-Q1 to 2023-Q2, 2023-Q4.", "", ""]);
    const bare = await marketHistory("Austin, TX", "industrial", "vacancy_rate", null, null, "labels=true; footer=false", thin.ctx);
    expect(bare).toEqual(spill.slice(0, 6));
    const allThin = testSession((r) => {
      const b = body(r.query);
      return jsonResponse({ ...b, periods: b.periods.map((p) => ({ ...p, thin: true, property_count: 1 })) });
    });
    const one = await marketHistory("78704", "hospitality", "vacancy_rate", null, null, null, allThin.ctx);
    expect(one[one.length - 1]).toEqual(["Thin: every period stands on fewer than 5 properties.", ""]);
  });

  test("bad arguments are refused before any request; no periods is #N/A with a reason", async () => {
    const { ctx, requests } = testSession(seriesService);
    await expect(marketHistory("Austin, TX", "industrial", "rent", null, null, null, ctx)).rejects.toThrow(InputError);
    await expect(marketHistory("Austin, TX", "castle", "vacancy_rate", null, null, null, ctx)).rejects.toThrow(InputError);
    await expect(marketHistory("Austin, TX", "industrial", "vacancy_rate", "2025", "2024", null, ctx)).rejects.toThrow(/is after/);
    await expect(marketHistory("Austin, TX", "industrial", "vacancy_rate", null, null, "interval=month", ctx)).rejects.toThrow(
      /interval: "month" is not one of quarter, year/,
    );
    await expect(marketHistory("Austin, TX", "industrial", "vacancy_rate", null, null, "limit=5", ctx)).rejects.toThrow(
      /not an option here/,
    );
    expect(requests).toHaveLength(0);
    const empty = testSession((r) => jsonResponse(seriesFor(r.query, { periods: [] })));
    await expect(marketHistory("TX", "industrial", "vacancy_rate", null, null, null, empty.ctx)).rejects.toThrow(NoDataError);
  });

  test("cells asking one market and period with different metrics are one request; each gets its own columns, and recalculates free", async () => {
    const { ctx, requests } = testSession(seriesService);
    const cells = () =>
      Promise.all([
        marketHistory("Austin, TX", "industrial", "vacancy_rate", "2024", null, null, ctx),
        marketHistory("austin tx", "industrial", "asking_rent_sqft_year", "2024", null, null, ctx),
        marketHistory("Austin, TX", "industrial", "median_cap_rate,vacancy_rate", "2024", null, null, ctx),
        // Other dates: a request of its own.
        marketHistory("Austin, TX", "industrial", "vacancy_rate", "2023", null, null, ctx),
      ]);
    const [vacancy, rent, capAndVacancy, older] = await cells();
    expect(requests.map((r) => r.query.metrics).sort()).toEqual(["asking_rent_sqft_year,vacancy_rate,median_cap_rate", "vacancy_rate"]);
    expect(vacancy[0]).toEqual(["period_end", "vacancy_rate"]);
    expect(rent.map((row) => row[1])).toEqual(["asking_rent_sqft_year", 20]);
    expect(capAndVacancy[0]).toEqual(["period_end", "median_cap_rate", "vacancy_rate"]);
    expect(older[0]).toEqual(["period_end", "vacancy_rate"]);
    // Each cell's own answer is cached under its own request: recalculating any one is free.
    await cells();
    await marketHistory("Austin, TX", "industrial", "asking_rent_sqft_year", "2024", null, null, ctx);
    expect(requests).toHaveLength(2);
  });

  test("a refusal of the place reaches every cell of the request and is remembered", async () => {
    const refused = {
      type: "about:blank",
      title: "Unknown place",
      status: 400,
      code: "unknown_place",
      detail: "The snapshot holds no place called Atlantis, TX.",
    };
    const { ctx, requests } = testSession(
      () => new Response(JSON.stringify(refused), { status: 400, headers: { "content-type": "application/problem+json" } }),
    );
    const both = await Promise.allSettled([
      marketHistory("Atlantis, TX", "industrial", "vacancy_rate", null, null, null, ctx),
      marketHistory("Atlantis, TX", "industrial", "sales_volume", null, null, null, ctx),
    ]);
    expect(both.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(requests).toHaveLength(1);
    await expect(marketHistory("Atlantis, TX", "industrial", "sales_volume", null, null, null, ctx)).rejects.toMatchObject({ status: 400 });
    expect(requests).toHaveLength(1);
  });

  test("PROP.FIELDS lists the history's columns: the period, then every metric", () => {
    const rows = fieldsTable("market_history", "cols=field,type");
    expect(rows.slice(0, 4)).toEqual([
      ["field", "type"],
      ["period_end", "date"],
      ["period", "string"],
      ["asking_rent_sqft_year", "number, may be empty"],
    ]);
    expect(rows.find((r) => r[0] === "vacancy_rate")?.[1]).toMatch(/^percentage/);
  });
});

function event(id: number, overrides: Partial<PropertyEvent> = {}): PropertyEvent {
  return {
    id: `sale_s${id}`,
    object: "property_event",
    property_id: "cp_0001",
    date: "2019-06-30",
    event_type: "sale",
    record_id: `s${id}`,
    owner_id: "co_2",
    owner_name: "Beta LLC",
    counterparty_id: "co_1",
    counterparty_name: "Acme",
    price: 12_400_000,
    price_per_sqft: 124,
    cap_rate: 0.055,
    sale_type: "investment",
    leased_area_sqft: null,
    rent_sqft_year: null,
    description: "Sold by Acme to Beta LLC for $12,400,000",
    ...overrides,
  };
}

describe("PROP.HISTORY", () => {
  test("one page of 100 by default, the readable columns, filters checked and sent", async () => {
    const { ctx, requests } = testSession(() =>
      listResponse([event(1), event(2, { event_type: "lease_start", price: null, cap_rate: null })]),
    );
    const spill = await HISTORY.run(["cp_0001"], "event_type=Sale, lease start; from=2015-01-01; to=45473", ctx);
    expect(requests).toHaveLength(1);
    expect(requests[0].path).toBe("/v1/commercial/properties/cp_0001/history");
    expect(requests[0].query).toEqual({ event_type: "sale,lease_start", from: "2015-01-01", to: "2024-06-30", limit: "100", offset: "0" });
    expect(spill[0]).toEqual([
      "date",
      "event_type",
      "description",
      "owner_name",
      "counterparty_name",
      "price",
      "price_per_sqft",
      "cap_rate",
      "sale_type",
      "leased_area_sqft",
      "rent_sqft_year",
    ]);
    expect(spill[1].slice(0, 2)).toEqual([43646, "sale"]);
    expect(spill[2][7]).toBe("");
  });

  test("cols picks any field, ids included; limit pages further", async () => {
    let page = 0;
    const { ctx, requests } = testSession(() =>
      listResponse(
        Array.from({ length: page++ === 0 ? 100 : 20 }, (_, i) => event(i)),
        page === 1 ? { has_more: true, next_offset: 100, total_count: 120 } : { offset: 100, total_count: 120 },
      ),
    );
    const spill = await HISTORY.run(["cp_0001"], "cols=record_id,counterparty_id; limit=200; headers=false", ctx);
    expect(requests.map((r) => r.query.offset)).toEqual(["0", "100"]);
    expect(spill).toHaveLength(120);
    expect(spill[0]).toEqual(["s0", "co_1"]);
  });

  test("a bad id, event type or date range is refused before any request; no events is the header row alone", async () => {
    const { ctx, requests } = testSession(() => listResponse([]));
    await expect(HISTORY.run(["0001"], null, ctx)).rejects.toThrow(/not a property id/);
    await expect(HISTORY.run(["cp_0001"], "event_type=renovation", ctx)).rejects.toThrow(/"renovation" is not one of built, sale/);
    await expect(HISTORY.run(["cp_0001"], "from=2024-01-01; to=2023-01-01", ctx)).rejects.toThrow(
      /from \(2024-01-01\) is above to \(2023-01-01\): nothing can match/,
    );
    await expect(HISTORY.run(["cp_0001"], "cols=price,buyer", ctx)).rejects.toThrow(/buyer is not a field/);
    expect(requests).toHaveLength(0);
    // No events is a header row alone (an empty list), not an error.
    expect(await HISTORY.run(["cp_0001"], "cols=date,event_type", ctx)).toEqual([["date", "event_type"]]);
    await expect(HISTORY.run(["cp_0001"], "cols=date; headers=false", ctx)).resolves.toEqual([
      [expect.stringMatching(/^No events for property_id=cp_0001/)],
    ]);
  });
});

test("a formula-edit preview of a series makes no request, but waits for one already on its way", async () => {
  const { session, ctx, requests } = testSession(seriesService);
  const preview = { ...ctx, preview: true };
  await expect(marketHistory("TX", "industrial", "vacancy_rate", null, null, null, preview)).rejects.toMatchObject({
    code: "preview_not_fetched",
  });
  expect(requests).toHaveLength(0);
  const [cell, previewed] = await Promise.all([
    marketHistory("TX", "industrial", "sales_volume", null, null, null, ctx),
    marketHistory("TX", "industrial", "sales_volume", null, null, null, preview),
  ]);
  expect(previewed).toEqual(cell);
  expect(requests).toHaveLength(1);
  expect(session.marketHistory.requestsSent).toBe(1);
});

test("as_of pins the series: its request names the snapshot, and only cells of the same pin go together", async () => {
  const { ctx, requests } = testSession(seriesService);
  await Promise.all([
    marketHistory("TX", "industrial", "vacancy_rate", null, null, "as_of=2026-10-01", ctx),
    marketHistory("TX", "industrial", "sales_volume", null, null, "as_of=2026-10-01", ctx),
    marketHistory("TX", "industrial", "sales_volume", null, null, null, ctx),
  ]);
  expect(requests.map((r) => r.query).sort((a, b) => String(a.as_of).localeCompare(String(b.as_of)))).toEqual([
    { geography: "TX", asset_type: "industrial", metrics: "vacancy_rate,sales_volume", as_of: "2026-10-01" },
    { geography: "TX", asset_type: "industrial", metrics: "sales_volume" },
  ]);
  await expect(marketHistory("TX", "industrial", "vacancy_rate", null, null, "as_of=yesterday", ctx)).rejects.toThrow(
    /as_of "yesterday" is not a date; write a date \(YYYY-MM-DD.*or a snapshot id/,
  );
});

describe("missing=na, for charts", () => {
  beforeAll(() => {
    (globalThis as Record<string, unknown>).CustomFunctions = customFunctionsStandIn();
  });
  afterAll(() => {
    delete (globalThis as Record<string, unknown>).CustomFunctions;
  });

  test("a period without a value is #N/A in its own cell (a gap in a chart), empty text without the option", async () => {
    const { ctx, session } = testSession(seriesService);
    const blank = await marketHistory("TX", "industrial", "vacancy_rate,sales_count", null, null, "partial=true", ctx);
    const col = blank[0].indexOf("sales_count");
    expect(blank.slice(1).map((row) => row[col])).toEqual(["", ""]);
    const marked = await marketHistory("TX", "industrial", "vacancy_rate,sales_count", null, null, "partial=true; missing=na", ctx);
    expect(marked.slice(1).map((row) => row[col])).toEqual([MISSING, MISSING]);
    // At the edge Excel gets the #N/A error in those cells, the values beside them untouched.
    const shown = (await withExcelErrors(
      undefined,
      (c) => marketHistory("TX", "industrial", "vacancy_rate,sales_count", null, null, "partial=true; missing=na", c),
      session,
    )) as unknown[][];
    const cell = shown[1][col] as CustomFunctions.Error;
    expect(cell).toBeInstanceOf(CustomFunctions.Error);
    expect(cell.code).toBe(CustomFunctions.ErrorCode.notAvailable);
    expect(cell.message).toMatch(/^No value in the snapshot/);
    expect(shown[1][col - 1]).toEqual(marked[1][col - 1]);
    expect(shown[0]).toEqual(blank[0]);
  });
});
