// The add-in reads every date input with the one date grammar, held to the shared table the
// service's tests read: a fixed form becomes the day it stands for before any request, a
// relative form is checked and sent in its canonical spelling for the service to resolve (to
// the same day), and every other input is #VALUE! naming the forms, before any request.
import { DATE_FORMS, resolveDate } from "../../src/contract/dates";
import { ENDPOINTS } from "../../src/shared/endpoints";
import { InputError } from "../../src/functions/excel-errors";
import { periodBoundArg } from "../../src/functions/history-periods";
import { parseOptions } from "../../src/functions/options";
import { checkParam } from "../../src/functions/param-values";
import { parsePin } from "../../src/functions/snapshot-pin";
import { marketHistory } from "../../src/functions/market-history";
import { HISTORY } from "../../src/functions/property-history";
import { SALECOMPS } from "../../src/functions/sale-comps";
import { jsonResponse } from "./office-stand-ins";
import { listResponse, testSession } from "./session-factory";
import { DATE_FORMS_TABLE, FORMS_CAPTURE, REFUSED_DATES } from "../contract/date-forms";

const input = (op: keyof typeof ENDPOINTS, name: string) => ENDPOINTS[op].query.find((q) => q.name === name)!;
const COMPS = ENDPOINTS.findSaleComps.query;
const BOUNDS = {
  start: [input("findSaleComps", "min_sale_date"), input("getMarketHistory", "from"), input("getPropertyHistory", "from")],
  end: [input("findSaleComps", "max_sale_date"), input("getMarketHistory", "to"), input("getPropertyHistory", "to")],
};

describe.each(DATE_FORMS_TABLE.map((f) => [f.input, f.bound, f.date, f] as const))("%p as a %s bound (%s)", (typed, bound, date, form) => {
  // What the add-in sends: the day itself, or the relative form the service resolves to that day.
  const sent = form.relative ?? date;

  test("every date input of that bound sends it, as an argument or in options", () => {
    for (const spec of BOUNDS[bound]) {
      expect({ name: spec.name, sent: checkParam(spec, typed) }).toEqual({ name: spec.name, sent });
      expect(parseOptions(`${spec.name}=${typed}`, [spec]).get(spec.name)).toBe(sent);
    }
    expect(periodBoundArg(typed, bound === "start" ? "from" : "to")).toBe(sent);
    expect(resolveDate(sent, bound, FORMS_CAPTURE)).toBe(date);
  });

  if (bound === "end") {
    test(form.relative ? "as_of refuses it: a relative date would move with every snapshot" : "as_of pins that day", () => {
      if (form.relative) expect(() => parsePin(String(typed))).toThrow(/would move with every snapshot/);
      else expect(parsePin(String(typed))).toEqual({ as_of: date });
    });
  }
});

test("a year in a date option is the year: min_sale_date=2026 sends 2026-01-01, not 1905-07-18", () => {
  expect(Object.fromEntries(parseOptions("min_sale_date=2026; max_sale_date=2026", COMPS))).toEqual({
    min_sale_date: "2026-01-01",
    max_sale_date: "2026-12-31",
  });
});

test("as_of=46023 (a date cell's number) is 2026-01-01, as min_sale_date=46023 is", () => {
  expect(parsePin("46023")).toEqual({ as_of: "2026-01-01" });
  expect(checkParam(input("findSaleComps", "min_sale_date"), 46023)).toBe("2026-01-01");
});

describe.each(REFUSED_DATES.map((r) => [r]))("%p", (typed) => {
  test("is #VALUE! naming the forms, in every date input", () => {
    for (const spec of [...BOUNDS.start, ...BOUNDS.end]) {
      expect(() => checkParam(spec, typed)).toThrow(InputError);
      expect(() => checkParam(spec, typed)).toThrow(DATE_FORMS);
    }
    expect(() => periodBoundArg(typed, "from")).toThrow(DATE_FORMS);
    expect(() => parsePin(String(typed))).toThrow(InputError);
  });
});

describe("what the functions send", () => {
  const answer = (path: string) =>
    path.endsWith("/markets/history")
      ? jsonResponse({ object: "market_history", asset_type: "industrial", geography_name: "Texas", interval: "quarter", periods: [] })
      : listResponse([]);

  test('SALECOMPS("TX","industrial","min_sale_date=2026") asks for sales from 2026-01-01', async () => {
    const { ctx, requests } = testSession((r) => answer(r.path));
    await SALECOMPS.run(["TX", "industrial"], "min_sale_date=2026; max_sale_date=2026-Q2", ctx).catch(() => undefined);
    expect(requests.map((r) => [r.query.min_sale_date, r.query.max_sale_date])).toEqual([["2026-01-01", "2026-06-30"]]);
  });

  test('HISTORY(id,"from=2020; to=46023") asks for events from 2020-01-01 to 2026-01-01', async () => {
    const { ctx, requests } = testSession((r) => answer(r.path));
    await HISTORY.run(["cp_1"], "from=2020; to=46023", ctx).catch(() => undefined);
    expect(requests.map((r) => [r.query.from, r.query.to])).toEqual([["2020-01-01", "2026-01-01"]]);
  });

  test("MARKETHISTORY(..., -8Q, LQ) sends the relative forms for the service to count from its capture date; as_of=2026 pins 2026-12-31", async () => {
    const { ctx, requests } = testSession((r) => answer(r.path));
    await marketHistory("TX", "industrial", "vacancy_rate", "-8q", "lq", "as_of=2026", ctx).catch(() => undefined);
    expect(requests.map((r) => [r.query.from, r.query.to, r.query.as_of])).toEqual([["-8Q", "LQ", "2026-12-31"]]);
  });

  test("a relative from with a fixed to is left to the service to compare; two fixed ones out of order are refused before any request", async () => {
    const { ctx, requests } = testSession((r) => answer(r.path));
    await expect(marketHistory("TX", "industrial", null, "2026", "2025-Q4", null, ctx)).rejects.toThrow(/from \(2026-01-01\) is after to/);
    await expect(SALECOMPS.run(["TX", "industrial"], "min_sale_date=2026; max_sale_date=2025", ctx)).rejects.toThrow(InputError);
    expect(requests).toHaveLength(0);
    await marketHistory("TX", "industrial", null, "LQ", "2016", null, ctx).catch(() => undefined);
    expect(requests).toHaveLength(1);
  });
});
