// Each PROP call leaves its outcome under its cell's address, because Excel shows the pane
// only "#N/A": after a Refresh the pane reads here why each cell failed.
import { withExcelErrors } from "../../src/functions/excel-errors";
import { property } from "../../src/functions/functions";
import { fields } from "../../src/functions/helper-functions";
import { propertyField } from "../../src/functions/property-field";
import { addinSession } from "../../src/shared/addin-session";
import { CellOutcomes, cellKey } from "../../src/shared/cell-outcomes";
import { customFunctionsStandIn, jsonResponse, problemResponse } from "./office-stand-ins";
import { compareResponse, propertyRecord, testSession } from "./session-factory";

function invocation(address: string | undefined, overrides: Record<string, unknown> = {}): CustomFunctions.CancelableInvocation {
  return { functionName: "PROPERTY", address, isInValuePreview: false, ...overrides } as unknown as CustomFunctions.CancelableInvocation;
}

function clock(start = 1_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

beforeEach(() => {
  (globalThis as Record<string, unknown>).CustomFunctions = customFunctionsStandIn();
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).CustomFunctions;
});

describe("CellOutcomes", () => {
  test("holds the latest outcome of each address, with when it happened", () => {
    const time = clock();
    const outcomes = new CellOutcomes(100, time.now);
    outcomes.recordFailure("Sheet1!A1", "#N/A", "No credits left.");
    expect(outcomes.outcomeOf("Sheet1!A1")).toEqual({ ok: false, code: "#N/A", message: "No credits left.", at: 1_000 });
    time.advance(500);
    outcomes.recordSuccess("Sheet1!A1");
    expect(outcomes.outcomeOf("Sheet1!A1")).toEqual({ ok: true, at: 1_500 });
    expect(outcomes.outcomeOf("Sheet1!A2")).toBeNull();
  });

  test("the ways Excel writes one address are one cell", () => {
    const outcomes = new CellOutcomes();
    outcomes.recordFailure("'Rent roll'!C3", "#VALUE!", "limit must be at most 1000.");
    expect(outcomes.outcomeOf("Rent roll!$C$3")).toMatchObject({ ok: false, message: "limit must be at most 1000." });
    expect(outcomes.outcomeOf("'RENT ROLL'!c3")).toMatchObject({ ok: false });
    expect(cellKey("'Bob''s comps'!A1")).toBe(cellKey("Bob's comps!a1"));
    expect(cellKey("Sheet1!A1")).not.toBe(cellKey("Sheet2!A1"));
  });

  test("keeps only the most recently recorded addresses", () => {
    const outcomes = new CellOutcomes(3);
    for (const row of [1, 2, 3]) outcomes.recordSuccess(`Sheet1!A${row}`);
    outcomes.recordFailure("Sheet1!A1", "#N/A", "again"); // A1 is now the newest
    outcomes.recordSuccess("Sheet1!A4");
    expect(outcomes.size).toBe(3);
    expect(outcomes.outcomeOf("Sheet1!A2")).toBeNull();
    expect(["Sheet1!A1", "Sheet1!A3", "Sheet1!A4"].map((a) => outcomes.outcomeOf(a) !== null)).toEqual([true, true, true]);
  });
});

describe("withExcelErrors records each call under its cell", () => {
  test("a failing call records its Excel error and message; a later success clears it", async () => {
    let answer = () =>
      problemResponse(402, {
        code: "credits_exhausted",
        title: "No credits",
        detail: "No credits left. Credits reset on 2025-08-01 at 00:00 UTC.",
      });
    const { session } = testSession(() => answer());
    const call = () => withExcelErrors(invocation("Sheet1!B2"), (ctx) => propertyField("cp_1", "year_built", null, ctx), session);

    await expect(call()).rejects.toMatchObject({ code: "#N/A" });
    const failed = session.outcomes.outcomeOf("Sheet1!B2");
    expect(failed).toMatchObject({ ok: false, code: "#N/A" });
    expect(failed && !failed.ok && failed.message).toMatch(/Credits reset on 2025-08-01/);

    answer = () => jsonResponse(propertyRecord("cp_1", { year_built: 1999 }));
    await expect(call()).resolves.toBe(1999);
    expect(session.outcomes.outcomeOf("Sheet1!B2")).toMatchObject({ ok: true });
  });

  test("bad input is recorded as #VALUE! with the message the cell shows", async () => {
    const { session, requests } = testSession(() => jsonResponse({}));
    await expect(
      withExcelErrors(invocation("Sheet1!C9"), (ctx) => propertyField("par_1", "year_built", null, ctx), session),
    ).rejects.toMatchObject({ code: "#VALUE!" });
    expect(session.outcomes.outcomeOf("Sheet1!C9")).toMatchObject({
      ok: false,
      code: "#VALUE!",
      message: '"par_1" is not a property id; ids look like cp_0001a2b3.',
    });
    expect(requests).toHaveLength(0);
  });

  test("a formula-edit preview and a call without an address record nothing", async () => {
    const { session } = testSession(() => jsonResponse(propertyRecord("cp_1")));
    await expect(
      withExcelErrors(invocation("Sheet1!A1", { isInValuePreview: true }), (ctx) => propertyField("cp_1", "name", null, ctx), session),
    ).rejects.toBeDefined();
    await expect(withExcelErrors(invocation(undefined), (ctx) => propertyField("cp_1", "name", null, ctx), session)).resolves.toBe(
      "Building cp_1",
    );
    expect(session.outcomes.size).toBe(0);
  });

  test("the shipped functions record in the runtime's session, which the pane reads", async () => {
    const outcomes = addinSession().outcomes;
    await expect(property("not-an-id", "year_built", undefined, invocation("Sheet3!D4"))).rejects.toMatchObject({ code: "#VALUE!" });
    expect(outcomes.outcomeOf("Sheet3!D4")).toMatchObject({
      ok: false,
      code: "#VALUE!",
      message: '"not-an-id" is not a property id; ids look like cp_0001a2b3.',
    });

    // FIELDS makes no request; it gained an invocation only to report its outcome.
    await expect(fields("property", null as unknown as string, invocation("Sheet3!D4"))).resolves.toEqual(expect.any(Array));
    expect(outcomes.outcomeOf("Sheet3!D4")).toMatchObject({ ok: true });
  });

  test("a cancelled call records nothing: Excel discards it, and its replacement records its own", async () => {
    let answer: (response: Response) => void = () => {};
    const { session, requests } = testSession(() => new Promise<Response>((resolve) => (answer = resolve)));
    const cell = invocation("Sheet1!E5");
    session.outcomes.recordSuccess("Sheet1!E5");
    const pending = withExcelErrors(cell, (ctx) => propertyField("cp_1", "name", null, ctx), session);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the batch window passes and the request starts
    (cell.onCanceled as () => void)();
    await expect(pending).rejects.toMatchObject({ code: "#N/A" });
    expect(session.outcomes.outcomeOf("Sheet1!E5")).toMatchObject({ ok: true });
    // The batch on its way is not aborted (the recalculation that replaces the cell joins it;
    // see batcher.ts), so the test answers it rather than leave it waiting on its timeout.
    expect(requests[0].signal?.aborted).toBe(false);
    answer(compareResponse(["cp_1"]));
  });
});
