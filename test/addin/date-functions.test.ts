// Dates end to end: the built functions.js against the real service over the test snapshot
// (captured 2026-11-01). A year typed in a date option is the year, and a relative series
// window is counted by the service from its capture date, so the add-in and the service agree
// on every form of the date grammar.
import { ensureAddinBuild } from "./addin-build";
import { loadFunctionsBundle } from "./bundle-harness";
import { fromExcelSerial } from "../../src/functions/cell-values";
import { startService, type TestService, listenOnLoopback } from "../helpers/service";
import { FORMS_CAPTURE } from "../contract/date-forms";

let svc: TestService;
let origin: string;

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
}, 240_000);

afterAll(() => svc?.app.close());

const bundle = () => loadFunctionsBundle({ origin, apiKey: svc.key });

test('SALECOMPS("TX","industrial","min_sale_date=2026; ...") sends 2026-01-01 and spills only sales from 2026 on', async () => {
  const loaded = bundle();
  const spill = (await loaded.call("SALECOMPS", [
    "TX",
    "industrial",
    "min_sale_date=2026; limit=100; cols=sale_date; dates=text",
  ])) as unknown[][];
  expect(new URL(loaded.calls[0].url).searchParams.get("min_sale_date")).toBe("2026-01-01");
  const dates = spill.slice(1).map((r) => r[0] as string);
  expect(dates.length).toBeGreaterThan(0);
  expect(dates.every((d) => d >= "2026-01-01")).toBe(true);
});

test('MARKETHISTORY(..., "-8Q", "LQ") is the eight complete quarters before the capture date\'s, counted by the service', async () => {
  expect(FORMS_CAPTURE).toBe("2026-11-01");
  const loaded = bundle();
  const spill = (await loaded.call("MARKETHISTORY", ["TX", "industrial", "vacancy_rate", "-8Q", "LQ", "labels=true"])) as unknown[][];
  const sent = new URL(loaded.calls.at(-1)!.url).searchParams;
  expect([sent.get("from"), sent.get("to")]).toEqual(["-8Q", "LQ"]);
  const rows = spill.slice(1);
  expect(rows.map((r) => r[1])).toEqual(["2024-Q4", "2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4", "2026-Q1", "2026-Q2", "2026-Q3"]);
  expect(fromExcelSerial(rows.at(-1)![0] as number)).toBe("2026-09-30");
});

test('as_of=46023 (a date cell) is a date: refused as "no snapshot captured on or before 2026-01-01", not as a malformed option', async () => {
  const loaded = bundle();
  const err = await loaded.call("MARKET", ["TX", "industrial", "vacancy_rate", "as_of=46023"]).catch((e: unknown) => e);
  expect(String((err as Error).message)).toMatch(/on or before 2026-01-01/);
  expect(new URL(loaded.calls[0].url).searchParams.get("as_of")).toBe("2026-01-01");
});
