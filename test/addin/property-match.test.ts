// PROP.MATCH over a stubbed match service (a fresh session per test): one address is its id, a
// range spills a row per address in order, the addresses of every cell calculated together go in
// one match request (1,000 rows at most), each row is cached as the single form's answer, rows
// that are not a match are error cells saying why, parcel numbers are matched with by=apn, and a
// 402 for a batch is retried with the rows it says the credits left cover.
import { namesProperty } from "../../src/contract/property-match";
import { matchAddresses, noMatchMessage } from "../../src/functions/property-match";
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
  address?: string;
  city?: string;
  state?: string;
  zip?: string;
  apn?: string;
  county?: string;
}

const CANDIDATES = [
  { property_id: "cp_00005gu", address: "623 Washington Blvd, Austin, TX 78721", score: 0.9 },
  { property_id: "cp_0000a1b", address: "623 Washington Blvd, Austin, TX 78722", score: 0.9 },
];

/**
 * The matcher, as the service answers: "<n> Main St" is property cp_<n> (with a city or ZIP code,
 * in its fields or its line), "<n> Mian St" the same, low-confidence (a street spelt
 * differently), "623 Washington Blvd" is ambiguous, a state "Atlantis" is refused, APN
 * "<n>-<n>" in Travis county is cp_<n>, anything else unmatched.
 */
function resultOf(row: Row) {
  const none = { property_id: null, parcel_id: null, matched_address: null, score: null, match: null, candidates: [], detail: null };
  if (row.state === "Atlantis") return { ...none, status: "refused", detail: '"Atlantis" is not a US state.' };
  if (row.apn) {
    const parcel = /^(\d+)-\1$/.exec(row.apn);
    if (parcel && row.county === "Travis") {
      const id = parcel[1];
      return {
        ...none,
        status: "matched",
        property_id: `cp_${id}`,
        parcel_id: `par_${id}`,
        matched_address: `${id} Main St, Austin, TX 78701`,
        score: 1,
        match: "parcel_number",
      };
    }
    return {
      ...none,
      status: "unmatched",
      detail: `No parcel ${row.apn} in ${row.county ?? row.state}: check the parcel number and its county.`,
    };
  }
  const address = row.address ?? "";
  if (address.startsWith("623 Washington")) {
    return {
      ...none,
      status: "ambiguous",
      candidates: CANDIDATES,
      detail:
        "Two properties at 623 Washington Blvd in Austin. Add the ZIP code to tell them apart. " +
        "Candidates: 623 Washington Blvd, Austin, TX 78721 (cp_00005gu); 623 Washington Blvd, Austin, TX 78722 (cp_0000a1b)",
    };
  }
  const main = /^(\d+) (Main|Mian) St/.exec(address);
  if (main && (row.city || row.zip || address.includes(","))) {
    const spelt = main[2] === "Mian";
    return {
      ...none,
      status: "matched",
      property_id: `cp_${main[1]}`,
      parcel_id: `par_${main[1]}`,
      matched_address: `${main[1]} Main St, Austin, TX ${row.zip ?? "78701"}`,
      score: spelt ? 0.8 : 1,
      match: spelt ? "street_spelling" : "exact",
    };
  }
  return { ...none, status: "unmatched", detail: "No property at this house number in 78701: check the street name and house number." };
}

const SNAPSHOT = { id: "snap_1", captured_at: "2026-11-01T00:00:00Z" };

/**
 * A match service as the contract prices it: a credit per row that names a property (matched, or
 * ambiguous with candidates); unmatched and refused rows are free. The price is worked out
 * first: when the credits left cannot pay it, a 402 with the price and how many rows from the
 * first they cover.
 */
function matchService(credits = { remaining: 100_000 }) {
  return (req: SeenRequest): Response => {
    if (req.method !== "POST" || req.path !== "/v1/commercial/properties/match") {
      return problemResponse(404, { code: "not_found", detail: `no route ${req.method} ${req.path}` });
    }
    const rows = req.body.addresses as Row[];
    const data = rows.map((row) => ({ ref: row.ref, ...resultOf(row) }));
    const priced = data.map((r) => (namesProperty(r as Parameters<typeof namesProperty>[0]) ? 1 : 0));
    const price = priced.reduce<number>((a, b) => a + b, 0);
    if (price > credits.remaining) {
      let covered = 0;
      for (let paid = 0; covered < rows.length && paid + priced[covered] <= credits.remaining; covered++) paid += priced[covered];
      return problemResponse(402, {
        code: "credits_exhausted",
        detail: "Not enough credits.",
        cost: price,
        credits_remaining: credits.remaining,
        credits_limit: 100_000,
        rows_covered: covered,
      });
    }
    credits.remaining -= price;
    const body = { object: "property_matches", data, counts: {}, credits_charged: price, snapshot: SNAPSHOT };
    return new Response(JSON.stringify(body), {
      headers: {
        "content-type": "application/json",
        "x-credits-charged": String(price),
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

test("a row that is not a unique match is #N/A saying why and what would make it match; one naming candidates costs a credit", async () => {
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
  // The service's detail: why, what would tell them apart, and the candidates it lists.
  expect(ambiguous[0]).toMatchObject({
    code: "#N/A",
    message:
      "ambiguous: Two properties at 623 Washington Blvd in Austin. Add the ZIP code to tell them apart. " +
      "Candidates: 623 Washington Blvd, Austin, TX 78721 (cp_00005gu); 623 Washington Blvd, Austin, TX 78722 (cp_0000a1b)",
  });
  expect(ambiguous.slice(1, 3)).toEqual([
    "ambiguous",
    "623 Washington Blvd, Austin, TX 78721 (cp_00005gu); 623 Washington Blvd, Austin, TX 78722 (cp_0000a1b)",
  ]);
  expect(ambiguous[3]).toBe(ambiguous[0]);
  expect(unmatched[0]).toMatchObject({
    code: "#N/A",
    message: "unmatched: No property at this house number in 78701: check the street name and house number.",
  });
  expect(unmatched[1]).toBe("unmatched");
  // The matched row and the ambiguous one (it names properties) were charged; the unmatched one is free.
  expect(session.meter.current()?.chargedThisSession).toBe(2);
});

test("noMatchMessage: the detail alone when it lists the candidates; the candidates added when it does not", () => {
  const candidates = CANDIDATES;
  expect(noMatchMessage({ status: "ambiguous", detail: "Add the ZIP code to tell them apart.", candidates })).toBe(
    "ambiguous: Add the ZIP code to tell them apart. Candidates: 623 Washington Blvd, Austin, TX 78721 (cp_00005gu); 623 Washington Blvd, Austin, TX 78722 (cp_0000a1b)",
  );
  expect(noMatchMessage({ status: "ambiguous", detail: null, candidates: candidates.slice(0, 1) })).toBe(
    "ambiguous: Candidates: 623 Washington Blvd, Austin, TX 78721 (cp_00005gu)",
  );
  expect(noMatchMessage({ status: "unmatched", detail: null, candidates: [] })).toBe(
    "unmatched: no property at this address in the snapshot.",
  );
});

test("quality=true adds status, score, match and confidence; a street spelt differently is a low-confidence match", async () => {
  const { ctx } = testSession(matchService());
  await expect(matchAddresses([["7 Main St"], ["8 Mian St"]], "Austin", "TX", null, "quality=true; headers=true", ctx)).resolves.toEqual([
    ["property_id", "status", "score", "match", "confidence"],
    ["cp_7", "matched", 1, "exact", "high"],
    ["cp_8", "matched", 0.8, "street_spelling", "low"],
  ]);
  // The columns asked for first, then those quality adds that are not among them.
  await expect(matchAddresses("8 Mian St", "Austin", "TX", null, "cols=score,matched_address; quality=true", ctx)).resolves.toEqual([
    [0.8, "8 Main St, Austin, TX 78701", "matched", "street_spelling", "low"],
  ]);
  await expect(matchAddresses("7 Main St", "Austin", "TX", null, "cols=property_id,status,score,match", ctx)).resolves.toEqual([
    ["cp_7", "matched", 1, "exact"],
  ]);
  // Not a match: the status in text, the rest #N/A saying why.
  const [row] = await matchAddresses("9 Elm St", "Austin", "TX", null, "quality=true", ctx);
  expect(row[1]).toBe("unmatched");
  for (const cell of [row[0], row[2], row[3], row[4]]) expect(cell).toMatchObject({ code: "#N/A" });
  await expect(matchAddresses("7 Main St", "Austin", "TX", null, "quality=maybe", ctx)).rejects.toThrow(/quality/);
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
    message: expect.stringMatching(
      /^ambiguous: Two properties at 623 Washington Blvd in Austin\. Add the ZIP code .* Candidates: 623 Washington Blvd, Austin, TX 78721 \(cp_00005gu\); /,
    ),
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

test("a 402 saying how many rows the credits cover: those rows are sent, free rows among them, and only the rest are #N/A", async () => {
  // Two credits left; rows 1, 3 and 5 name a property, rows 2, 4 and 6 are free.
  const credits = { remaining: 2 };
  const { ctx, requests } = testSession(matchService(credits));
  const addresses = [["1 Main St"], ["91 Elm St"], ["2 Main St"], ["92 Elm St"], ["3 Main St"], ["93 Elm St"]];
  const spill = await matchAddresses(addresses, "Austin", null, null, null, ctx);
  // The service covers rows 1 to 4 (two paid, two free): four rows are asked again, not two.
  expect(posts(requests).map((r) => r.body.addresses.length)).toEqual([6, 4]);
  expect(spill[0]).toEqual(["cp_1"]);
  expect(spill[1][0]).toMatchObject({ code: "#N/A", message: expect.stringMatching(/^unmatched: /) });
  expect(spill[2]).toEqual(["cp_2"]);
  expect(spill[3][0]).toMatchObject({ code: "#N/A", message: expect.stringMatching(/^unmatched: /) });
  for (const row of spill.slice(4)) expect(row[0]).toMatchObject({ code: "#N/A", message: expect.stringMatching(/costs 3 credits/) });
  expect(credits.remaining).toBe(0);
});

test("80 rows of which 10 name a property, with 50 credits left: one request answers all 80, for 10 credits", async () => {
  const credits = { remaining: 50 };
  const { ctx, requests, session } = testSession(matchService(credits));
  const addresses = Array.from({ length: 80 }, (_, i) => [i % 8 === 0 ? `${i + 1} Main St` : `${i + 1} Elm St`]);
  const spill = await matchAddresses(addresses, "Austin", null, null, null, ctx);
  expect(posts(requests)).toHaveLength(1);
  expect(spill.filter((row) => typeof row[0] === "string" && row[0].startsWith("cp_"))).toHaveLength(10);
  expect(spill.flat().some((cell) => (cell as { message?: string }).message?.includes("credits"))).toBe(false);
  expect(session.meter.current()?.chargedThisSession).toBe(10);
  expect(credits.remaining).toBe(40);
});

test("by=apn: the arguments are parcel number, county and state, sent as apn, county and state, each cached apart", async () => {
  const { ctx, requests } = testSession(matchService());
  const apns = [["12-12"], [""], ["34-34"], ["98-99"]];
  const spill = await matchAddresses(apns, "Travis", "Texas", null, "by=apn; quality=true", ctx);
  expect(spill).toEqual([
    ["cp_12", "matched", 1, "parcel_number", "high"],
    ["", "", "", "", ""],
    ["cp_34", "matched", 1, "parcel_number", "high"],
    [expect.objectContaining({ code: "#N/A" }), "unmatched", ...Array(3).fill(expect.objectContaining({ code: "#N/A" }))],
  ]);
  expect(spill[3][0]).toMatchObject({ message: "unmatched: No parcel 98-99 in Travis: check the parcel number and its county." });
  expect(sent(requests)).toEqual([
    { apn: "12-12", county: "Travis", state: "TX" },
    { apn: "34-34", county: "Travis", state: "TX" },
    { apn: "98-99", county: "Travis", state: "TX" },
  ]);
  // Each row is cached as the single form's answer, its parcel number and county in the key.
  expect(ctx.session.cache.list().map((e) => e.key.replace(/^[^|]*\|/, ""))).toEqual(
    expect.arrayContaining(["GET /v1/commercial/properties/match?apn=12-12&county=Travis&state=TX"]),
  );
  requests.length = 0;
  await expect(matchAddresses("12-12", "Travis", "TX", null, "by=apn", ctx)).resolves.toEqual([["cp_12"]]);
  expect(requests).toHaveLength(0);
  // The same parcel number in another county is another row: asked, not answered from the cache.
  await expect(matchAddresses("12-12", "Hays", "TX", null, "by=apn", ctx)).rejects.toMatchObject({ code: "#N/A" });
  expect(sent(requests)).toEqual([{ apn: "12-12", county: "Hays", state: "TX" }]);
  // A FIPS code held as a number keeps its leading zero.
  requests.length = 0;
  await expect(matchAddresses("12-12", 6037, null, null, "by=apn", ctx)).rejects.toMatchObject({ code: "#N/A" });
  expect(sent(requests)).toEqual([{ apn: "12-12", county: "06037" }]);
});

test("by=apn: a parcel number without county or state is #VALUE! saying so, before any request; a ZIP code is refused", async () => {
  const { ctx, requests } = testSession(matchService());
  await expect(matchAddresses("12-12", null, null, null, "by=apn", ctx)).rejects.toMatchObject({
    code: "#VALUE!",
    message: expect.stringMatching(/^parcel number 12-12 needs its county or state: give the county/),
  });
  const spill = await matchAddresses([["12-12"], ["34-34"]], [["Travis"], [null]], null, null, "by=apn", ctx);
  expect(spill[0]).toEqual(["cp_12"]);
  expect(spill[1][0]).toMatchObject({
    code: "#VALUE!",
    message: expect.stringMatching(/^parcel number 34-34 \(row 2\) needs its county or state/),
  });
  expect(sent(requests)).toEqual([{ apn: "12-12", county: "Travis" }]);
  requests.length = 0;
  await expect(matchAddresses("12-12", "Travis", "TX", "78701", "by=apn", ctx)).rejects.toThrow(/zip: by=apn takes the parcel numbers/);
  await expect(matchAddresses("12-12", "Travis", "TX", null, "by=parcel", ctx)).rejects.toThrow(/by/);
  expect(requests).toHaveLength(0);
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
