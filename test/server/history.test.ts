// The history routes over the test snapshot: a market's series by quarter and by year, its
// refusals (free) and its cost; a property's events, their owners, filters, paging and cost.
import { DEFAULT_WINDOW_QUARTERS, MARKET_HISTORY_METRIC_NAMES } from "../../src/contract/history";
import { THIN_MARKET_PROPERTIES } from "../../src/contract/market-sample";
import { monthsBefore } from "../../src/snapshot/derive/windows";
import { parseQuarter } from "../../src/contract/periods";
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pick, snapshotPath, startService, type TestService } from "../helpers/service";
import { loadHistoryFigures } from "../helpers/history-figures";
import {
  decodeHistory,
  HistoryEncoder,
  STORED_HISTORY_COLUMNS,
  type SeriesFigures,
  type StoredHistory,
} from "../../src/snapshot/history-codec";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

let opened: Database.Database | undefined;
/** The test snapshot, read directly, to check answers against its rows. */
const snapshotDb = () => {
  if (!opened) {
    opened = new Database(snapshotPath(), { readonly: true });
    loadHistoryFigures(opened);
  }
  return opened;
};
afterAll(() => opened?.close());

const history = (query: string) => svc.get(`/v1/commercial/markets/history?${query}`);

describe("market history", () => {
  test("by default: the last 40 quarters of rent, vacancy and cap rate, the last one today's market snapshot, for 2 credits", async () => {
    const res = await history("geography=TX&asset_type=office");
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-credits-charged"]).toBe("2");
    const body = res.json();
    const market = (await svc.get("/v1/commercial/markets/snapshot?geography=TX&asset_type=office")).json();
    expect(body).toMatchObject({
      object: "market_history",
      market_id: "mkt_TX_office",
      geography_type: "state",
      geography_id: "TX",
      geography_name: "Texas",
      state_code: "TX",
      asset_type: "office",
      interval: "quarter",
      metrics: ["asking_rent_sqft_year", "vacancy_rate", "median_cap_rate"],
      units: { asking_rent_sqft_year: "usd_per_sqft_year", vacancy_rate: "fraction", median_cap_rate: "fraction" },
    });
    expect(body.snapshot.id).toMatch(/^snap_/);
    expect(body.periods).toHaveLength(DEFAULT_WINDOW_QUARTERS);
    expect(body.periods[0]).toMatchObject({ period: "2017-Q1", period_start: "2017-01-01", period_end: "2017-03-31", complete: true });
    const now = body.periods[DEFAULT_WINDOW_QUARTERS - 1];
    expect(now).toMatchObject({ period: "2026-Q4", period_start: "2026-10-01", period_end: "2026-11-01", complete: false });
    expect(now.values).toEqual({
      asking_rent_sqft_year: market.asking_rent_sqft_year,
      vacancy_rate: market.vacancy_rate,
      median_cap_rate: market.median_cap_rate,
    });
    // Quarters in order, each the next.
    const labels = body.periods.map((p: { period: string }) => p.period);
    expect(new Set(labels).size).toBe(DEFAULT_WINDOW_QUARTERS);
    expect([...labels].sort()).toEqual(labels);
  });

  test("metrics in the order asked; from and to pick the quarters that overlap them", async () => {
    const body = (
      await history(
        "geography=TX&asset_type=multifamily&metrics=sales_count,inventory_units,asking_rent_unit_month&from=2020-02-15&to=2021-01-01",
      )
    ).json();
    expect(body.metrics).toEqual(["sales_count", "inventory_units", "asking_rent_unit_month"]);
    expect(Object.keys(body.periods[0].values)).toEqual(["sales_count", "inventory_units", "asking_rent_unit_month"]);
    expect(body.periods.map((p: { period: string }) => p.period)).toEqual(["2020-Q1", "2020-Q2", "2020-Q3", "2020-Q4", "2021-Q1"]);
    expect(body.units).toEqual({ sales_count: "count", inventory_units: "units", asking_rent_unit_month: "usd_per_unit_month" });
  });

  test("by year: flows summed over the quarters, stocks and medians the last quarter's, this year to date", async () => {
    const all = MARKET_HISTORY_METRIC_NAMES.join(",");
    const quarters = (await history(`geography=TX&asset_type=industrial&metrics=${all}&from=2017-01-01`)).json().periods;
    const years = (await history(`geography=TX&asset_type=industrial&metrics=${all}&interval=year&from=2017-01-01`)).json();
    expect(years.interval).toBe("year");
    expect(years.periods.map((p: { period: string }) => p.period)).toEqual([
      "2017",
      "2018",
      "2019",
      "2020",
      "2021",
      "2022",
      "2023",
      "2024",
      "2025",
      "2026",
    ]);
    for (const y of years.periods) {
      const qs = quarters.filter((q: { period: string }) => q.period.startsWith(`${y.period}-`));
      expect(qs).toHaveLength(4);
      const lastQ = qs[qs.length - 1];
      for (const m of ["sales_count", "sales_volume", "deliveries_sqft", "net_absorption_sqft"])
        expect([y.period, m, y.values[m]]).toEqual([y.period, m, qs.reduce((s: number, q: any) => s + q.values[m], 0)]);
      for (const m of ["asking_rent_sqft_year", "vacancy_rate", "inventory_sqft", "median_cap_rate", "median_price_per_sqft"])
        expect([y.period, m, y.values[m]]).toEqual([y.period, m, lastQ.values[m]]);
      expect(y.complete).toBe(y.period !== "2026");
      expect(y.period_end).toBe(y.period === "2026" ? "2026-11-01" : `${y.period}-12-31`);
    }
    // Sales counted in a year are the sales table's for that year (to the capture date in the last).
    const n = pick(
      svc,
      "SELECT COUNT(*) AS n FROM sales WHERE state_code = 'TX' AND asset_type = 'industrial' AND sale_date BETWEEN '2021-01-01' AND '2021-12-31'",
    ).n;
    expect(years.periods.find((p: { period: string }) => p.period === "2021").values.sales_count).toBe(n);
  });

  test('the whole country ("US", "United States") has a series: the national market\'s, its last period the national snapshot', async () => {
    const series = (await history("geography=US&asset_type=industrial")).json();
    expect(series).toMatchObject({
      market_id: "mkt_US_industrial",
      geography_type: "national",
      geography_id: "US",
      geography_name: "United States",
      state_code: null,
    });
    expect(series.periods).toHaveLength(DEFAULT_WINDOW_QUARTERS);
    const industrial = pick(svc, "SELECT count(*) AS n FROM properties WHERE asset_type = 'industrial'").n as number;
    expect(series.periods[series.periods.length - 1].property_count).toBe(industrial);
    const named = (await history(`geography=${encodeURIComponent("United States")}&asset_type=industrial`)).json();
    expect(named.periods).toEqual(series.periods);
    // The nation's stock is every state's: at each quarter held, the sum of the state markets' inventory.
    const sums = snapshotDb()
      .prepare(
        `SELECT f.quarter, sum(CASE WHEN m.geography_type = 'state' THEN f.inventory_sqft END) AS states,
           sum(CASE WHEN m.geography_type = 'national' THEN f.inventory_sqft END) AS nation, count(*) AS markets
         FROM market_history_figures f JOIN markets m ON m.rowid = f.market
         WHERE m.asset_type = 'industrial' AND m.geography_type IN ('state', 'national') GROUP BY f.quarter`,
      )
      .all() as { quarter: number; states: number; nation: number; markets: number }[];
    expect(sums.length).toBeGreaterThan(DEFAULT_WINDOW_QUARTERS);
    // Each market's figure is rounded to the square foot: they differ by at most that rounding.
    for (const q of sums) expect(Math.abs(q.nation - q.states)).toBeLessThanOrEqual(q.markets);
    const stock = (await history("geography=US&asset_type=industrial&metrics=inventory_sqft")).json();
    const atFirst = sums.find((q) => q.quarter === parseQuarter(stock.periods[0].period))!;
    expect(stock.periods[0].values.inventory_sqft).toBe(atFirst.nation);
  });

  test("a metro and a ZIP code answer too", async () => {
    const m = pick(
      svc,
      "SELECT geography_type, geography_id, geography_name, asset_type FROM markets WHERE geography_type = 'zip' ORDER BY property_count DESC LIMIT 1",
    );
    const body = (await history(`geography=${m.geography_id}&asset_type=${m.asset_type}`)).json();
    expect(body.geography_type).toBe("zip");
    expect(body.periods).toHaveLength(DEFAULT_WINDOW_QUARTERS);
    const metro = pick(svc, "SELECT geography_name FROM markets WHERE geography_type = 'metro' ORDER BY property_count DESC LIMIT 1");
    const res = await history(`geography=${encodeURIComponent(metro.geography_name)}&asset_type=retail`);
    expect([res.statusCode, res.json().geography_type]).toEqual([200, "metro"]);
  });

  test("refused free: unknown or repeated metrics, from after to, dates outside the history, unknown places", async () => {
    const unknown = await history("geography=TX&asset_type=office&metrics=vacancy_rate,rent_index");
    expect([unknown.statusCode, unknown.headers["x-credits-charged"], unknown.json().code]).toEqual([400, "0", "validation_failed"]);
    expect(unknown.json().detail).toContain("'rent_index'");
    for (const m of MARKET_HISTORY_METRIC_NAMES) expect(unknown.json().detail).toContain(m);
    expect(unknown.json().errors[0].parameter).toBe("metrics");
    const twice = await history("geography=TX&asset_type=office&metrics=vacancy_rate,vacancy_rate");
    expect([twice.statusCode, twice.headers["x-credits-charged"]]).toEqual([400, "0"]);
    const backwards = await history("geography=TX&asset_type=office&from=2024-01-01&to=2023-01-01");
    expect([backwards.statusCode, backwards.headers["x-credits-charged"], backwards.json().code]).toEqual([400, "0", "validation_failed"]);
    const future = await history("geography=TX&asset_type=office&from=2027-01-01");
    expect([future.statusCode, future.headers["x-credits-charged"]]).toEqual([400, "0"]);
    const ancient = await history("geography=TX&asset_type=office&to=1999-01-01");
    expect([ancient.statusCode, ancient.headers["x-credits-charged"]]).toEqual([400, "0"]);
    const nowhere = await history("geography=Atlantis, ZZ&asset_type=office");
    expect([nowhere.statusCode, nowhere.headers["x-credits-charged"]]).toEqual([400, "0"]);
    const interval = await history("geography=TX&asset_type=office&interval=month");
    expect([interval.statusCode, interval.headers["x-credits-charged"]]).toEqual([400, "0"]);
    expect((await history("asset_type=office")).statusCode).toBe(400);
  });

  test("a market the snapshot does not hold is 404, free", async () => {
    const zip = pick(
      svc,
      "SELECT geography_id FROM markets WHERE geography_type = 'zip' GROUP BY geography_id HAVING SUM(asset_type = 'land') = 0 LIMIT 1",
    );
    const res = await history(`geography=${zip.geography_id}&asset_type=land`);
    expect([res.statusCode, res.headers["x-credits-charged"]]).toEqual([404, "0"]);
  });

  test("to beyond the capture date ends at it; from before the history starts at its first quarter, and coverage says so", async () => {
    const res = await history("geography=TX&asset_type=office&from=2001-01-01&to=2030-01-01");
    const body = res.json();
    expect(body.periods[0].period).toBe("2006-Q1");
    expect(body.periods[body.periods.length - 1].period).toBe("2026-Q4");
    expect(body.coverage).toEqual({ requested_from: "2001-01-01", first_held: "2006-01-01", from_before_history: true });
    // One price per series, however many periods it holds.
    expect(res.headers["x-credits-charged"]).toBe("2");
    const held = (await history("geography=TX&asset_type=office&from=2006-01-01")).json();
    expect(held.coverage).toEqual({ requested_from: "2006-01-01", first_held: "2006-01-01", from_before_history: false });
    expect((await history("geography=TX&asset_type=office")).json().coverage).toMatchObject({
      requested_from: null,
      from_before_history: false,
    });
  });

  test("the history reaches back through 2006: 84 quarters, the 2008-2010 downturn in the series", async () => {
    const body = (await history("geography=TX&asset_type=office&from=2006-01-01&metrics=vacancy_rate,asking_rent_sqft_year")).json();
    expect(body.periods).toHaveLength(84);
    const at = (label: string) => body.periods.find((p: { period: string }) => p.period === label).values;
    expect(at("2009-Q4").vacancy_rate).toBeGreaterThan(at("2008-Q2").vacancy_rate);
    expect(at("2009-Q4").asking_rent_sqft_year).toBeLessThan(at("2008-Q2").asking_rent_sqft_year);
  });

  test("the period holding the capture date is partial: complete false, its end the capture date, by quarter and by year", async () => {
    const quarters = (await history("geography=TX&asset_type=industrial&from=2026-01-01")).json().periods;
    expect(quarters.map((p: { complete: boolean }) => p.complete)).toEqual([true, true, true, false]);
    expect(quarters[3]).toMatchObject({ period: "2026-Q4", period_end: "2026-11-01" });
    const years = (await history("geography=TX&asset_type=industrial&from=2025-01-01&interval=year")).json().periods;
    expect(years.map((p: { period: string; complete: boolean; period_end: string }) => [p.period, p.complete, p.period_end])).toEqual([
      ["2025", true, "2025-12-31"],
      ["2026", false, "2026-11-01"],
    ]);
  });

  test("every period carries the properties behind it, and thin when they are fewer than the threshold", async () => {
    const market = (await svc.get("/v1/commercial/markets/snapshot?geography=TX&asset_type=industrial")).json();
    const body = (await history("geography=TX&asset_type=industrial&from=2006-01-01&metrics=property_count")).json();
    const last = body.periods[body.periods.length - 1];
    expect(last.property_count).toBe(market.property_count);
    for (const p of body.periods) {
      expect(p.values.property_count).toBe(p.property_count);
      expect(p.thin).toBe(p.property_count < THIN_MARKET_PROPERTIES);
    }
    expect(body.periods[0].property_count).toBeLessThan(last.property_count);
    const years = (await history("geography=TX&asset_type=industrial&from=2010-01-01&interval=year&metrics=property_count")).json();
    // A year's count is its last quarter's.
    const q2010 = body.periods.find((p: { period: string }) => p.period === "2010-Q4");
    expect(years.periods[0]).toMatchObject({ period: "2010", property_count: q2010.property_count });
    // A market of one property is thin in every period.
    const one = snapshotDb()
      .prepare("SELECT geography_id, asset_type FROM markets WHERE geography_type = 'zip' AND property_count = 1 LIMIT 1")
      .get() as {
      geography_id: string;
      asset_type: string;
    };
    const thin = (await history(`geography=${one.geography_id}&asset_type=${one.asset_type}`)).json().periods;
    expect(thin.length).toBeGreaterThan(0);
    expect(thin.every((p: { thin: boolean; property_count: number }) => p.thin && p.property_count <= 1)).toBe(true);
  });

  test("trailing-12-month sales are the 12 months to the capture date, the last four quarters the calendar quarters: each as documented", async () => {
    const market = (await svc.get("/v1/commercial/markets/snapshot?geography=TX&asset_type=industrial")).json();
    const periods = (await history("geography=TX&asset_type=industrial&metrics=sales_count,sales_volume&from=2025-10-01")).json().periods;
    const lastFour = periods.slice(-4);
    expect(lastFour.map((p: { period: string }) => p.period)).toEqual(["2026-Q1", "2026-Q2", "2026-Q3", "2026-Q4"]);
    const sum = (m: string) => lastFour.reduce((a: number, p: { values: Record<string, number> }) => a + p.values[m], 0);
    const count = (from: string, inclusive: boolean) =>
      snapshotDb()
        .prepare(
          `SELECT COUNT(*) AS n, COALESCE(SUM(sale_price), 0) AS vol FROM sales
           WHERE state_code = 'TX' AND asset_type = 'industrial' AND sale_date ${inclusive ? ">=" : ">"} ? AND sale_date <= '2026-11-01'`,
        )
        .get(from) as { n: number; vol: number };
    const quarters = count("2026-01-01", true);
    const trailing = count(monthsBefore("2026-11-01", 12), false);
    expect([sum("sales_count"), sum("sales_volume")]).toEqual([quarters.n, Math.round(quarters.vol)]);
    expect([market.sales_count_12m, market.sales_volume_12m]).toEqual([trailing.n, Math.round(trailing.vol)]);
  });
});

describe("property history", () => {
  const events = (id: string, query = "") => svc.get(`/v1/commercial/properties/${id}/history${query}`);

  test("built, each sale with the buyer as owner after it, each lease's start and end; oldest first; 1 credit", async () => {
    const p = pick(
      svc,
      `SELECT p.id, p.year_built, p.owner_id FROM properties p WHERE p.year_built IS NOT NULL
       AND (SELECT COUNT(*) FROM sales s WHERE s.property_id = p.id) >= 2 AND (SELECT COUNT(*) FROM tenancies t WHERE t.property_id = p.id) >= 2 LIMIT 1`,
    );
    const res = await events(p.id, "?limit=100");
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-credits-charged"]).toBe("1");
    const body = res.json();
    const sales = svc.snapshot.prepare("SELECT * FROM sales WHERE property_id = ? ORDER BY sale_date").all(p.id) as any[];
    const leases = svc.snapshot.prepare("SELECT * FROM tenancies WHERE property_id = ?").all(p.id) as any[];
    expect(body.total_count).toBe(1 + sales.length + 2 * leases.length);
    const data = body.data as any[];
    expect(data.map((e) => e.date)).toEqual([...data.map((e) => e.date)].sort());
    expect(data[0]).toMatchObject({
      event_type: "built",
      id: `built_${p.id}`,
      record_id: null,
      object: "property_event",
      property_id: p.id,
    });
    expect(data[0].date.slice(0, 4)).toBe(String(p.year_built));
    const saleEvents = data.filter((e) => e.event_type === "sale");
    expect(saleEvents.map((e) => [e.record_id, e.owner_id, e.counterparty_id, e.price])).toEqual(
      sales.map((s) => [s.id, s.buyer_id, s.seller_id, s.sale_price]),
    );
    expect(saleEvents[saleEvents.length - 1].owner_id).toBe(p.owner_id);
    expect(saleEvents[0].description).toBe(
      `Sold by ${sales[0].seller_name} to ${sales[0].buyer_name} for $${sales[0].sale_price.toLocaleString("en-US")}`,
    );
    // A lease after the last sale is under the current owner.
    const late = data.find((e) => e.event_type === "lease_start" && e.date >= sales[sales.length - 1].sale_date);
    if (late) expect(late.owner_id).toBe(p.owner_id);
    const starts = data.filter((e) => e.event_type === "lease_start");
    expect(starts).toHaveLength(leases.length);
    expect(new Set(starts.map((e) => e.counterparty_id))).toEqual(new Set(leases.map((l) => l.tenant_id)));
  });

  test("filters and paging", async () => {
    const p = pick(svc, "SELECT property_id AS id FROM tenancies GROUP BY property_id HAVING COUNT(*) >= 3 LIMIT 1");
    const only = (await events(p.id, "?event_type=lease_expiration,sale")).json();
    expect(new Set(only.data.map((e: any) => e.event_type))).not.toContain("lease_start");
    const page = (await events(p.id, "?event_type=lease_start&limit=2&offset=1")).json();
    expect(page.data).toHaveLength(2);
    expect(page.offset).toBe(1);
    const dated = (await events(p.id, "?from=2020-01-01&to=2024-12-31")).json();
    for (const e of dated.data) expect(e.date >= "2020-01-01" && e.date <= "2024-12-31").toBe(true);
  });

  test("an unknown property is 404 and an unknown event type or backwards dates 400, all free", async () => {
    const missing = await events("cp_missing");
    expect([missing.statusCode, missing.headers["x-credits-charged"], missing.json().code]).toEqual([404, "0", "not_found"]);
    const p = pick(svc, "SELECT id FROM properties LIMIT 1");
    const bad = await events(p.id, "?event_type=sale,renovation");
    expect([bad.statusCode, bad.headers["x-credits-charged"]]).toEqual([400, "0"]);
    expect(bad.json().detail).toContain("'renovation'");
    const backwards = await events(p.id, "?from=2024-01-01&to=2020-01-01");
    expect([backwards.statusCode, backwards.headers["x-credits-charged"]]).toEqual([400, "0"]);
  });
});

describe("market history over a history longer than the default window", () => {
  // The test snapshot with eight more quarters of history before its first (copies of its first
  // eight, 2004-Q1 to 2005-Q4), and one market (TX industrial) whose history is gone.
  let dir: string;
  let longer: TestService;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "propintel-history-"));
    const file = path.join(dir, "longer.db");
    fs.copyFileSync(snapshotPath(), file);
    const db = new Database(file);
    // Every market's first row (the span's first year) gains copies of its first eight quarters in front.
    const rows = db
      .prepare(`SELECT ${STORED_HISTORY_COLUMNS} FROM market_history WHERE first_quarter = (SELECT MIN(first_quarter) FROM market_history)`)
      .all() as StoredHistory[];
    const update = db.prepare(
      "UPDATE market_history SET first_quarter = ?, quarters = ?, figures = ? WHERE market = ? AND first_quarter = ?",
    );
    db.transaction(() => {
      for (const row of rows) {
        const figures = decodeHistory(row.figures, row.quarters);
        const series = Object.fromEntries(MARKET_HISTORY_METRIC_NAMES.map((m, c) => [m, [...figures[c].slice(0, 8), ...figures[c]]]));
        const encoded = new HistoryEncoder(row.quarters + 8).encode(series as unknown as SeriesFigures);
        update.run(row.first_quarter - 8, row.quarters + 8, encoded, row.market, row.first_quarter);
      }
    })();
    db.prepare(
      "UPDATE snapshot_meta SET value = json_set(value, '$.history.first_period', '2004-Q1', '$.history.quarters', 92) WHERE key = 'coverage'",
    ).run();
    db.prepare("DELETE FROM market_history WHERE market = (SELECT rowid FROM markets WHERE id = 'mkt_TX_industrial')").run();
    db.close();
    longer = await startService({ snapshotFile: file });
  });
  afterAll(async () => {
    await longer.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const labels = (body: { periods: { period: string }[] }) => body.periods.map((p) => p.period);

  test("with `to` and no `from`, the series is the quarters up to `to` (at most 40), charged", async () => {
    const res = await longer.get("/v1/commercial/markets/history?geography=TX&asset_type=office&to=2005-06-30");
    expect(res.statusCode).toBe(200);
    expect(labels(res.json())).toEqual(["2004-Q1", "2004-Q2", "2004-Q3", "2004-Q4", "2005-Q1", "2005-Q2"]);
    expect(res.headers["x-credits-charged"]).toBe("2");
    const late = (await longer.get("/v1/commercial/markets/history?geography=TX&asset_type=office&to=2026-06-30")).json();
    expect(labels(late)).toHaveLength(DEFAULT_WINDOW_QUARTERS);
    expect(labels(late)[DEFAULT_WINDOW_QUARTERS - 1]).toBe("2026-Q2");
  });

  test("without `to`, the default is still the last 40 quarters to the capture date", async () => {
    const body = (await longer.get("/v1/commercial/markets/history?geography=TX&asset_type=office")).json();
    expect(labels(body)).toHaveLength(DEFAULT_WINDOW_QUARTERS);
    expect(labels(body)[0]).toBe("2017-Q1");
  });

  test("a series with no period (a market without history) carries no data and is free", async () => {
    const res = await longer.get("/v1/commercial/markets/history?geography=TX&asset_type=industrial");
    expect(res.statusCode).toBe(200);
    expect(res.json().periods).toEqual([]);
    expect(res.headers["x-credits-charged"]).toBe("0");
  });
});
