// Matching addresses and parcel numbers to properties, through the API: one result per row in
// the order sent, each row read on its own (a bad row refused alone), candidates for the rows
// that are not a unique match, credits for the rows that name a property, and a row asked again with the
// validator of its answer free while the answer is the same.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MATCH_LOW_CONFIDENCE_SCORE, MATCH_MAX_ROWS } from "../../src/contract/property-match";
import { MATCH_KEYS_TABLE } from "../../src/snapshot/match-keys";
import { type TestService, pick, queryString, snapshotPath, startService } from "../helpers/service";
import { tempDir } from "../snapshot/files";

interface Row {
  id: string;
  address: string;
  city: string;
  state_code: string;
  zip: string;
  county: string;
  parcel_id: string;
  apn: string;
}

let svc: TestService;
let rows: Row[];
const line = (r: Row) => `${r.address}, ${r.city}, ${r.state_code} ${r.zip}`;
const charged = (res: { headers: Record<string, unknown> }) => Number(res.headers["x-credits-charged"]);

beforeAll(async () => {
  svc = await startService();
  // Properties whose street line no other property has in its city or ZIP code: each is one match.
  rows = svc.snapshot
    .prepare(
      `SELECT p.id, p.address, p.city, p.state_code, p.zip, p.county, p.parcel_id, pa.apn FROM properties p JOIN parcels pa ON pa.id = p.parcel_id
       WHERE NOT EXISTS (SELECT 1 FROM properties q WHERE q.id <> p.id AND q.address = p.address AND (q.zip = p.zip OR q.city = p.city))
       ORDER BY p.id LIMIT 5`,
    )
    .all() as Row[];
  expect(rows).toHaveLength(5);
});
afterAll(() => svc.app.close());

describe("POST /v1/commercial/properties/match", () => {
  test("answers one result per row in the order sent, and charges the matched rows only", async () => {
    const [a, b, c] = rows;
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "r1", address: line(a) },
        { ref: "r2", address: b.address.toLowerCase(), city: b.city, state: b.state_code },
        { ref: "r3", address: "99999 Zephyrquill Way", zip: c.zip },
        { ref: "r4", state: "Atlantis", address: a.address },
        { ref: "r5", apn: c.apn.replace(/[^0-9A-Z]/gi, ""), county: c.county, state: c.state_code },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.object).toBe("property_matches");
    expect(body.data.map((r: { ref: string; status: string; property_id: string | null }) => [r.ref, r.status, r.property_id])).toEqual([
      ["r1", "matched", a.id],
      ["r2", "matched", b.id],
      ["r3", "unmatched", null],
      ["r4", "refused", null],
      ["r5", "matched", c.id],
    ]);
    expect(body.data[0]).toMatchObject({
      parcel_id: a.parcel_id,
      matched_address: line(a),
      score: 1,
      match: "exact",
      candidates: [],
      detail: null,
    });
    expect(body.data[4]).toMatchObject({ match: "parcel_number", score: 1 });
    expect(body.data[3].detail).toMatch(/"Atlantis" is not a US state/);
    expect(body.counts).toEqual({ matched: 3, ambiguous: 0, unmatched: 1, refused: 1 });
    expect([body.credits_charged, charged(res)]).toEqual([3, 3]);
  });

  test("a row that is not a unique match names its candidates, and so costs a credit", async () => {
    const a = rows[0];
    // No city, state or ZIP code: the street is known, where it is not.
    const res = await svc.post("/v1/commercial/properties/match", { addresses: [{ ref: "x", address: a.address }] });
    const [result] = res.json().data;
    expect(result).toMatchObject({ status: "ambiguous", property_id: null, score: null, match: null });
    expect(result.candidates.map((c: { property_id: string }) => c.property_id)).toContain(a.id);
    expect(result.detail).toContain(a.id);
    expect(charged(res)).toBe(1);
  });

  test("a misspelt street matches in its ZIP code, never across house numbers or outside its city", async () => {
    const a = rows[1];
    const [number, ...street] = a.address.split(" ");
    const misspelt = `${street[0].slice(0, 1)}${street[0].slice(2)}`;
    const typo = [number, misspelt, ...street.slice(1)].join(" ");
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "typo", address: `${typo}, ${a.city}, ${a.state_code} ${a.zip}` },
        { ref: "other number", address: `${Number(number) + 1} ${street.join(" ")}, ${a.city}, ${a.state_code} ${a.zip}` },
        { ref: "no place", address: typo },
      ],
    });
    const data = res.json().data;
    expect(data[0]).toMatchObject({ status: "matched", property_id: a.id, match: "street_spelling" });
    expect(data[0].score).toBeLessThan(MATCH_LOW_CONFIDENCE_SCORE);
    expect(data[1].status).toBe("unmatched");
    expect(data[2].status).not.toBe("matched");
    expect(charged(res)).toBe(1);
  });

  test("a city misspelt beside a ZIP code still matches; without one its property is offered, not matched", async () => {
    const a = rows[3];
    const misspelt = `${a.city.slice(0, 2)}${a.city.slice(3)}`;
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "line", address: `${a.address}, ${misspelt}, ${a.state_code} ${a.zip}` },
        { ref: "fields", address: a.address, city: misspelt, state: a.state_code, zip: a.zip },
        { ref: "no zip", address: a.address, city: misspelt, state: a.state_code },
      ],
    });
    const data = res.json().data;
    expect(data.map((r: { status: string; property_id: string | null }) => [r.status, r.property_id])).toEqual([
      ["matched", a.id],
      ["matched", a.id],
      ["ambiguous", null],
    ]);
    expect(data[2].candidates[0].property_id).toBe(a.id);
  });

  test("a street one letter from a property's that is itself a street's name is that street: offered with why, in either form", async () => {
    // Hill Dr at a number, and no Mill Dr there in its city or ZIP code: "Mill Dr" is a real street the snapshot may not hold.
    const pairs = [
      ["Hill", "Mill"],
      ["Mill", "Hill"],
      ["Pine", "Vine"],
      ["Vine", "Pine"],
    ];
    const a = pairs
      .map(([held, typed]) => {
        const row = svc.snapshot
          .prepare(
            `SELECT p.id, p.address, p.city, p.state_code, p.zip FROM properties p WHERE p.address LIKE ? AND NOT EXISTS
             (SELECT 1 FROM properties q WHERE q.address = replace(p.address, ?, ?) AND (q.city = p.city OR q.zip = p.zip)) ORDER BY p.id`,
          )
          .get(`% ${held} %`, ` ${held} `, ` ${typed} `) as Row | undefined;
        return row && { row, typed: row.address.replace(` ${held} `, ` ${typed} `), held: row.address.split(" ").slice(1).join(" ") };
      })
      .find((x) => x !== undefined)!;
    expect(a).toBeDefined();
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "line", address: `${a.typed}, ${a.row.city}, ${a.row.state_code} ${a.row.zip}` },
        { ref: "columns", address: a.typed, city: a.row.city, state: a.row.state_code, zip: a.row.zip },
      ],
    });
    const data = res.json().data;
    for (const r of data) {
      expect(r).toMatchObject({ status: "ambiguous", property_id: null });
      expect(r.candidates.map((c: { property_id: string }) => c.property_id)).toEqual([a.row.id]);
      const typedStreet = a.typed.split(" ").slice(1).join(" ");
      expect(r.detail).toContain(
        `Street "${typedStreet}" is not in the snapshot at ${a.typed.split(" ")[0]}; "${a.held}" is a different street`,
      );
    }
  });

  test("a row whose ZIP code is not its city's property's is ambiguous in both forms, saying which to check", async () => {
    const a = rows[0];
    const other = pick<Row>(svc, "SELECT zip FROM properties WHERE zip <> ? AND state_code = ? ORDER BY id", a.zip, a.state_code);
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "line", address: `${a.address}, ${a.city}, ${other.zip}` },
        { ref: "columns", address: a.address, city: a.city, zip: other.zip },
        { ref: "stated", address: a.address, city: a.city, state: a.state_code, zip: other.zip },
      ],
    });
    for (const r of res.json().data) {
      expect(r).toMatchObject({ status: "ambiguous", property_id: null });
      expect(r.candidates.map((c: { property_id: string }) => c.property_id)).toContain(a.id);
      expect(r.detail).toContain(`The ZIP code ${other.zip} is not in ${a.city}: check the ZIP code or the city.`);
    }
  });

  test("a row whose ZIP code and city are a property's, in another state, offers it and says to check the state", async () => {
    const a = rows[0];
    const state = a.state_code === "WY" ? "VT" : "WY";
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "line", address: `${a.address}, ${a.city}, ${state} ${a.zip}` },
        { ref: "columns", address: a.address, city: a.city, state, zip: a.zip },
        { ref: "zip only", address: a.address, state, zip: a.zip },
      ],
    });
    const data = res.json().data;
    for (const r of data.slice(0, 2)) {
      expect(r).toMatchObject({ status: "ambiguous", candidates: [expect.objectContaining({ property_id: a.id })] });
      expect(r.detail).toContain(`The ZIP code ${a.zip} and ${a.city} are not in ${state}: check the state.`);
    }
    // The ZIP code alone in another state names nothing.
    expect(data[2].status).toBe("unmatched");
  });

  test("an unmatched or refused row's detail names nothing the snapshot holds, only what it typed", async () => {
    const [a, b] = rows;
    const [number, ...street] = a.address.split(" ");
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "number", address: `${Number(number) + 100000} ${street.join(" ")}`, city: a.city, zip: a.zip },
        { ref: "state", address: `${a.address}, ${b.city}, ${b.state_code === a.state_code ? "WY" : b.state_code} 99999` },
        { ref: "zip", address: a.address, zip: "123" },
        { ref: "apn", apn: "ZZ-000-000", county: a.county },
      ],
    });
    const data = res.json().data as { status: string; detail: string }[];
    expect(data.map((r) => r.status)).toEqual(["unmatched", "unmatched", "refused", "unmatched"]);
    for (const r of data) {
      expect(r.detail).not.toMatch(new RegExp(`${a.id}|${a.address}|${a.city}`));
      expect(r.detail).toMatch(/check|Give|not a ZIP code|No property/);
    }
    expect(charged(res)).toBe(0);
  });

  test("a city named like a state (Washington) beside its ZIP code is the city", async () => {
    const a = pick<Row>(
      svc,
      `SELECT p.id, p.address, p.city, p.state_code, p.zip FROM properties p WHERE p.city = 'Washington' AND p.state_code <> 'WA'
       AND NOT EXISTS (SELECT 1 FROM properties q WHERE q.id <> p.id AND q.address = p.address AND (q.zip = p.zip OR q.city = p.city)) ORDER BY p.id`,
    );
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "line", address: `${a.address}, ${a.city}, ${a.zip}` },
        { ref: "columns", address: a.address, city: a.city, zip: a.zip },
      ],
    });
    expect(res.json().data.map((r: { status: string; property_id: string }) => [r.status, r.property_id])).toEqual([
      ["matched", a.id],
      ["matched", a.id],
    ]);
  });

  test("a ZIP code that lost its leading zero after the state is read as the ZIP code", async () => {
    const a = pick<Row>(svc, "SELECT id, address, city, state_code, zip FROM properties WHERE zip LIKE '0%' ORDER BY id");
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [{ ref: "1", address: `${a.address}, ${a.city}, ${a.state_code} ${a.zip.slice(1)}` }],
    });
    expect(res.json().data[0]).toMatchObject({ status: "matched", property_id: a.id });
  });

  test("a request of the wrong shape is refused whole, free", async () => {
    const tooMany = Array.from({ length: MATCH_MAX_ROWS + 1 }, (_, i) => ({ ref: String(i), address: line(rows[0]) }));
    for (const body of [{ addresses: [] }, { addresses: tooMany }, { addresses: [{ address: "1 Main St" }] }, { rows: [] }]) {
      const res = await svc.post("/v1/commercial/properties/match", body);
      expect([res.statusCode, res.json().code, charged(res)]).toEqual([400, "validation_failed", 0]);
    }
  });

  test("a thousand rows written out in full fit in a request; a body over 1 MiB is refused (413)", async () => {
    const a = rows[0];
    const long = {
      ref: "x".repeat(200),
      address: `${line(a)}, ${"Building of the long name ".repeat(9)}`,
      city: a.city,
      state: a.state_code,
    };
    const full = Array.from({ length: MATCH_MAX_ROWS }, (_, i) => ({ ...long, ref: `${i}`.padStart(200, "0") }));
    expect(JSON.stringify({ addresses: full }).length).toBeGreaterThan(500 * 1024);
    // The operators' plan: a thousand rows hold a thousand credits while they are matched.
    const account = await svc.stores.accounts.create("large@example.com", "unlimited");
    const auth = { authorization: `Bearer ${(await svc.stores.keys.createKey(account.id, "large")).raw}` };
    const ok = await svc.post("/v1/commercial/properties/match", { addresses: full }, auth);
    expect([ok.statusCode, ok.json().data.length]).toEqual([200, MATCH_MAX_ROWS]);
    const over = await svc.post("/v1/commercial/properties/match", { addresses: full, padding: "x".repeat(1024 * 1024) }, auth);
    expect([over.statusCode, over.json().code, charged(over)]).toEqual([413, "payload_too_large", 0]);
  });

  test("a key pasted into a row's ref is not echoed", async () => {
    const res = await svc.post("/v1/commercial/properties/match", { addresses: [{ ref: svc.key, address: line(rows[0]) }] });
    expect(res.body).not.toContain(svc.key);
  });
});

describe("GET /v1/commercial/properties/match", () => {
  test("matches one address for a credit, answers an unmatched one free, and refuses an unreadable one free", async () => {
    const a = rows[2];
    const ok = await svc.get(`/v1/commercial/properties/match?${queryString({ address: a.address, city: a.city, state: a.state_code })}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ object: "property_match", status: "matched", property_id: a.id, matched_address: line(a) });
    expect(ok.json()).not.toHaveProperty("ref");
    expect(charged(ok)).toBe(1);
    const none = await svc.get(`/v1/commercial/properties/match?${queryString({ address: "1 Zephyrquill Way", zip: a.zip })}`);
    expect([none.statusCode, none.json().status, charged(none)]).toEqual([200, "unmatched", 0]);
    const refused: Record<string, string>[] = [{}, { apn: a.apn }, { address: a.address, zip: "7872" }];
    for (const q of refused) {
      const bad = await svc.get(`/v1/commercial/properties/match?${queryString(q)}`);
      expect([bad.statusCode, bad.json().code, charged(bad)]).toEqual([400, "validation_failed", 0]);
    }
  });
});

describe("asking again: a row's validator", () => {
  test("a row sent with the etag of its answer is unchanged and free; the single form gives the same validator and a free 304", async () => {
    const [a, b] = rows;
    const rowsOf = (etags: Array<string | undefined>) => ({
      addresses: [
        { ref: "a", address: line(a), ...(etags[0] ? { if_none_match: etags[0] } : {}) },
        { ref: "b", address: line(b), ...(etags[1] ? { if_none_match: etags[1] } : {}) },
        { ref: "x", address: "99999 Zephyrquill Way", zip: a.zip, ...(etags[2] ? { if_none_match: etags[2] } : {}) },
      ],
    });
    const first = await svc.post("/v1/commercial/properties/match", rowsOf([]));
    const data = first.json().data as Array<{ etag: string; unchanged: boolean; status: string }>;
    expect(data.map((r) => [r.status, r.unchanged, /^W\/"[\w-]+"$/.test(r.etag)])).toEqual([
      ["matched", false, true],
      ["matched", false, true],
      ["unmatched", false, true],
    ]);
    expect(charged(first)).toBe(2);

    // The single form's ETag for the same address is the row's: If-None-Match is a free 304.
    const single = await svc.get(`/v1/commercial/properties/match?${queryString({ address: line(a) })}`);
    expect(single.headers.etag).toBe(data[0].etag);
    const again = await svc.get(`/v1/commercial/properties/match?${queryString({ address: line(a) })}`, { "if-none-match": data[0].etag });
    expect([again.statusCode, charged(again)]).toEqual([304, 0]);

    // a's held answer is current (free), b's validator is another answer's (charged), the unmatched row free either way.
    const second = await svc.post("/v1/commercial/properties/match", rowsOf([data[0].etag, data[2].etag, data[2].etag]));
    const body = second.json();
    // A free answer carries no data: an unchanged row is its status and validator only.
    expect(
      body.data.map((r: { unchanged: boolean; status: string; property_id: string | null }) => [r.unchanged, r.status, r.property_id]),
    ).toEqual([
      [true, "matched", null],
      [false, "matched", b.id],
      [true, "unmatched", null],
    ]);
    expect(body.data[0]).toMatchObject({
      matched_address: null,
      score: null,
      match: null,
      candidates: [],
      detail: null,
      etag: data[0].etag,
    });
    expect([body.credits_charged, charged(second)]).toEqual([1, 1]);
  });

  test('"*" is no validator of an answer: that row is refused, free, the others answered', async () => {
    const res = await svc.post("/v1/commercial/properties/match", {
      addresses: [
        { ref: "1", address: line(rows[0]), if_none_match: "*" },
        { ref: "2", address: line(rows[1]) },
      ],
    });
    const body = res.json();
    expect(body.data.map((r: { status: string; etag: string | null }) => [r.status, r.etag === null])).toEqual([
      ["refused", true],
      ["matched", false],
    ]);
    expect(body.data[0].detail).toMatch(/if_none_match is "\*"/);
    expect(charged(res)).toBe(1);
  });
});

test("a snapshot without the match index says so (503) rather than match nothing", async () => {
  const dir = tempDir("match-none-");
  const file = path.join(dir, "snapshot.db");
  fs.copyFileSync(snapshotPath(), file);
  const db = new Database(file);
  db.exec(`DROP TABLE ${MATCH_KEYS_TABLE}`);
  db.close();
  const bare = await startService({ snapshotFile: file });
  try {
    const res = await bare.post("/v1/commercial/properties/match", { addresses: [{ ref: "1", address: line(rows[0]) }] });
    expect([res.statusCode, res.json().code, charged(res)]).toEqual([503, "service_unavailable", 0]);
    expect(res.json().detail).toMatch(/no match index/);
  } finally {
    await bare.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
