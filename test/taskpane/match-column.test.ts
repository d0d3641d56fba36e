// Match a column's own logic: which part of the address each selected column holds, the match
// through the add-in session against the real service (counts, credits, a second match free),
// and the cells inserted beside the block, as formulas and as values.
import Database from "better-sqlite3";
import { createSession } from "../../src/shared/addin-session";
import { SETTING_KEYS } from "../../src/shared/settings";
import {
  NO_MATCH_FILL,
  guessRoles,
  insertion,
  lowConfidenceText,
  matchColumn,
  matchSummary,
  rolesProblem,
  rowsToMatch,
  type ColumnMatch,
} from "../../src/taskpane/match-column";
import type { CellValue, SheetBlock } from "../../src/taskpane/workbook-types";
import { memoryStorage } from "../addin/office-stand-ins";
import { snapshotPath, startService, type TestService } from "../helpers/service";

/** A block as readBlock gives it: header on sheet row 0 (when given), data below, from column A. */
function block(
  header: CellValue[] | null,
  rows: CellValue[][],
  selectedColumns: number[],
  selectedRows = rows.map((_, i) => i),
): SheetBlock {
  return {
    sheet: "Sheet1",
    selection: "Sheet1!A1",
    headerRow: header ? 0 : null,
    firstRow: header ? 1 : 0,
    column: 0,
    header,
    rows,
    formulas: rows.map((r) => r.map(() => false)),
    selectedRows,
    selectedColumns,
  };
}

describe("which part of the address each column holds", () => {
  test("by the header's words, whatever their order", () => {
    const b = block(["Zip Code", "Property Address", "St", "Town"], [["78721", "623 Washington Blvd", "TX", "Austin"]], [0, 1, 2, 3]);
    expect(guessRoles(b)).toEqual(["zip", "address", "state", "city"]);
  });

  test("by the values when there is no header: ZIP codes as numbers, state names, a house number", () => {
    const b = block(
      null,
      [
        ["Austin", 78721, "Texas", "623 Washington Blvd"],
        ["Boston", 2134, "Massachusetts", "12 Main St"],
      ],
      [0, 1, 2, 3],
    );
    expect(guessRoles(b)).toEqual(["city", "zip", "state", "address"]);
  });

  test("one column is the address; a part claimed twice leaves the second column unused", () => {
    expect(guessRoles(block(null, [["623 Washington Blvd, Austin, TX"]], [0]))).toEqual(["address"]);
    expect(guessRoles(block(["City", "City", "Address"], [["a", "b", "1 Main St"]], [0, 1, 2]))).toEqual(["city", "ignore", "address"]);
  });

  test("a choice without an address column, or with a part twice, is named before any request", () => {
    expect(rolesProblem(["city", "zip"])).toMatch(/which column holds the address/);
    expect(rolesProblem(["address", "zip", "zip"])).toMatch(/Two columns are marked "ZIP code"/);
    expect(rolesProblem(["address", "ignore"])).toBeNull();
  });

  test("parcel numbers and counties by their headers; beside an address column they are left unused", () => {
    const parcels = block(["Parcel Number", "County", "State"], [["123-456-78", "Travis", "TX"]], [0, 1, 2]);
    expect(guessRoles(parcels)).toEqual(["apn", "county", "state"]);
    expect(guessRoles(block(["APN", "County Name"], [["12345678", 48453]], [0, 1]))).toEqual(["apn", "county"]);
    expect(guessRoles(block(["PIN", "Owner"], [["12-34", "Acme"]], [0, 1]))).toEqual(["apn", "ignore"]);
    const both = block(["Address", "City", "Parcel", "County"], [["1 Main St", "Austin", "12-34", "Travis"]], [0, 1, 2, 3]);
    expect(guessRoles(both)).toEqual(["address", "city", "ignore", "ignore"]);
  });

  test("a parcel number needs its county or state column; the address and the parcel number are not both used", () => {
    expect(rolesProblem(["apn", "ignore"])).toMatch(/needs its county or state/);
    expect(rolesProblem(["apn", "county"])).toBeNull();
    expect(rolesProblem(["apn", "state"])).toBeNull();
    expect(rolesProblem(["address", "apn", "county"])).toMatch(/by the address or by the parcel number/);
    expect(rolesProblem(["apn", "county", "county"])).toMatch(/Two columns are marked "County"/);
  });
});

describe("blank rows, low-confidence matches and the summary", () => {
  const answered = (row: number, answer: object) => ({ row, kind: "answered", ask: { address: `${row} Main St` }, answer });
  const matched = (score: number, match: string) => ({
    status: "matched",
    property_id: "cp_1",
    parcel_id: null,
    matched_address: "1 Main St, Austin, TX 78701",
    score,
    match,
    candidates: [],
    detail: null,
  });

  test("the rows to match leave the blank ones out (the button's estimate)", () => {
    const b = block(
      ["Address", "City"],
      [
        ["1 Main St", "Austin"],
        [null, null],
        ["", "Austin"],
        ["2 Main St", "Austin"],
      ],
      [0, 1],
    );
    expect(rowsToMatch(b, guessRoles(b))).toBe(2);
  });

  test("blank rows skipped, low-confidence matches flagged with why, and the price per row that names a property", () => {
    const match = {
      rows: [
        answered(0, matched(1, "exact")),
        { row: 1, kind: "blank" },
        answered(2, matched(0.8, "street_spelling")),
        answered(3, matched(0.8, "street_spelling")),
        { row: 4, kind: "blank" },
        answered(5, { ...matched(0.85, "normalised") }),
      ],
      counts: { matched: 4, ambiguous: 0, unmatched: 0, refused: 0, blank: 2 },
      charged: 4,
    } as unknown as ColumnMatch;
    expect(lowConfidenceText(match)).toBe("3 matched with low confidence (2 street spelt differently, 1 score below 0.9): check them.");
    expect(matchSummary(match)).toBe(
      "4 matched, 0 ambiguous, 0 unmatched. 2 blank rows skipped. 3 matched with low confidence (2 street spelt differently, 1 score below 0.9): check them. " +
        "4 credits charged (1 per address that names a property: matched, or ambiguous with candidates; unmatched rows are free).",
    );
    const two = { ...match, rows: match.rows.slice(0, 4), counts: { ...match.counts, matched: 3, blank: 1 }, charged: 3 } as ColumnMatch;
    expect(matchSummary(two)).toBe(
      "3 matched, 0 ambiguous, 0 unmatched. 1 blank row skipped. 2 matched with low confidence (street spelt differently): check them. " +
        "3 credits charged (1 per address that names a property: matched, or ambiguous with candidates; unmatched rows are free).",
    );
    const sure = { ...match, rows: match.rows.slice(0, 2), counts: { ...match.counts, matched: 1, blank: 1 } } as ColumnMatch;
    expect(lowConfidenceText(sure)).toBe("");
  });
});

describe("the cells inserted beside the block", () => {
  const b = block(
    ["Street", "City", "State", "Zip", "Year"],
    [
      ["1 Main St", "Austin", "TX", "78701", 1990],
      [null, null, null, null, null],
      ["2 Main St", null, null, null, 1990],
      ["3 Nowhere Rd", "Austin", "TX", "78701", 1990],
    ],
    [0, 1, 2, 3],
  );
  const roles = guessRoles(b);
  const answer = (status: "matched" | "ambiguous" | "unmatched", extra: object = {}) => ({
    status,
    property_id: status === "matched" ? "cp_0000001" : null,
    parcel_id: null,
    matched_address: status === "matched" ? "1 Main St, Austin, TX 78701" : null,
    score: status === "matched" ? 1 : null,
    match: status === "matched" ? ("exact" as const) : null,
    candidates: [],
    detail: null,
    ...extra,
  });
  const match = {
    rows: [
      { row: 0, kind: "answered", ask: { address: "1 Main St" }, answer: answer("matched") },
      { row: 1, kind: "blank" },
      {
        row: 2,
        kind: "answered",
        ask: { address: "2 Main St" },
        answer: answer("ambiguous", { candidates: [{ property_id: "cp_0000002", address: "2 Main St, Austin, TX 78701", score: 0.8 }] }),
      },
      { row: 3, kind: "answered", ask: { address: "3 Nowhere Rd" }, answer: answer("unmatched", { detail: "no such street" }) },
    ],
    counts: { matched: 1, ambiguous: 1, unmatched: 1, refused: 0, blank: 1 },
    charged: 1,
  } as unknown as ColumnMatch;

  test("as formulas: PROP.MATCH over each row's own cells, under a header, right of the block; no-match rows shaded", () => {
    const out = insertion(b, roles, match, new Map(), true);
    expect(out.at).toEqual({ row: 0, column: 5 });
    expect(out.cells[0]).toEqual(["Property id", "Matched address", "Match score", "Match status"]);
    expect(out.cells[1]).toEqual([
      { formula: "=PROP.MATCH($A2,$B2,$C2,$D2)" },
      { formula: '=PROP.MATCH($A2,$B2,$C2,$D2,"cols=matched_address")' },
      { formula: '=PROP.MATCH($A2,$B2,$C2,$D2,"cols=score")' },
      { formula: '=PROP.MATCH($A2,$B2,$C2,$D2,"cols=status")' },
    ]);
    expect(out.cells[2]).toEqual([null, null, null, null]);
    expect(out.fills).toEqual([null, null, null, NO_MATCH_FILL, NO_MATCH_FILL]);
  });

  test("a picked candidate is written as its value; as values, a no-match row says why", () => {
    const out = insertion(b, roles, match, new Map([[2, "cp_0000002"]]), false);
    expect(out.cells[1]).toEqual(["cp_0000001", "1 Main St, Austin, TX 78701", 1, "matched"]);
    expect(out.cells[3]).toEqual(["cp_0000002", "2 Main St, Austin, TX 78701", 0.8, "picked"]);
    expect(out.cells[4]).toEqual([null, null, null, "unmatched: no such street"]);
    expect(out.fills).toEqual([null, null, null, null, NO_MATCH_FILL]);
  });

  test('by parcel number: PROP.MATCH(apn, county, state, , "by=apn") over each row\'s cells', () => {
    const parcels = block(["APN", "County", "State"], [["123-456-78", "Travis", "TX"]], [0, 1, 2]);
    const one = {
      rows: [{ row: 0, kind: "answered", ask: { apn: "123-456-78", county: "Travis", state: "TX" }, answer: answer("matched") }],
      counts: match.counts,
      charged: 1,
    };
    const out = insertion(parcels, guessRoles(parcels), one as unknown as ColumnMatch, new Map(), true);
    expect(out.cells[1]).toEqual([
      { formula: '=PROP.MATCH($A2,$B2,$C2,,"by=apn")' },
      { formula: '=PROP.MATCH($A2,$B2,$C2,,"by=apn; cols=matched_address")' },
      { formula: '=PROP.MATCH($A2,$B2,$C2,,"by=apn; cols=score")' },
      { formula: '=PROP.MATCH($A2,$B2,$C2,,"by=apn; cols=status")' },
    ]);
  });

  test("a street-only selection leaves the other arguments out; rows from the middle get no header", () => {
    const street = block(
      ["Street", "Other"],
      [
        ["1 Main St", 1],
        ["2 Main St", 2],
      ],
      [0],
      [1],
    );
    const one = {
      rows: [{ row: 1, kind: "answered", ask: { address: "2 Main St" }, answer: answer("matched") }],
      counts: match.counts,
      charged: 1,
    };
    const out = insertion(street, ["address"], one as unknown as ColumnMatch, new Map(), true);
    expect(out.at).toEqual({ row: 2, column: 2 });
    expect(out.cells).toEqual([
      [
        { formula: "=PROP.MATCH($A3)" },
        { formula: '=PROP.MATCH($A3,,,,"cols=matched_address")' },
        { formula: '=PROP.MATCH($A3,,,,"cols=score")' },
        { formula: '=PROP.MATCH($A3,,,,"cols=status")' },
      ],
    ]);
  });
});

describe("matching through the add-in session, against the service", () => {
  let svc: TestService;
  let rows: Array<{ id: string; address: string; city: string; state_code: string; zip: string }>;

  beforeAll(async () => {
    svc = await startService();
    await svc.app.listen({ host: "127.0.0.1", port: 0 });
    const db = new Database(snapshotPath(), { readonly: true });
    rows = db.prepare("SELECT id, address, city, state_code, zip FROM properties ORDER BY id LIMIT 3").all() as typeof rows;
    db.close();
  });
  afterAll(() => svc.app.close());

  test("counts and credits; a row the service cannot read is refused alone; the same rows again cost nothing", async () => {
    const address = svc.app.server.address() as { port: number };
    const storage = memoryStorage({ [SETTING_KEYS.apiKey]: svc.key, [SETTING_KEYS.baseUrl]: `http://127.0.0.1:${address.port}` });
    const sent: string[] = [];
    const session = createSession({
      storage: () => storage,
      fetch: ((url: string, init?: RequestInit) => {
        sent.push(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
        return fetch(url, init);
      }) as typeof fetch,
    });
    const b = block(
      ["Street", "City", "State", "Zip"],
      [
        ...rows.map((r) => [r.address, r.city, r.state_code, r.zip]),
        ["9 Invented Way", rows[0].city, rows[0].state_code, rows[0].zip],
        ["1 Main St", null, "Atlantis", null],
        [null, null, null, null],
      ],
      [0, 1, 2, 3],
    );
    const steps: number[] = [];
    const first = await matchColumn(session, b, guessRoles(b), (done) => steps.push(done));
    expect(first.counts).toEqual({ matched: 3, ambiguous: 0, unmatched: 1, refused: 1, blank: 1 });
    expect(first.charged).toBe(3);
    expect(sent.filter((s) => s.endsWith("/match"))).toEqual(["POST /v1/commercial/properties/match"]);
    expect(first.rows.slice(0, 3).map((r) => (r.kind === "answered" ? r.answer.property_id : r.kind))).toEqual(rows.map((r) => r.id));
    expect(steps[steps.length - 1]).toBe(5);
    expect(matchSummary(first)).toBe(
      "3 matched, 0 ambiguous, 1 unmatched, 1 not readable. 1 blank row skipped. " +
        "3 credits charged (1 per address that names a property: matched, or ambiguous with candidates; unmatched rows are free).",
    );

    sent.length = 0;
    const again = await matchColumn(session, b, guessRoles(b));
    expect(again.charged).toBe(0);
    expect(sent).toEqual([]);
  });
});
