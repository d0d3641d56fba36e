// "Explain this cell" from plain data: the cell as the workbook shows it, the outcome its
// function recorded (its sources), and the last refresh's changes.
import { explainCell, explanationText } from "../../src/taskpane/explain-cell";
import { ExplainRequests } from "../../src/taskpane/explain-requests";
import { explainCell as ribbonExplainCell } from "../../src/taskpane/ribbon-commands";
import { formulaCall } from "../../src/taskpane/explain-fields";
import { freezeNote } from "../../src/taskpane/freeze-note";
import { parseFacts } from "../../src/taskpane/provenance-facts";
import type { CellOutcome, CellSourceRecord } from "../../src/shared/cell-outcomes";
import { answerFacts, type RequestSource } from "../../src/shared/cell-provenance";
import type { CellChange } from "../../src/taskpane/cell-changes";
import type { CellSource } from "../../src/taskpane/workbook-types";

const BASE = "http://127.0.0.1:3945";
const FETCHED_AT = Date.parse("2026-11-28T04:50:00Z");

function cell(overrides: Partial<CellSource> = {}): CellSource {
  return {
    address: "Sheet1!B2",
    formula: '=PROP.MARKET("tx","industrial","vacancy_rate")',
    anchor: "Sheet1!B2",
    row: 0,
    column: 0,
    value: 0.061,
    header: null,
    rowValues: null,
    note: null,
    freeColumn: 3,
    sheetRow: 1,
    sheet: "Sheet1",
    ...overrides,
  };
}

function source(overrides: Partial<RequestSource> = {}): RequestSource {
  return {
    operation: "getMarketSnapshot",
    method: "GET",
    path: "/v1/commercial/markets/snapshot",
    query: { asset_type: "industrial", geography: "tx" },
    answer: {
      id: "mkt_TX_industrial",
      place: "Texas",
      placeKind: "state",
      assetType: "industrial",
      propertyCount: 1234,
      asOf: "2026-11-01",
    },
    origin: "fetched",
    snapshotId: "snap_20261101",
    capturedAt: "2026-11-01T00:00:00Z",
    fetchedAt: FETCHED_AT,
    credits: 1,
    batched: true,
    ...overrides,
  };
}

function recorded(...sources: RequestSource[]): CellOutcome {
  const provenance: CellSourceRecord = { functionName: "PROP.MARKET", sources, more: 0, moreCredits: 0 };
  return { ok: true, at: FETCHED_AT, provenance };
}

const fact = (e: { facts: { label: string; text: string }[] }, label: string) => e.facts.find((f) => f.label === label)?.text;

test("a market figure: the place as the service read it, the properties behind it, the field, snapshot, fetch and cost", () => {
  const e = explainCell({ cell: cell(), outcome: recorded(source()), lastChanges: null, baseUrl: BASE });
  expect(e.status).toBe("explained");
  expect(e.title).toBe("Sheet1!B2: 0.061");
  expect(fact(e, "Function")).toBe('PROP.MARKET("tx", "industrial", "vacancy_rate")');
  expect(fact(e, "Understood as")).toBe("Texas (state), industrial, figures as of 2026-11-01");
  expect(fact(e, "Market")).toBe("mkt_TX_industrial, Texas, industrial, 1,234 properties");
  expect(fact(e, "Field")).toMatch(
    /^Vacancy rate \(vacancy_rate\), percentage \(a fraction: 0.065 is 6.5%\), may be empty: 1 - occupancy_rate/,
  );
  expect(fact(e, "Snapshot")).toBe("snap_20261101, captured 1 Nov 2026");
  expect(fact(e, "Fetched")).toBe("28 Nov 2026, 04:50 UTC, fetched from the service (in one batch with other cells)");
  expect(fact(e, "Cost")).toBe("1 credit at most (batched requests can cost less)");
  expect(fact(e, "Last refresh")).toBe("No refresh has run since the pane opened.");
  expect(e.link).toEqual({
    text: "getMarketSnapshot in the API reference",
    url: `${BASE}/docs/api#/Markets/getMarketSnapshot`,
  });
  expect(e.insert).toBe('=PROP.MARKET("tx","industrial")');
  expect(e.recalculate).toBe(false);
});

test("a cell in a list's spill: its row's id, name and address; its column's field; the list's request", () => {
  const list = source({
    operation: "findSaleComps",
    path: "/v1/commercial/sale-comps",
    query: { asset_type: "industrial", geography: "TX", min_sale_date: "2026-01-01" },
    answer: { totalCount: 57 },
    origin: "cache",
    credits: 0,
    batched: false,
  });
  const spilled = cell({
    address: "Sheet1!C5",
    anchor: "Sheet1!A1",
    formula: '=PROP.SALECOMPS("TX","industrial","min_sale_date=2026")',
    row: 4,
    column: 2,
    value: 12_500_000,
    header: ["property_id", "property_name", "sale_price", "address"],
    rowValues: ["cp_00a1", "Riverside Logistics", 12_500_000, "100 Main St"],
  });
  const e = explainCell({ cell: spilled, outcome: recorded(list), lastChanges: [], baseUrl: BASE });
  expect(e.title).toBe("Sheet1!C5 in the spill of Sheet1!A1: 12500000");
  expect(fact(e, "Row")).toBe("cp_00a1, Riverside Logistics, 100 Main St");
  expect(fact(e, "Field")).toMatch(/^Sale price.*\(sale_price\)/);
  expect(fact(e, "Understood as")).toBe("min_sale_date 2026-01-01");
  expect(fact(e, "List")).toBe("57 records matched");
  expect(fact(e, "Fetched")).toBe("28 Nov 2026, 04:50 UTC, answered from the add-in's cache");
  expect(fact(e, "Cost")).toBe("0 credits (nothing was charged for this value)");
  expect(fact(e, "Last refresh")).toBe("unchanged at the last refresh");
  expect(e.insert).toBe('=PROP.DETAILS("cp_00a1")');
  expect(e.link?.url).toBe(`${BASE}/docs/api#/Sale%20comparables/findSaleComps`);
});

test("changed at the last refresh: old -> new with the size of the change", () => {
  const changes: CellChange[] = [
    { address: "Sheet1!B2", kind: "changed", row: "", column: "vacancy_rate", before: "6.1%", after: "5.8%", change: "-30 bps" },
  ];
  const e = explainCell({
    cell: cell(),
    outcome: recorded(source({ origin: "revalidated", credits: 0, batched: false })),
    lastChanges: changes,
    baseUrl: null,
  });
  expect(fact(e, "Last refresh")).toBe("changed 6.1% -> 5.8% (-30 bps)");
  expect(fact(e, "Fetched")).toMatch(/confirmed unchanged by the service \(free\)$/);
  expect(fact(e, "Cost")).toMatch(/^0 credits/);
  expect(e.link).toBeNull();
});

test("a frozen value: its comment, written by Freeze as values, gives the same facts", () => {
  const outcome = recorded(source());
  const formula = cell().formula!;
  const note = freezeNote(
    { address: "Sheet1!B2", formula },
    null,
    new Date("2026-11-28T05:00:00Z"),
    outcome.ok ? outcome.provenance! : null,
  );
  expect(note.split("\n")[0]).toBe("Frozen as values on 28 Nov 2026, 05:00 UTC by Property Intelligence.");
  const frozen = explainCell({ cell: cell({ formula: null, anchor: null, note }), outcome: null, lastChanges: null, baseUrl: BASE });
  expect(frozen.status).toBe("frozen");
  const live = explainCell({ cell: cell(), outcome, lastChanges: null, baseUrl: BASE });
  // Every fact the comment keeps is the one Explain gives the live formula.
  for (const f of frozen.facts.filter((f) => f.label !== "Formula")) expect(fact(live, f.label)).toBe(f.text);
  expect(frozen.facts.map((f) => f.label)).toEqual(["Formula", "Asked", "Understood as", "Market", "Snapshot", "Fetched", "Cost"]);
  expect(fact(frozen, "Formula")).toBe(formula);
  expect(frozen.insert).toBe(formula);
});

test("a freeze note without recorded sources still names the formula and the connected snapshot", () => {
  const note = freezeNote(
    { address: "Sheet1!A1", formula: '=PROP.SALECOMPS("TX","industrial")' },
    { id: "snap_1", captured_at: "2026-11-01T00:00:00Z" },
    new Date("2026-11-22T14:03:00Z"),
  );
  expect(note).toBe(
    'Frozen as values on 22 Nov 2026, 14:03 UTC by Property Intelligence.\nFormula: =PROP.SALECOMPS("TX","industrial")\nSnapshot: snap_1, captured 1 Nov 2026',
  );
  expect(parseFacts(note)).toHaveLength(2);
});

test("a cell calculated before the pane opened says so and offers to calculate it again", () => {
  const e = explainCell({ cell: cell(), outcome: null, lastChanges: null, baseUrl: BASE });
  expect(e.status).toBe("not-recorded");
  expect(fact(e, "Source")).toMatch(/^Not recorded: the cell was calculated before the pane opened/);
  expect(e.recalculate).toBe(true);
  expect(e.insert).toBeNull();
});

test("a failed formula shows its error; a cell with no PROP formula and no frozen comment says what to select", () => {
  const failed = explainCell({
    cell: cell(),
    outcome: { ok: false, code: "#N/A", message: "No credits left.", at: 1 },
    lastChanges: null,
    baseUrl: BASE,
  });
  expect(failed.status).toBe("failed");
  expect(fact(failed, "Error")).toBe("#N/A No credits left.");
  const plain = explainCell({
    cell: cell({ formula: null, anchor: null, note: "A user's own comment", value: 42 }),
    outcome: null,
    lastChanges: null,
    baseUrl: BASE,
  });
  expect(plain.status).toBe("no-formula");
  expect(plain.title).toBe("Sheet1!B2 holds no PROP formula");
  expect(explanationText(plain)).toMatch(/^Sheet1!B2 holds no PROP formula\nCell: Select a cell holding a PROP formula/);
});

test("the PROP call is read from the formula as typed, nested or not", () => {
  expect(formulaCall('=ROUND(PROP.MARKET("Austin, TX",A2,"cap rate"),3)')).toEqual({
    name: "PROP.MARKET",
    args: ['"Austin, TX"', "A2", '"cap rate"'],
  });
  expect(formulaCall("=prop.credits()")).toEqual({ name: "PROP.CREDITS", args: [] });
  expect(formulaCall("=SUM(A1:A3)")).toBeNull();
});

test("the ribbon's Explain cell asks the pane to explain the selection, shows the pane, and always completes", async () => {
  const requests = new ExplainRequests();
  const heard = jest.fn();
  requests.subscribe(heard);
  const completed = jest.fn();
  const showPane = jest.fn(async () => {});
  await ribbonExplainCell({ completed } as unknown as Office.AddinCommands.Event, { requests, showPane });
  expect([heard.mock.calls.length, showPane.mock.calls.length, completed.mock.calls.length]).toEqual([1, 1, 1]);
  // A pane opened by the button finds the request waiting, once.
  expect(requests.take()).toBe(true);
  expect(requests.take()).toBe(false);

  const quiet = jest.spyOn(console, "error").mockImplementation(() => {});
  const failing = jest.fn(async () => Promise.reject(new Error("no pane in this host")));
  await ribbonExplainCell({ completed } as unknown as Office.AddinCommands.Event, { requests, showPane: failing });
  quiet.mockRestore();
  expect(completed).toHaveBeenCalledTimes(2);
});

describe("a PROP.MATCH cell", () => {
  const none = { property_id: null, parcel_id: null, matched_address: null, score: null, match: null, candidates: [], detail: null };
  const matchSource = (query: Record<string, string>, body: object, credits: number): RequestSource =>
    source({
      operation: "matchProperty",
      method: "GET",
      path: "/v1/commercial/properties/match",
      query,
      answer: answerFacts({ object: "property_match", ...none, ...body }),
      credits,
    });
  const matchCell = (formula: string, value: CellSource["value"]) => cell({ formula, value });
  const outcome = (s: RequestSource): CellOutcome => ({
    ok: true,
    at: FETCHED_AT,
    provenance: { functionName: "PROP.MATCH", sources: [s], more: 0, moreCredits: 0 },
  });

  test("a low-confidence match: the operation, the address asked, the matched address, score, how it matched in words, and the flag", () => {
    const s = matchSource(
      { address: "1 Mian St", city: "Austin" },
      { status: "matched", property_id: "cp_1", matched_address: "1 Main St, Austin, TX 78701", score: 0.8, match: "street_spelling" },
      1,
    );
    const e = explainCell({
      cell: matchCell('=PROP.MATCH("1 Mian St","Austin")', "cp_1"),
      outcome: outcome(s),
      lastChanges: null,
      baseUrl: BASE,
    });
    expect(e.status).toBe("explained");
    expect(fact(e, "Asked")).toBe("matchProperty (address=1 Mian St, city=Austin)");
    expect(fact(e, "Record")).toBe("cp_1, 1 Main St, Austin, TX 78701");
    expect(fact(e, "Match")).toBe(
      "matched, score 0.8, street spelt differently: a street name a letter or two off, at the same house number and ZIP code or city",
    );
    expect(fact(e, "Confidence")).toBe("low (street spelt differently): check the matched address");
    expect(fact(e, "Cost")).toBe("1 credit at most (batched requests can cost less)");
    expect(e.link?.text).toBe("matchProperty in the API reference");
    expect(e.insert).toBe('=PROP.DETAILS("cp_1")');
    // Freeze as values writes the same facts into the comment.
    const note = freezeNote({ address: "Sheet1!B2", formula: '=PROP.MATCH("1 Mian St","Austin")' }, null, new Date(FETCHED_AT), {
      functionName: "PROP.MATCH",
      sources: [s],
      more: 0,
      moreCredits: 0,
    });
    const frozen = explainCell({ cell: cell({ formula: null, anchor: null, note }), outcome: null, lastChanges: null, baseUrl: BASE });
    for (const label of ["Asked", "Record", "Match", "Confidence", "Cost"]) expect(fact(frozen, label)).toBe(fact(e, label));
  });

  test("a cell of a range's spill is explained by the address its row matched, not the first one asked", () => {
    const first = matchSource(
      { address: "1 Main St", city: "Austin" },
      { status: "matched", property_id: "cp_1", matched_address: "1 Main St, Austin, TX 78701", score: 1, match: "exact" },
      1,
    );
    const second = matchSource(
      { address: "2 Mian St", city: "Austin" },
      { status: "matched", property_id: "cp_2", matched_address: "2 Main St, Austin, TX 78701", score: 0.8, match: "street_spelling" },
      1,
    );
    const provenance = { functionName: "PROP.MATCH", sources: [first, second], more: 0, moreCredits: 0 };
    const spillCell = cell({ formula: '=PROP.MATCH(A2:A3,"Austin")', address: "Sheet1!B3", anchor: "Sheet1!B2", row: 1, value: "cp_2" });
    const e = explainCell({ cell: spillCell, outcome: { ok: true, at: FETCHED_AT, provenance }, lastChanges: null, baseUrl: BASE });
    expect(fact(e, "Asked")).toBe("matchProperty (address=2 Mian St, city=Austin)");
    expect(fact(e, "Record")).toBe("cp_2, 2 Main St, Austin, TX 78701");
    expect(fact(e, "Confidence")).toMatch(/^low/);
    expect(fact(e, "Cost")).toBe("2 credits over 2 requests at most (batched requests can cost less)");
  });

  test("a sure match is high confidence; an exact one says so", () => {
    const s = matchSource(
      { address: "1 Main St, Austin, TX 78701" },
      { status: "matched", property_id: "cp_1", matched_address: "1 Main St, Austin, TX 78701", score: 1, match: "exact" },
      1,
    );
    const e = explainCell({
      cell: matchCell('=PROP.MATCH("1 Main St, Austin, TX 78701")', "cp_1"),
      outcome: outcome(s),
      lastChanges: null,
      baseUrl: BASE,
    });
    expect(fact(e, "Match")).toBe("matched, score 1, exact: written as the snapshot writes it");
    expect(fact(e, "Confidence")).toBe("high");
  });

  test("an ambiguous or unmatched answer gives its detail; an unmatched one cost nothing", () => {
    const candidate = { property_id: "cp_2", address: "623 Washington Blvd, Austin, TX 78721", score: 0.9 };
    const ambiguous = matchSource(
      { address: "623 Washington Blvd" },
      {
        status: "ambiguous",
        candidates: [candidate, { ...candidate, property_id: "cp_3" }],
        detail: "Add the city or ZIP code to tell them apart.",
      },
      1,
    );
    const a = explainCell({
      cell: matchCell('=PROP.MATCH("623 Washington Blvd","","","","cols=status")', "ambiguous"),
      outcome: outcome(ambiguous),
      lastChanges: null,
      baseUrl: BASE,
    });
    expect(fact(a, "Match")).toBe("ambiguous (2 candidates): Add the city or ZIP code to tell them apart.");
    expect(fact(a, "Record")).toBeUndefined();
    expect(fact(a, "Confidence")).toBeUndefined();
    const unmatched = matchSource(
      { address: "9 Elm St", city: "Austin" },
      { status: "unmatched", detail: "No property at 9 Elm St in Austin: check the street name." },
      0,
    );
    const u = explainCell({
      cell: matchCell('=PROP.MATCH("9 Elm St","Austin","","","cols=status")', "unmatched"),
      outcome: outcome(unmatched),
      lastChanges: null,
      baseUrl: BASE,
    });
    expect(fact(u, "Match")).toBe("unmatched: No property at 9 Elm St in Austin: check the street name.");
    expect(fact(u, "Cost")).toBe("0 credits (nothing was charged for this value)");
  });
});
