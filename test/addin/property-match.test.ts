// PROP.MATCH over a stubbed match service (a fresh session per test): one address is its id, a
// range spills a row per address in order, the addresses of every cell calculated together go in
// one match request (1,000 rows at most), each row is cached as the single form's answer, rows
// that are not a match are error cells naming why, and a 402 for a batch is retried with the
// rows the credits left cover.
import { matchAddresses } from "../../src/functions/property-match";
import { ExcelErrorStandIn, customFunctionsStandIn, problemResponse } from "./office-stand-ins";
import { testSession, type SeenRequest } from "./session-factory";

beforeEach(() => {
  (globalThis as Record<string, unknown>).CustomFunctions = customFunctionsStandIn();
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).CustomFunctions;
});

interface Row {
  ref?: string;
  address: string;
  city?: string;
  state?: string;
  zip?: string;
}

const CANDIDATES = [
  { property_id: "cp_00005gu", address: "623 Washington Blvd, Austin, TX 78721", score: 0.9 },
  { property_id: "cp_0000a1b", address: "623 Washington Blvd, Austin, TX 78722", score: 0.9 },
];

/**
 * The matcher, as the service answers: "<n> Main St" is property cp_<n> (with a city or ZIP code,
 * in its fields or its line), "623 Washington Blvd" is ambiguous, a state "Atlantis" is refused,
 * anything else unmatched.
 */
function resultOf(row: Row) {
  const none = { property_id: null, parcel_id: null, matched_address: null, score: null, match: null, candidates: [], detail: null };
  if (row.state === "Atlantis") return { ...none, status: "refused", detail: '"Atlantis" is not a US state.' };
  if (row.address.startsWith("623 Washington")) {
    return { ...none, status: "ambiguous", candidates: CANDIDATES, detail: "Two properties at this address. Candidates: ..." };
  }
  const main = /^(\d+) Main St/.exec(row.address);
  if (main && (row.city || row.zip || row.address.includes(","))) {
    return {
      ...none,
      status: "matched",
      property_id: `cp_${main[1]}`,
      parcel_id: `par_${main[1]}`,
      matched_address: `${main[1]} Main St, Austin, TX ${row.zip ?? "78701"}`,
      score: 1,
      match: "exact",
    };
  }
  return { ...none, status: "unmatched", detail: "No property at this house number in 78701." };
}

const SNAPSHOT = { id: "snap_1", captured_at: "2026-11-01T00:00:00Z" };

/** A match service that charges matched rows, holding a credit per row: more rows than credits left is a 402. */
function matchService(credits = { remaining: 100_000 }) {
  return (req: SeenRequest): Response => {
    if (req.method !== "POST" || req.path !== "/v1/commercial/properties/match") {
      return problemResponse(404, { code: "not_found", detail: `no route ${req.method} ${req.path}` });
    }
    const rows = req.body.addresses as Row[];
    if (rows.length > credits.remaining) {
      return problemResponse(402, {
        code: "credits_exhausted",
        detail: "Not enough credits.",
        cost: rows.length,
        credits_remaining: credits.remaining,
        credits_limit: 100_000,
      });
    }
    const data = rows.map((row) => ({ ref: row.ref, ...resultOf(row) }));
    const matched = data.filter((r) => r.status === "matched").length;
    credits.remaining -= matched;
    const body = { object: "property_matches", data, counts: {}, credits_charged: matched, snapshot: SNAPSHOT };
    return new Response(JSON.stringify(body), {
      headers: {
        "content-type": "application/json",
        "x-credits-charged": String(matched),
        "x-credits-remaining": String(credits.remaining),
        "x-credits-limit": "100000",
      },
    });
  };
}

const posts = (requests: SeenRequest[]) => requests.filter((r) => r.method === "POST");
const sent = (requests: SeenRequest[]) => posts(requests).flatMap((r) => (r.body.addresses as Row[]).map(({ ref: _ref, ...row }) => row));

test("one address is its property id; a recalculation asks nothing", async () => {
  const { ctx, requests } = testSession(matchService());
  await expect(matchAddresses("100 Main St, Austin, TX 78701", null, null, null, null, ctx)).resolves.toEqual([["cp_100"]]);
  // Excel passes a cell of an any[][] argument as a one-by-one range.
  await expect(matchAddresses([["100 Main St"]], [["Austin"]], [["Texas"]], [[78701]], null, ctx)).resolves.toEqual([["cp_100"]]);
  expect(sent(requests)).toEqual([
    { address: "100 Main St, Austin, TX 78701" },
    { address: "100 Main St", city: "Austin", state: "TX", zip: "78701" },
  ]);
  requests.length = 0;
  await matchAddresses("100 Main St, Austin, TX 78701", null, null, null, null, ctx);
  await matchAddresses([["100 Main St"]], [["Austin"]], [["TX"]], [["78701"]], null, ctx);
  expect(requests).toHaveLength(0);
});

test("cols= chooses the columns, in order; headers=true names them", async () => {
  const { ctx } = testSession(matchService());
  const options = "cols=property_id,status,score,matched_address,match,parcel_id; headers=true";
  await expect(matchAddresses("7 Main St", "Austin", "TX", null, options, ctx)).resolves.toEqual([
    ["property_id", "status", "score", "matched_address", "match", "parcel_id"],
    ["cp_7", "matched", 1, "7 Main St, Austin, TX 78701", "exact", "par_7"],
  ]);
  await expect(matchAddresses("7 Main St", "Austin", "TX", null, "cols=Matched Address, candidates, detail", ctx)).resolves.toEqual([
    ["7 Main St, Austin, TX 78701", "", ""],
  ]);
  await expect(matchAddresses("7 Main St", "Austin", "TX", null, "cols=owner_name", ctx)).rejects.toThrow(
    /cols: owner_name is not a field here; =PROP.FIELDS\("property_match"\) lists them/,
  );
});

test("a range spills one row per address, in order, a blank address a blank row (not asked); a ZIP number keeps its zeros", async () => {
  const { ctx, requests } = testSession(matchService());
  const addresses = [["1 Main St"], [""], ["2 Main St"], [null], ["1 Main St"], ["3 Main St"]];
  const zips = [[2134], [""], ["78701"], [null], [2134], [78701]];
  const spill = await matchAddresses(addresses, [["Austin"]], "tx", zips, "cols=property_id,matched_address", ctx);
  expect(spill).toEqual([
    ["cp_1", "1 Main St, Austin, TX 02134"],
    ["", ""],
    ["cp_2", "2 Main St, Austin, TX 78701"],
    ["", ""],
    ["cp_1", "1 Main St, Austin, TX 02134"],
    ["cp_3", "3 Main St, Austin, TX 78701"],
  ]);
  // One request, each distinct address once.
  expect(posts(requests)).toHaveLength(1);
  expect(sent(requests)).toEqual([
    { address: "1 Main St", city: "Austin", state: "TX", zip: "02134" },
    { address: "2 Main St", city: "Austin", state: "TX", zip: "78701" },
    { address: "3 Main St", city: "Austin", state: "TX", zip: "78701" },
  ]);
});

test("an address that is not a unique match is an error in its row, naming the candidates or why, and costs nothing", async () => {
  const { ctx, session } = testSession(matchService());
  const rows = await matchAddresses(
    [["623 Washington Blvd"], ["5 Main St"], ["9 Elm St"]],
    "Austin",
    null,
    null,
    "cols=property_id,status,candidates,score",
    ctx,
  );
  expect(rows[1]).toEqual(["cp_5", "matched", "", 1]);
  const [ambiguous, unmatched] = [rows[0], rows[2]];
  expect(ambiguous[0]).toBeInstanceOf(ExcelErrorStandIn);
  expect(ambiguous[0]).toMatchObject({
    code: "#N/A",
    message: "ambiguous: 623 Washington Blvd, Austin, TX 78721 (cp_00005gu); 623 Washington Blvd, Austin, TX 78722 (cp_0000a1b)",
  });
  expect(ambiguous.slice(1, 3)).toEqual([
    "ambiguous",
    "623 Washington Blvd, Austin, TX 78721 (cp_00005gu); 623 Washington Blvd, Austin, TX 78722 (cp_0000a1b)",
  ]);
  expect(ambiguous[3]).toBe(ambiguous[0]);
  expect(unmatched[0]).toMatchObject({ code: "#N/A", message: "unmatched: No property at this house number in 78701." });
  expect(unmatched[1]).toBe("unmatched");
  // Only the matched row was charged.
  expect(session.meter.current()?.chargedThisSession).toBe(1);
});

test("a row the service refuses is #VALUE! with why; one that cannot be sent is refused alone, before any request", async () => {
  const { ctx, requests } = testSession(matchService());
  const spill = await matchAddresses(
    [["5 Main St"], ["6 Main St"], [`${"9".repeat(301)} Main St`], [true]],
    [["Austin"]],
    [[null], ["Atlantis"], [null], [null]],
    null,
    "cols=property_id,status,detail",
    ctx,
  );
  expect(spill[0]).toEqual(["cp_5", "matched", ""]);
  expect(spill[1][0]).toMatchObject({ code: "#VALUE!", message: '"Atlantis" is not a US state.' });
  expect(spill[1].slice(1)).toEqual(["refused", '"Atlantis" is not a US state.']);
  expect(spill[2][0]).toMatchObject({ code: "#VALUE!", message: "address (row 3) is too long (at most 300 characters)." });
  expect(spill[3][0]).toMatchObject({ code: "#VALUE!", message: expect.stringMatching(/address \(row 4\) cannot be TRUE or FALSE/) });
  expect(sent(requests).map((r) => r.address)).toEqual(["5 Main St", "6 Main St"]);
  // The refusal is remembered like the single form's 400: asked again, nothing is sent.
  requests.length = 0;
  await expect(matchAddresses("6 Main St", "Austin", "Atlantis", null, null, ctx)).rejects.toMatchObject({
    code: "#VALUE!",
    message: '"Atlantis" is not a US state.',
  });
  expect(requests).toHaveLength(0);
});

test("one address that is not a match is the cell's own error; arguments that do not line up are #VALUE! before any request", async () => {
  const { ctx, requests } = testSession(matchService());
  await expect(matchAddresses("623 Washington Blvd", null, null, null, null, ctx)).rejects.toMatchObject({
    code: "#N/A",
    message: expect.stringMatching(/^ambiguous: 623 Washington Blvd, Austin, TX 78721 \(cp_00005gu\); /),
  });
  requests.length = 0;
  await expect(matchAddresses([["a", "b"]], null, null, null, null, ctx)).rejects.toThrow(/address: give one column/);
  await expect(matchAddresses([["1 Main St"], ["2 Main St"]], [["Austin"], ["Austin"], ["Austin"]], null, null, null, ctx)).rejects.toThrow(
    /city: give one value, or a range of 2 rows beside the addresses \(got 3 rows\)/,
  );
  await expect(matchAddresses("1 Main St", "cols=status", null, null, null, ctx)).rejects.toThrow(/city: "cols=status" looks like options/);
  await expect(matchAddresses("1 Main St", null, null, null, "limit=5", ctx)).rejects.toThrow(/"limit" is not an option here/);
  // A whole column is refused: more addresses than the cache could keep would be asked again on every recalculation.
  const column = Array.from({ length: 2501 }, () => [""]);
  await expect(matchAddresses(column, null, null, null, null, ctx)).rejects.toThrow(
    /address: at most 2,500 rows in one formula \(got 2,501\)/,
  );
  await expect(matchAddresses([[""], [null]], null, null, null, null, ctx)).resolves.toEqual([[""], [""]]);
  expect(requests).toHaveLength(0);
});

test("the addresses of every cell calculated together go in one request; 1,500 distinct addresses in two, of at most 1,000", async () => {
  const { ctx, requests } = testSession(matchService());
  const column = (from: number, n: number) => Array.from({ length: n }, (_, i) => [`${from + i} Main St`]);
  // Three cells of a workbook, overlapping: 1,500 distinct addresses.
  const cells = await Promise.all([
    matchAddresses(column(1, 800), "Austin", "TX", null, null, ctx),
    matchAddresses(column(501, 1000), "Austin", "TX", null, null, ctx),
    matchAddresses("7 Main St", "Austin", "TX", null, null, ctx),
  ]);
  expect(cells[0][799]).toEqual(["cp_800"]);
  expect(cells[1][999]).toEqual(["cp_1500"]);
  expect(cells[2]).toEqual([["cp_7"]]);
  expect(posts(requests).map((r) => r.body.addresses.length)).toEqual([1000, 500]);
  expect(new Set(sent(requests).map((r) => r.address)).size).toBe(1500);
});

test("a batch of more rows than credits left is asked again with the rows they cover; the rest are #N/A, and asked again later", async () => {
  const credits = { remaining: 3 };
  const { ctx, requests } = testSession(matchService(credits));
  const spill = await matchAddresses(
    [["1 Main St"], ["2 Main St"], ["3 Main St"], ["4 Main St"], ["5 Main St"]],
    "Austin",
    null,
    null,
    null,
    ctx,
  );
  expect(spill.slice(0, 3)).toEqual([["cp_1"], ["cp_2"], ["cp_3"]]);
  for (const row of spill.slice(3)) expect(row[0]).toMatchObject({ code: "#N/A", message: expect.stringMatching(/costs 5 credits/) });
  expect(posts(requests).map((r) => r.body.addresses.length)).toEqual([5, 3]);
  // Credits back: the two rows not answered are asked for again, the others come from the cache.
  credits.remaining = 10;
  requests.length = 0;
  await expect(
    matchAddresses([["1 Main St"], ["2 Main St"], ["3 Main St"], ["4 Main St"], ["5 Main St"]], "Austin", null, null, null, ctx),
  ).resolves.toEqual([["cp_1"], ["cp_2"], ["cp_3"], ["cp_4"], ["cp_5"]]);
  expect(sent(requests).map((r) => r.address)).toEqual(["4 Main St", "5 Main St"]);
});

test("as_of pins the match request to a snapshot, and its answers are kept apart from the latest's", async () => {
  const { ctx, requests } = testSession(matchService());
  await matchAddresses("1 Main St", "Austin", null, null, "as_of=2026-10-01", ctx);
  await matchAddresses("1 Main St", "Austin", null, null, null, ctx);
  expect(posts(requests).map((r) => r.query)).toEqual([{ as_of: "2026-10-01" }, {}]);
  requests.length = 0;
  await matchAddresses("1 Main St", "Austin", null, null, "as_of=2026-10-01", ctx);
  expect(requests).toHaveLength(0);
  expect(ctx.session.cache.list().map((e) => e.key.replace(/^[^|]*\|/, ""))).toEqual(
    expect.arrayContaining([
      "GET /v1/commercial/properties/match?address=1+Main+St&as_of=2026-10-01&city=Austin",
      "GET /v1/commercial/properties/match?address=1+Main+St&city=Austin",
    ]),
  );
});

test("a formula-edit preview sends nothing and says so in one cell", async () => {
  const { ctx, requests } = testSession(matchService());
  await expect(matchAddresses([["1 Main St"], ["2 Main St"]], "Austin", null, null, null, { ...ctx, preview: true })).rejects.toMatchObject(
    {
      code: "preview_not_fetched",
    },
  );
  expect(requests).toHaveLength(0);
});
