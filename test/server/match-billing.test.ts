// What a match call costs, through the API on the run's store: each row priced by its answer
// (a row that names a property costs a credit, one that names none is free, an unchanged row is
// free), validators no client can compute, exactly the rows' price held (a 402 only when the
// credits left cannot pay for the answer, saying how many rows they cover), unknown parameters
// and members refused free, and the rate limit counted per account and weighted by rows.
import { PLANS } from "../../src/server/auth/plans";
import { weakEtagOf } from "../../src/server/http/etag";
import { type TestService, queryString, startService } from "../helpers/service";

interface Row {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
}

const MATCH = "/v1/commercial/properties/match";
const line = (r: Row) => `${r.address}, ${r.city}, ${r.state_code} ${r.zip}`;
const charged = (res: { headers: Record<string, unknown> }) => Number(res.headers["x-credits-charged"]);
const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers["x-credits-remaining"]);
/** A street line no property has: unmatched wherever it is asked. */
const nowhere = (i: number) => ({ ref: `n${i}`, address: `${99000 + (i % 900)} Zephyrquill Way`, zip: "78701" });

interface Answer {
  status: string;
  property_id: string | null;
  parcel_id: string | null;
  matched_address: string | null;
  score: number | null;
  match: string | null;
  candidates: { property_id: string; address: string; score: number }[];
  detail: string | null;
  etag: string | null;
  unchanged: boolean;
}

/** The validator the service used to give: a plain weak hash of the answer's content, which anyone can compute. */
const plainHash = (r: Omit<Answer, "etag" | "unchanged">) =>
  weakEtagOf(JSON.stringify([r.status, r.property_id, r.parcel_id, r.matched_address, r.score, r.match, r.candidates, r.detail]));

let svc: TestService;
let rows: Row[];
// The clock stands still, so a rate limit's bucket refills only when a test moves it.
let t = Date.parse("2026-11-15T12:00:00Z");
let accounts = 0;

beforeAll(async () => {
  svc = await startService({ now: () => new Date(t), email: null });
  // Properties whose street line no other property has in its city or ZIP code: each is one match.
  rows = svc.snapshot
    .prepare(
      `SELECT p.id, p.address, p.city, p.state_code, p.zip FROM properties p
       WHERE NOT EXISTS (SELECT 1 FROM properties q WHERE q.id <> p.id AND q.address = p.address AND (q.zip = p.zip OR q.city = p.city))
       ORDER BY p.id LIMIT 5`,
    )
    .all() as Row[];
  expect(rows).toHaveLength(5);
});
afterAll(() => svc.app.close());

/** A fresh Explorer account (its own credits and rate limit) with `keys` keys, `used` of its credits spent. */
async function account(used = 0, keys = 1) {
  const acct = await svc.accounts.create(`billing${++accounts}@example.com`);
  const raw: string[] = [];
  for (let i = 0; i < keys; i++) raw.push((await svc.keys.createKey(acct.id, `key ${i}`)).raw);
  if (used > 0) {
    const call = { keyId: "spent", endpoint: "GET /v1/test", requestId: `spent_${accounts}` };
    const hold = await svc.stores.credits.hold(acct.id, PLANS.explorer, used, call);
    await svc.stores.credits.settle(hold!, true, call);
  }
  const auth = (key: number) => ({ authorization: `Bearer ${raw[key]}` });
  return {
    id: acct.id,
    get: (url: string, headers: Record<string, string> = {}, key = 0) =>
      svc.app.inject({ method: "GET", url, headers: { ...auth(key), ...headers } }),
    post: (url: string, body: unknown, key = 0) => svc.app.inject({ method: "POST", url, payload: body as object, headers: auth(key) }),
  };
}

describe("each row priced by its answer", () => {
  test("matched 1, ambiguous with candidates 1, unmatched 0, refused 0; unchanged 0 and without content", async () => {
    const a = await account();
    const [p, q] = rows;
    const asked = [
      { ref: "matched", address: line(p) },
      // No city, state or ZIP code: candidates, with their ids and addresses.
      { ref: "ambiguous", address: q.address },
      { ref: "unmatched", address: "99999 Zephyrquill Way", zip: p.zip },
      { ref: "refused", address: p.address, state: "Atlantis" },
    ];
    const first = await a.post(MATCH, { addresses: asked });
    expect(first.statusCode).toBe(200);
    const data = first.json().data as Answer[];
    expect(data.map((r) => r.status)).toEqual(["matched", "ambiguous", "unmatched", "refused"]);
    expect(data[1].candidates.map((c) => c.property_id)).toContain(q.id);
    expect([first.json().credits_charged, charged(first), remaining(first)]).toEqual([2, 2, PLANS.explorer.monthlyCredits - 2]);

    // Asked again with the validators the answers gave: the rows that named a property are unchanged, free, and carry nothing.
    const again = await a.post(MATCH, {
      addresses: asked.map((r, i) => ({ ...r, ...(data[i].etag ? { if_none_match: data[i].etag } : {}) })),
    });
    const second = again.json().data as Answer[];
    expect(second.map((r) => [r.status, r.unchanged])).toEqual([
      ["matched", true],
      ["ambiguous", true],
      ["unmatched", true],
      ["refused", false],
    ]);
    for (const r of second.slice(0, 2)) {
      expect(r).toMatchObject({ property_id: null, parcel_id: null, matched_address: null, candidates: [], detail: null });
    }
    expect([again.json().credits_charged, charged(again)]).toEqual([0, 0]);
  });

  test("the single form: matched 1, ambiguous with candidates 1, unmatched 0, unreadable 0 (400), its own ETag a free 304", async () => {
    const a = await account();
    const [p, q] = rows;
    const matched = await a.get(`${MATCH}?${queryString({ address: line(p) })}`);
    expect([matched.statusCode, matched.json().status, charged(matched)]).toEqual([200, "matched", 1]);
    const ambiguous = await a.get(`${MATCH}?${queryString({ address: q.address })}`);
    expect([ambiguous.statusCode, ambiguous.json().status, charged(ambiguous)]).toEqual([200, "ambiguous", 1]);
    expect(ambiguous.json().candidates.length).toBeGreaterThan(0);
    const unmatched = await a.get(`${MATCH}?${queryString({ address: "99999 Zephyrquill Way", zip: p.zip })}`);
    expect([unmatched.statusCode, unmatched.json().status, charged(unmatched)]).toEqual([200, "unmatched", 0]);
    const unreadable = await a.get(`${MATCH}?${queryString({ address: p.address, state: "Atlantis" })}`);
    expect([unreadable.statusCode, charged(unreadable)]).toEqual([400, 0]);
    const held = await a.get(`${MATCH}?${queryString({ address: q.address })}`, { "if-none-match": ambiguous.headers.etag as string });
    expect([held.statusCode, charged(held), held.body]).toEqual([304, 0, ""]);
    expect(remaining(held)).toBe(PLANS.explorer.monthlyCredits - 2);
  });
});

describe("validators no client can compute", () => {
  test("a plain hash of a row's content is no validator: the row is answered and charged; the one the service gave is", async () => {
    const a = await account();
    const [p, q] = rows;
    const asked = [
      { ref: "1", address: line(p) },
      { ref: "2", address: q.address },
    ];
    const paid = (await a.post(MATCH, { addresses: asked })).json().data as Answer[];
    const forged = paid.map(plainHash);
    expect(forged).not.toEqual(paid.map((r) => r.etag));
    const res = await a.post(MATCH, { addresses: asked.map((r, i) => ({ ...r, if_none_match: forged[i] })) });
    const answered = res.json().data as Answer[];
    expect(answered.map((r) => [r.status, r.unchanged])).toEqual([
      ["matched", false],
      ["ambiguous", false],
    ]);
    expect(answered[0].property_id).toBe(p.id);
    expect(charged(res)).toBe(2);
    const genuine = await a.post(MATCH, { addresses: asked.map((r, i) => ({ ...r, if_none_match: paid[i].etag! })) });
    expect([genuine.json().data.map((r: Answer) => r.unchanged), charged(genuine)]).toEqual([[true, true], 0]);
  });

  test("the single form: a forged If-None-Match is answered and charged; the ETag given is a free 304; * is refused", async () => {
    const a = await account();
    const q = rows[1];
    const url = `${MATCH}?${queryString({ address: q.address })}`;
    const paid = await a.get(url);
    const { object: _o, snapshot: _s, ...content } = paid.json();
    const forged = await a.get(url, { "if-none-match": plainHash(content) });
    expect([forged.statusCode, forged.json().status, charged(forged)]).toEqual([200, "ambiguous", 1]);
    const genuine = await a.get(url, { "if-none-match": paid.headers.etag as string });
    expect([genuine.statusCode, charged(genuine)]).toEqual([304, 0]);
    const wildcard = await a.get(url, { "if-none-match": "*" });
    expect([wildcard.statusCode, wildcard.json().code, charged(wildcard)]).toEqual([400, "validation_failed", 0]);
  });

  test("a validator names the question it answered: another spelling naming the same property is answered and charged", async () => {
    const a = await account();
    const p = rows[0];
    const first = (await a.post(MATCH, { addresses: [{ ref: "1", address: line(p) }] })).json().data[0] as Answer;
    const sameRefElsewhere = await a.post(MATCH, { addresses: [{ ref: "other ref", address: line(p), if_none_match: first.etag! }] });
    expect(sameRefElsewhere.json().data[0].unchanged).toBe(true);
    const otherSpelling = { ref: "1", address: p.address, city: p.city, state: p.state_code, if_none_match: first.etag! };
    const res = await a.post(MATCH, { addresses: [otherSpelling] });
    expect(res.json().data[0]).toMatchObject({ status: "matched", property_id: p.id, unchanged: false });
    expect(charged(res)).toBe(1);
  });
});

describe("charging what the answer costs, near the limit", () => {
  // 80 rows, every eighth naming a property (10 in all), the rest matching nothing.
  const eighty = () =>
    Array.from({ length: 80 }, (_, i) => (i % 8 === 0 ? { ref: `m${i}`, address: line(rows[(i / 8) % rows.length]) } : nowhere(i)));

  test("a call whose rows cost more than is left gets 402 with its real cost and the rows the credits left cover", async () => {
    const limit = PLANS.explorer.monthlyCredits;
    const a = await account(limit - 5);
    const res = await a.post(MATCH, { addresses: eighty() });
    expect(res.statusCode).toBe(402);
    const problem = res.json();
    // Rows 0, 8, ..., 32 are the five the credits pay for; row 40 is the sixth that costs.
    expect(problem).toMatchObject({ code: "credits_exhausted", cost: 10, credits_remaining: 5, credits_limit: limit, rows_covered: 40 });
    expect(problem.detail).toContain("This call costs 10 credits");
    expect(problem.detail).toContain("the 5 credits left cover its first 40 of 80 rows: send those alone.");
    expect([charged(res), remaining(res)]).toEqual([0, 5]);
    // Sent alone, those rows are answered.
    const covered = await a.post(MATCH, { addresses: eighty().slice(0, problem.rows_covered) });
    expect([covered.statusCode, covered.json().credits_charged, remaining(covered)]).toEqual([200, 5, 0]);
  });

  test("a call the credits left pay for is answered, however many rows it has", async () => {
    const a = await account(PLANS.explorer.monthlyCredits - 10);
    const res = await a.post(MATCH, { addresses: eighty() });
    expect([res.statusCode, res.json().credits_charged, remaining(res)]).toEqual([200, 10, 0]);
    // With nothing left, a thousand rows that name no property are still answered, free.
    const free = await a.post(MATCH, { addresses: Array.from({ length: 1000 }, (_, i) => nowhere(i)) });
    expect([free.statusCode, free.json().counts.unmatched, charged(free)]).toEqual([200, 1000, 0]);
  });

  test("50 sequential calls near the limit, each holding credits it gives back, never meet a false 402", async () => {
    const a = await account(PLANS.explorer.monthlyCredits - 1);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      // A detail of no property holds its credit and gives it back (404); a match of nothing holds none.
      statuses.push((await a.get("/v1/commercial/properties/prop_does_not_exist")).statusCode);
      statuses.push((await a.post(MATCH, { addresses: [nowhere(i)] })).statusCode);
    }
    expect(statuses.filter((s) => s === 402)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([404, 200]));
    const last = await a.get(`${MATCH}?${queryString({ address: line(rows[0]) })}`);
    expect([last.statusCode, charged(last), remaining(last)]).toEqual([200, 1, 0]);
    t += 10_000; // the bucket refilled for the tests after
  });
});

describe("unknown parameters and members are refused, free", () => {
  test.each(["zz_unknown", "LIMIT", "api_key", "zip_code"])("the single form refuses the query parameter %s", async (name) => {
    const a = await account();
    const res = await a.get(`${MATCH}?${queryString({ address: line(rows[0]), [name]: "78701" })}`);
    expect([res.statusCode, res.json().code, charged(res)]).toEqual([400, "validation_failed", 0]);
    expect(JSON.stringify(res.json())).toContain(name);
  });

  test("a request refuses a member its body or a row does not have", async () => {
    const a = await account();
    const row = { ref: "1", address: line(rows[0]) };
    for (const body of [{ addresses: [row], zz_unknown: 1 }, { addresses: [row, { ...row, zip_code: "78701" }] }]) {
      const res = await a.post(MATCH, body);
      expect([res.statusCode, res.json().code, charged(res)]).toEqual([400, "validation_failed", 0]);
    }
  });
});

describe("rate limits per account, weighted by rows", () => {
  test("two keys of one account share one bucket; a request weighs one call per started 100 rows", async () => {
    const burst = PLANS.explorer.rate.burst;
    const a = await account(0, 2);
    const thousand = { addresses: Array.from({ length: 1000 }, (_, i) => nowhere(i)) };
    // Five thousand-row requests on the first key weigh 50 calls.
    for (let i = 0; i < 5; i++) expect((await a.post(MATCH, thousand, 0)).statusCode).toBe(200);
    // The second key draws on the same bucket: 9 single calls leave one call's worth ...
    for (let i = 0; i < burst - 51; i++) expect((await a.post(MATCH, { addresses: [nowhere(i)] }, 1)).statusCode).toBe(200);
    // ... which a 101-row request (weighing 2) cannot have: refused once its body is read.
    const heavy = await a.post(MATCH, { addresses: Array.from({ length: 101 }, (_, i) => nowhere(i)) }, 1);
    expect([heavy.statusCode, heavy.json().code, charged(heavy)]).toEqual([429, "rate_limited", 0]);
    expect(heavy.json().detail).toMatch(/This call weighs 2 calls \(one per started 100 rows\)/);
    expect(heavy.headers["ratelimit"]).toBe('"burst";r=0;t=6');
    expect(heavy.headers["retry-after"]).toBe("1");
    // The first key is refused too: the bucket is the account's.
    const single = await a.get(`${MATCH}?${queryString({ address: line(rows[0]) })}`, {}, 0);
    expect(single.statusCode).toBe(429);
    // Another account has its own.
    const b = await account();
    expect((await b.get(`${MATCH}?${queryString({ address: line(rows[0]) })}`)).statusCode).toBe(200);
    t += 10_000;
  });
});

describe("no validator of a GET is a plain hash of its content", () => {
  test("a page past the end of a list (little more than its total_count) cannot be confirmed free by a computed ETag", async () => {
    const a = await account();
    const url = `/v1/parcels?${queryString({ state_code: rows[0].state_code, limit: 1, offset: 9000 })}`;
    const paid = await a.get(url);
    expect([paid.statusCode, paid.json().data, charged(paid)]).toEqual([200, [], 1]);
    expect(paid.json().total_count).toBeGreaterThan(0);
    // What the service used to give: the weak hash of the body without its snapshot ref.
    const forged = weakEtagOf(paid.body.replace(svc.app.snapshot.refMember, ""));
    expect(paid.headers.etag).not.toBe(forged);
    const guessed = await a.get(url, { "if-none-match": forged });
    expect([guessed.statusCode, charged(guessed)]).toEqual([200, 1]);
    const held = await a.get(url, { "if-none-match": paid.headers.etag as string });
    expect([held.statusCode, charged(held)]).toEqual([304, 0]);
  });
});
