// Every date query parameter read with the one date grammar, over HTTP: the shared table's
// inputs stand for the same days here as in the add-in (relative forms counted from the
// capture date of the snapshot answering), as_of takes the fixed forms, and every refusal is
// free and names the forms accepted.
import { DATE_FORMS } from "../../src/contract/dates";
import { pick, startService, type TestService } from "../helpers/service";
import { DATE_FORMS_TABLE, FORMS_CAPTURE, REFUSED_DATES } from "../contract/date-forms";

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.app.close());

// Each test calls with a key of its own, so the many calls of the table stay within a key's rate limit.
let key = "";
let accounts = 0;
beforeEach(async () => {
  const account = await svc.accounts.create(`dates-${++accounts}@example.com`);
  key = (await svc.keys.createKey(account.id, "dates")).raw;
});
const get = (url: string) => svc.get(url, { authorization: `Bearer ${key}` });
const comps = (query: Record<string, string | number>) =>
  get(`/v1/commercial/sale-comps?${new URLSearchParams(Object.entries({ state_code: "TX", ...query }).map(([k, v]) => [k, String(v)]))}`);

/** The day before or after a YYYY-MM-DD date. */
function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

test("the test snapshot was captured on the day the table's relative forms count from", async () => {
  const coverage = (await get("/v1/commercial/coverage")).json();
  expect(coverage.snapshot.captured_at.slice(0, 10)).toBe(FORMS_CAPTURE);
});

// A range refusal echoes both bounds as resolved, so it shows the day each input stood for.
test.each(DATE_FORMS_TABLE.map((f) => [f.input, f.bound, f.date] as const))(
  "%p sent as a %s bound (min_sale_date or max_sale_date) stands for %s",
  async (input, bound, date) => {
    const query =
      bound === "start"
        ? { min_sale_date: input, max_sale_date: shift(date, -1) }
        : { min_sale_date: shift(date, 1), max_sale_date: input };
    const res = await comps(query);
    const [low, high] = bound === "start" ? [date, shift(date, -1)] : [shift(date, 1), date];
    expect([res.statusCode, res.headers["x-credits-charged"], res.json().detail]).toEqual([
      400,
      "0",
      `min_sale_date (${low}) is above max_sale_date (${high}): nothing can match.`,
    ]);
  },
);

test("min_sale_date=2026 answers the sales from 2026-01-01, as min_sale_date=2026-01-01 does", async () => {
  const year = await comps({ min_sale_date: 2026, limit: 100 });
  const day = await comps({ min_sale_date: "2026-01-01", limit: 100 });
  expect(year.statusCode).toBe(200);
  const body = year.json();
  expect(body.total ?? body.data.length).toBe(day.json().total ?? day.json().data.length);
  expect(body.data.length).toBeGreaterThan(0);
  expect(body.data.every((c: { sale_date: string }) => c.sale_date >= "2026-01-01")).toBe(true);
});

test("market history from=2018 to=LQ: the quarters of 2018 through the last complete quarter", async () => {
  const res = await get("/v1/commercial/markets/history?geography=TX&asset_type=office&from=2018&to=LQ");
  expect(res.statusCode).toBe(200);
  const periods = res.json().periods.map((p: { period: string }) => p.period);
  expect([periods[0], periods.at(-1)]).toEqual(["2018-Q1", "2026-Q3"]);
});

test("property history from=2020 (a year typed as a number) keeps the events from 2020-01-01 on", async () => {
  const { property_id } = pick<{ property_id: string }>(
    svc,
    "SELECT property_id FROM sales GROUP BY property_id HAVING min(sale_date) < '2020-01-01' AND max(sale_date) >= '2020-01-01' LIMIT 1",
  );
  const all = (await get(`/v1/commercial/properties/${property_id}/history`)).json().data as { date: string }[];
  const res = await get(`/v1/commercial/properties/${property_id}/history?from=2020`);
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toEqual(all.filter((e) => e.date >= "2020-01-01"));
});

describe("as_of", () => {
  test("a date cell's serial (46023) is a date: the newest snapshot captured on or before 2026-01-01, none here (404, free)", async () => {
    const res = await comps({ as_of: 46023 });
    expect([res.statusCode, res.headers["x-credits-charged"], res.json().code]).toEqual([404, "0", "snapshot_not_found"]);
    expect(res.json().detail).toContain("on or before 2026-01-01");
  });

  test("a year, quarter or month stands for its last day", async () => {
    expect((await comps({ as_of: 2026 })).statusCode).toBe(200);
    expect((await comps({ as_of: "2026-11" })).statusCode).toBe(200);
    expect((await comps({ as_of: "2026-Q4" })).statusCode).toBe(200);
    const q3 = await comps({ as_of: "2026-Q3" });
    expect([q3.statusCode, q3.json().detail]).toEqual([404, expect.stringContaining("on or before 2026-09-30")]);
  });

  test.each([["LQ"], ["-1Q"], ["YTD"]])("relative %s is refused (free): it would move with every snapshot", async (input) => {
    const res = await comps({ as_of: input });
    expect([res.statusCode, res.headers["x-credits-charged"], res.json().code]).toEqual([400, "0", "validation_failed"]);
    expect(res.json().detail).toMatch(/^as_of: .*counts from a capture date/);
  });
});

test.each(REFUSED_DATES.map((r) => [r]))("%p is refused free of charge, naming the forms accepted", async (input) => {
  for (const name of ["min_sale_date", "max_sale_date"]) {
    const res = await comps({ [name]: input });
    expect([res.statusCode, res.headers["x-credits-charged"], res.json().code]).toEqual([400, "0", "validation_failed"]);
    expect(res.json().detail).toContain(DATE_FORMS);
    expect(res.json().errors).toEqual([expect.objectContaining({ parameter: name })]);
  }
  const history = await get(`/v1/commercial/markets/history?geography=TX&asset_type=office&from=${encodeURIComponent(String(input))}`);
  expect([history.statusCode, history.headers["x-credits-charged"], history.json().detail]).toEqual([
    400,
    "0",
    expect.stringContaining(DATE_FORMS),
  ]);
});
