// The pane's flows (connect, sign out, compare selected rows, refresh, freeze note) against the
// real service on a loopback port, with a scripted WorkbookPort standing where Excel is.
import { createSession, type AddinSession } from "../../src/shared/addin-session";
import { SETTING_KEYS } from "../../src/shared/settings";
import { formatKey } from "../../src/contract/api-key-format";
import { compareSelectedRows } from "../../src/taskpane/compare-selection";
import { freezeNote } from "../../src/taskpane/freeze-note";
import { ConnectError } from "../../src/taskpane/connect-error";
import { connect, resume, signOut } from "../../src/taskpane/pane-connection";
import { refreshFormulas } from "../../src/taskpane/refresh-formulas";
import { RefreshReports } from "../../src/taskpane/refresh-reports";
import { refreshWorkbook } from "../../src/taskpane/ribbon-commands";
import type { CellValue, FormulaCell, FormulaOutcome, SelectedRows, WorkbookPort } from "../../src/taskpane/workbook-types";
import { memoryStorage } from "../addin/office-stand-ins";
import { startService, type TestService } from "../helpers/service";

let svc: TestService;
let base: string;
let requests: string[];

beforeAll(async () => {
  svc = await startService();
  base = await svc.app.listen({ host: "127.0.0.1", port: 0 });
});
afterAll(() => svc.app.close());

function setup(saved: Record<string, string> = {}) {
  requests = [];
  const storage = memoryStorage(saved);
  const countingFetch = ((url: string, init?: RequestInit) => {
    requests.push(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
    return fetch(url, init);
  }) as typeof fetch;
  const session = createSession({ storage: () => storage, fetch: countingFetch });
  return { storage, session, fetch: countingFetch };
}

/** A WorkbookPort over a scripted selection that records what the pane wrote. */
function scriptedWorkbook(selection: SelectedRows, formulas: FormulaCell[] = [], showing: Record<string, string | null> = {}) {
  const written: { sheet?: { rows: CellValue[][]; title: string; note: string }; recalculated: string[] } = { recalculated: [] };
  const workbook: WorkbookPort = {
    readSelectedRows: async () => selection,
    readBlock: async () => {
      throw new Error("not used here");
    },
    writeCells: async () => "Sheet1!A1",
    replaceCells: async () => 0,
    insertTable: async () => "Sheet1!A1",
    insertFormula: async () => "Sheet1!A1",
    writeComparisonSheet: async (rows, options) => {
      written.sheet = { rows, ...options };
      return options.title;
    },
    findPropFormulas: async () => formulas,
    recalculate: async (cells): Promise<FormulaOutcome[]> =>
      cells.map((c) => {
        written.recalculated.push(c.address);
        return { ...c, error: showing[c.address] ?? null, changes: [], marks: [] };
      }),
    markCells: async () => 0,
    clearMarks: async () => 0,
    appendRows: async () => "Refresh log!A2",
    rewriteFormulas: async () => {},
    freezeSelection: async () => [],
    insertChart: async (spec) => `PROP ${spec.title}`,
    sheetNames: async () => [],
    insertSheets: async (sheets) => sheets.map((s) => s.name),
    readCellSource: async () => {
      throw new Error("not used here");
    },
  };
  return { workbook, written };
}

describe("connect", () => {
  test("a good key is checked with one free call, then saved; the meter learns the plan", async () => {
    const { storage, session, fetch } = setup();
    const connection = await connect({ baseUrl: base, apiKey: `  ${svc.key} ` }, { storage, session, fetch });
    expect(connection.baseUrl).toBe(base);
    expect(connection.coverage.object).toBe("coverage");
    expect(requests).toEqual(["GET /v1/commercial/coverage"]);
    expect(storage.items.get(SETTING_KEYS.apiKey)).toBe(svc.key);
    expect(session.meter.current()).toMatchObject({ plan: "explorer", limit: 1000, chargedThisSession: 0 });
  });

  test("a key with a typo is refused before any request, and the saved key stays", async () => {
    const { storage, session, fetch } = setup({ [SETTING_KEYS.apiKey]: svc.key });
    const typo = svc.key.slice(0, -1) + (svc.key.endsWith("a") ? "b" : "a");
    await expect(connect({ baseUrl: base, apiKey: typo }, { storage, session, fetch })).rejects.toMatchObject({
      name: "ConnectError",
      field: "apiKey",
      message: expect.stringContaining("checksum"),
    });
    expect(requests).toEqual([]);
    expect(storage.items.get(SETTING_KEYS.apiKey)).toBe(svc.key);
  });

  test("a well-formed key the service does not know is refused by the free call and not saved", async () => {
    const { storage, session, fetch } = setup();
    const unknown = formatKey("live", "zzzzzzzzzzzz", "q".repeat(24));
    const err = await connect({ baseUrl: base, apiKey: unknown }, { storage, session, fetch }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect(err.field).toBe("apiKey");
    expect(err.message).toMatch(/did not accept this key/);
    expect(requests).toEqual(["GET /v1/commercial/coverage"]);
    expect(storage.items.has(SETTING_KEYS.apiKey)).toBe(false);
  });

  test("an unreachable service points at the URL; a non-URL is refused before any request", async () => {
    const { storage, session, fetch } = setup();
    const closed = await connect({ baseUrl: "http://127.0.0.1:9", apiKey: svc.key }, { storage, session, fetch }).catch((e) => e);
    expect(closed).toMatchObject({ field: "baseUrl", message: expect.stringContaining("Could not reach http://127.0.0.1:9") });
    requests.length = 0;
    const notUrl = await connect({ baseUrl: "prop example", apiKey: svc.key }, { storage, session, fetch }).catch((e) => e);
    expect(notUrl).toMatchObject({ field: "baseUrl", message: expect.stringContaining("is not a URL") });
    expect(requests).toEqual([]);
  });

  test("resume checks the saved key; sign out removes the key, the cached results and the meter", async () => {
    const { storage, session, fetch } = setup({ [SETTING_KEYS.apiKey]: svc.key, [SETTING_KEYS.baseUrl]: base });
    const resumed = await resume({ storage, session, fetch });
    expect(resumed?.baseUrl).toBe(base);
    session.cache.set("k", { value: { a: 1 }, snapshotId: "s" });
    await signOut({ storage, session, fetch });
    expect(storage.items.has(SETTING_KEYS.apiKey)).toBe(false);
    expect(session.cache.size).toBe(0);
    expect(session.meter.current()).toBeNull();
    expect(await resume({ storage, session, fetch })).toBeNull();
  });
});

describe("compare selected rows", () => {
  function connected(): { session: AddinSession } {
    const { session } = setup({ [SETTING_KEYS.apiKey]: svc.key, [SETTING_KEYS.baseUrl]: base });
    return { session };
  }
  const ids = () => svc.snapshot.prepare("SELECT id FROM properties ORDER BY id LIMIT 3").pluck().all() as string[];

  test("writes one sheet with the properties as columns and min/median/max per numeric field", async () => {
    const { session } = connected();
    const [a, b, c] = ids();
    const selection: SelectedRows = {
      address: "Sheet1!B2:B4",
      header: ["id", "name", "city"],
      rows: [
        [a, "A", "x"],
        [b, "B", "y"],
        [c, "C", "z"],
      ],
      source: 'the spill of =PROP.SEARCH("") at Sheet1!A1',
    };
    const { workbook, written } = scriptedWorkbook(selection);
    const report = await compareSelectedRows({ session, workbook, now: () => new Date("2026-11-22T10:00:00Z") });
    expect(report).toMatchObject({ properties: 3, source: selection.source });
    const rows = written.sheet!.rows;
    expect(rows[0].slice(-3)).toEqual(["Minimum", "Median", "Maximum"]);
    expect(rows.find((r) => r[0] === "id")!.slice(1, 4)).toEqual([a, b, c]);
    const area = rows.find((r) => r[0] === "building_area_sqft")!;
    const values = area.slice(1, 4).filter((v): v is number => typeof v === "number");
    expect(area[4]).toBe(Math.min(...values));
    expect(area[6]).toBe(Math.max(...values));
    // Every field the three properties all have a number for: its minimum, median and maximum.
    const numeric = rows.slice(1).filter((r) => r.slice(1, 4).every((v) => typeof v === "number"));
    expect(numeric.map((r) => r[0])).toEqual(expect.arrayContaining(["building_area_sqft", "year_built"]));
    for (const r of numeric) {
      const sorted = (r.slice(1, 4) as number[]).sort((x, y) => x - y);
      expect({ field: r[0], stats: r.slice(4, 7) }).toEqual({ field: r[0], stats: sorted });
    }
    expect(written.sheet!.note).toMatch(/^3 properties from the spill of .* compared on 22 Nov 2026, 10:00 UTC from snapshot /);
  });

  test("a selection of unknown ids writes nothing and names them", async () => {
    const { session } = connected();
    const selection: SelectedRows = { address: "Sheet1!A2:A3", header: ["id"], rows: [["cp_nope1"], ["cp_nope2"]], source: "Sheet1!A1:A3" };
    const { workbook, written } = scriptedWorkbook(selection);
    await expect(compareSelectedRows({ session, workbook })).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining("cp_nope1"),
    });
    expect(written.sheet).toBeUndefined();
  });
});

describe("refresh", () => {
  test("one free snapshot check, every formula recalculated in batches, failures with the function's own reason", async () => {
    const { session } = setup({ [SETTING_KEYS.apiKey]: svc.key, [SETTING_KEYS.baseUrl]: base });
    const formulas = Array.from({ length: 23 }, (_, i) => ({
      address: `Sheet1!A${i + 1}`,
      formula: `=PROP.MARKET("TX","office","vacancy_rate")`,
    }));
    session.outcomes.recordFailure("Sheet1!A7", "#N/A", "A message from before this refresh.");
    await new Promise((r) => setTimeout(r, 5)); // outcomes are stamped in milliseconds
    const { workbook: base_, written } = scriptedWorkbook({ address: "", header: null, rows: [], source: "" }, formulas, {
      "Sheet1!A5": "#N/A",
      "Sheet1!A7": "#N/A",
      "Sheet1!A9": "#SPILL!",
    });
    // As Excel would: calculating the formula runs the function, which records its outcome.
    const workbook: WorkbookPort = {
      ...base_,
      recalculate: async (cells) => {
        if (cells.some((c) => c.address === "Sheet1!A5"))
          session.outcomes.recordFailure("Sheet1!A5", "#N/A", "No market figures for office in XX.");
        return base_.recalculate(cells);
      },
    };
    const progress: string[] = [];
    const report = await refreshFormulas("workbook", {
      session,
      workbook,
      onProgress: (d, t) => progress.push(`${d}/${t}`),
      now: () => new Date("2026-11-22T10:00:00Z"),
    });
    expect(requests).toEqual(["GET /v1/commercial/coverage"]);
    expect(written.recalculated).toHaveLength(23);
    expect(progress).toEqual(["0/23", "10/23", "20/23", "23/23"]);
    expect(report.snapshot.changed).toBe(false);
    expect(report.failures.map((f) => [f.address, f.reason])).toEqual([
      ["Sheet1!A5", "No market figures for office in XX."],
      ["Sheet1!A7", "The cell shows #N/A."],
      ["Sheet1!A9", expect.stringContaining("empty cells below and to the right")],
    ]);
    expect(report.finishedAt).toBe("2026-11-22T10:00:00.000Z");
  });
});

describe("the credits a refresh spent, and the ribbon's refresh", () => {
  const cells = [{ address: "Sheet1!B2", formula: '=PROP.MARKET("TX","office","vacancy_rate")' }];
  /** As Excel would: calculating runs the functions, whose answers carry the credit headers the meter reads. */
  function billing(session: AddinSession, charged: number) {
    const { workbook } = scriptedWorkbook({ address: "", header: null, rows: [], source: "" }, cells);
    return {
      ...workbook,
      recalculate: async (batch: FormulaCell[]) => {
        const left = session.meter.current()?.remaining ?? 0;
        session.meter.observe({ plan: "explorer", limit: 1000, remaining: left - charged, charged, resetsAt: null });
        return workbook.recalculate(batch);
      },
    } satisfies WorkbookPort;
  }

  test("the report says what the answers during the refresh charged, and the credits left before and after", async () => {
    const { session } = setup({ [SETTING_KEYS.apiKey]: svc.key, [SETTING_KEYS.baseUrl]: base });
    // Credits spent before the refresh are not the refresh's.
    session.meter.observe({ plan: "explorer", limit: 1000, remaining: 990, charged: 10, resetsAt: null });
    const report = await refreshFormulas("workbook", { session, workbook: billing(session, 3) });
    // Before: what the refresh's free snapshot check said was left.
    const { remainingBefore } = report.credits;
    expect(remainingBefore).toEqual(expect.any(Number));
    expect(report.credits).toEqual({ spent: 3, remainingBefore, remainingAfter: remainingBefore! - 3 });
  });

  test("the ribbon's Refresh workbook leaves its report for the pane, and still recalculates when the check fails", async () => {
    const { session } = setup({ [SETTING_KEYS.apiKey]: svc.key, [SETTING_KEYS.baseUrl]: base });
    const reports = new RefreshReports();
    const recalculateAll = jest.fn(async () => {});
    const completed = jest.fn();
    const event = { completed } as unknown as Office.AddinCommands.Event;
    await refreshWorkbook(event, { session, workbook: billing(session, 2), reports, recalculateAll });
    expect(reports.latest()).toMatchObject({ by: "ribbon", report: { scope: "workbook", formulas: 1, credits: { spent: 2 } } });
    expect(recalculateAll).not.toHaveBeenCalled();
    expect(completed).toHaveBeenCalledTimes(1);

    // No key: the snapshot check fails; the workbook is recalculated so cells say why, and no report is left.
    const keyless = setup().session;
    const none = new RefreshReports();
    const quiet = jest.spyOn(console, "error").mockImplementation(() => {});
    await refreshWorkbook(event, { session: keyless, workbook: billing(keyless, 0), reports: none, recalculateAll });
    quiet.mockRestore();
    expect(none.latest()).toBeNull();
    expect(recalculateAll).toHaveBeenCalledTimes(1);
    expect(completed).toHaveBeenCalledTimes(2);
  });
});

test("the freeze note keeps the formula, the time and the snapshot", () => {
  const note = freezeNote(
    { address: "Sheet1!A1", formula: '=PROP.SALECOMPS("TX","industrial")' },
    { id: "snap_1", captured_at: "2026-11-01T00:00:00Z" },
    new Date("2026-11-22T14:03:00Z"),
  );
  expect(note).toBe(
    'Frozen as values on 22 Nov 2026, 14:03 UTC by Property Intelligence.\nFormula: =PROP.SALECOMPS("TX","industrial")\nSnapshot: snap_1, captured 1 Nov 2026',
  );
});
