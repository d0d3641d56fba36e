// PROP.MATCH end to end: the built functions.js in node:vm, with the stand-in CustomFunctions,
// against the real service over the shared test snapshot. An address is its property id, a
// range spills a row per address, the cells calculated together share one match request, only
// matched rows are charged, a ZIP code held as a number keeps its zeros, a recalculation asks
// nothing, and a pin names the snapshot.
import { ensureAddinBuild } from "./addin-build";
import { loadFunctionsBundle, type FetchCall } from "./bundle-harness";
import { ExcelErrorStandIn } from "./office-stand-ins";
import { startService, type TestService, listenOnLoopback } from "../helpers/service";

interface Row {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
}

let svc: TestService;
let origin: string;
/** Properties whose street line no other property has in its city or ZIP code: each one match; ZIP codes starting with 0. */
let rows: Row[];

beforeAll(async () => {
  await ensureAddinBuild();
  svc = await startService();
  origin = await listenOnLoopback(svc);
  rows = svc.snapshot
    .prepare(
      `SELECT p.id, p.address, p.city, p.state_code, p.zip FROM properties p
       WHERE p.zip LIKE '0%' AND NOT EXISTS (SELECT 1 FROM properties q WHERE q.id <> p.id AND q.address = p.address AND (q.zip = p.zip OR q.city = p.city))
       ORDER BY p.id LIMIT 4`,
    )
    .all() as Row[];
  expect(rows).toHaveLength(4);
}, 240_000);

afterAll(() => svc?.app.close());

const bundle = () => loadFunctionsBundle({ origin, apiKey: svc.key });
const line = (r: Row) => `${r.address}, ${r.city}, ${r.state_code} ${r.zip}`;
const matchCalls = (calls: FetchCall[]) => calls.filter((c) => new URL(c.url).pathname === "/v1/commercial/properties/match");
const sentRows = (call: FetchCall) => (JSON.parse(call.body!) as { addresses: { address: string; zip?: string }[] }).addresses;

test("one address is its property id, with cols= its status, score and address as the snapshot writes it", async () => {
  const loaded = bundle();
  const [a] = rows;
  await expect(loaded.call("MATCH", [[[line(a)]]])).resolves.toEqual([[a.id]]);
  const detailed = await loaded.call("MATCH", [
    [[a.address]],
    [[a.city]],
    [[a.state_code]],
    [[a.zip]],
    "cols=property_id,status,score,matched_address,match",
  ]);
  expect(detailed).toEqual([[a.id, "matched", 1, line(a), expect.stringMatching(/^(exact|normalised)$/)]]);
  const calls = matchCalls(loaded.calls);
  expect(calls.map((c) => [c.method, c.status, c.charged])).toEqual([
    ["POST", 200, 1],
    ["POST", 200, 1],
  ]);
});

test("a ZIP code held as a number is read with its leading zero", async () => {
  const loaded = bundle();
  const [a] = rows;
  await expect(loaded.call("MATCH", [[[a.address]], [[a.city]], null, [[Number(a.zip)]]])).resolves.toEqual([[a.id]]);
  expect(sentRows(matchCalls(loaded.calls)[0])).toEqual([{ ref: "0", address: a.address, city: a.city, zip: a.zip }]);
});

test("a range spills one row per address, in order, blanks blank; cells across the workbook share one request; only matches are charged", async () => {
  const loaded = bundle();
  const [a, b, c, d] = rows;
  const [spill, other] = await Promise.all([
    loaded.call("MATCH", [
      [[c.address], [""], [a.address], ["99999 Zephyrquill Way"], [b.address]],
      [[c.city], [null], [a.city], [a.city], [b.city]],
      [[c.state_code], [null], [a.state_code], [a.state_code], [b.state_code]],
      [[c.zip], [null], [a.zip], [a.zip], [b.zip]],
      "cols=property_id,status",
    ]),
    loaded.call("MATCH", [[[line(d)], [line(a)]]]),
  ]);
  const rowsOf = spill as unknown[][];
  expect(rowsOf[0]).toEqual([c.id, "matched"]);
  expect(rowsOf[1]).toEqual(["", ""]);
  expect(rowsOf[2]).toEqual([a.id, "matched"]);
  expect(rowsOf[3][0]).toBeInstanceOf(ExcelErrorStandIn);
  expect(rowsOf[3]).toEqual([expect.objectContaining({ code: "#N/A", message: expect.stringMatching(/^unmatched: /) }), "unmatched"]);
  expect(rowsOf[4]).toEqual([b.id, "matched"]);
  expect(other).toEqual([[d.id], [a.id]]);
  // Both cells' addresses in one request: six distinct rows, five of them matched and charged.
  const calls = matchCalls(loaded.calls);
  expect(calls).toHaveLength(1);
  expect(sentRows(calls[0])).toHaveLength(6);
  expect(calls[0].charged).toBe(5);
  // A recalculation is answered from the cache.
  await loaded.call("MATCH", [[[line(d)], [line(a)]]]);
  expect(matchCalls(loaded.calls)).toHaveLength(1);
});

test("an address that names several properties is #N/A naming the candidates, for a credit; asked again, nothing is sent", async () => {
  const loaded = bundle();
  const [a] = rows;
  // A street line alone names a street in many places: never matched, only offered.
  const err = await loaded.call("MATCH", [[[a.address]]]).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExcelErrorStandIn);
  expect(err).toMatchObject({ code: "#N/A", message: expect.stringContaining(`ambiguous: ${line(a)} (${a.id})`) });
  // Candidates name properties (their ids and addresses): the row is priced like a match.
  expect(matchCalls(loaded.calls).map((c) => c.charged)).toEqual([1]);
  await expect(loaded.call("MATCH", [[[a.address]]])).rejects.toMatchObject({ code: "#N/A" });
  expect(matchCalls(loaded.calls)).toHaveLength(1);
});

test("a row the service cannot read is #VALUE! with why, the others answered", async () => {
  const loaded = bundle();
  const [a] = rows;
  const spill = (await loaded.call("MATCH", [
    [[a.address], [a.address]],
    [[a.city]],
    [[a.state_code], ["Atlantis"]],
    [[a.zip]],
  ])) as unknown[][];
  expect(spill[0]).toEqual([a.id]);
  expect(spill[1][0]).toMatchObject({ code: "#VALUE!", message: expect.stringMatching(/"Atlantis" is not a US state/) });
});

test("as_of pins the match request to a snapshot", async () => {
  const coverage = (await svc.get("/v1/commercial/coverage")).json() as { snapshot: { id: string } };
  const loaded = bundle();
  const [a] = rows;
  await expect(loaded.call("MATCH", [[[line(a)]], null, null, null, `as_of=${coverage.snapshot.id}`])).resolves.toEqual([[a.id]]);
  const [call] = matchCalls(loaded.calls);
  expect(new URL(call.url).searchParams.get("snapshot")).toBe(coverage.snapshot.id);
  await expect(loaded.call("MATCH", [[[line(a)]], null, null, null, `as_of=${coverage.snapshot.id}`])).resolves.toEqual([[a.id]]);
  expect(matchCalls(loaded.calls)).toHaveLength(1);
});
