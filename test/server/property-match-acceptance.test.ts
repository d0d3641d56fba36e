// Address matching against its acceptance set (scripts/address-variants.ts): the test snapshot's
// properties typed the ways analysts type them, misspelt, and addresses it does not hold, sent
// through the API. Targets: at most 1 wrong unique match in 200, 98% of the clean variants
// matched, 80% of the typos matched or offered among the candidates, no absent address matched,
// and no credit for a row not matched.
import type { MatchResult } from "../../src/contract/property-match";
import { MATCH_MAX_ROWS } from "../../src/contract/property-match";
import { type AddressVariant, addressVariants, readVariantRows } from "../../scripts/address-variants";
import { accuracyOf } from "../../scripts/match-accuracy";
import { type TestService, startService } from "../helpers/service";

let svc: TestService;
let auth: Record<string, string>;

beforeAll(async () => {
  svc = await startService({ email: null });
  // The operators' plan: a thousand-row request holds a thousand credits.
  const account = await svc.stores.accounts.create("matching@example.com", "unlimited");
  auth = { authorization: `Bearer ${(await svc.stores.keys.createKey(account.id, "matching")).raw}` };
});
afterAll(() => svc.app.close());

/** The variants' results through the API, and the credits each request was charged. */
async function matchThrough(variants: AddressVariant[]): Promise<{ results: MatchResult[]; charged: number; matched: number }> {
  const results: MatchResult[] = [];
  let charged = 0;
  let matched = 0;
  for (let i = 0; i < variants.length; i += MATCH_MAX_ROWS) {
    const addresses = variants.slice(i, i + MATCH_MAX_ROWS).map((v, j) => ({ ref: String(i + j), ...v.input }));
    const res = await svc.post("/v1/commercial/properties/match", { addresses }, auth);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((r: MatchResult) => r.ref)).toEqual(addresses.map((a) => a.ref));
    results.push(...body.data);
    charged += Number(res.headers["x-credits-charged"]);
    matched += body.counts.matched;
  }
  return { results, charged, matched };
}

test.each([1, 2])("seed %i: the targets are met, and only matched rows are charged", async (seed) => {
  const variants = addressVariants(readVariantRows(svc.snapshot), { seed, perKind: 60 });
  expect(new Set(variants.map((v) => v.group))).toEqual(new Set(["clean", "typo", "absent"]));
  const { results, charged, matched } = await matchThrough(variants);
  const figures = accuracyOf(variants, results);
  expect(figures.wrong).toBeLessThanOrEqual(Math.floor(figures.matched / 200));
  expect(figures.precision).toBeGreaterThanOrEqual(0.995);
  expect(figures.clean).toBeGreaterThanOrEqual(0.98);
  expect(figures.typos).toBeGreaterThanOrEqual(0.8);
  expect(figures.absentMatched).toBe(0);
  expect([charged, matched]).toEqual([figures.matched, figures.matched]);
});

test("the figures count a wrong match, an offered candidate and an absent address matched as such", () => {
  const variants: AddressVariant[] = [
    { kind: "as_stored", group: "clean", input: {}, expected: "a" },
    { kind: "street_typo", group: "typo", input: {}, expected: "b" },
    { kind: "other_state", group: "absent", input: {}, expected: null },
  ];
  const figures = accuracyOf(variants, [
    { status: "matched", property_id: "x", candidates: [] },
    { status: "ambiguous", property_id: null, candidates: [{ property_id: "b", address: "", score: 0.5 }] },
    { status: "matched", property_id: "y", candidates: [] },
  ]);
  expect(figures).toMatchObject({ wrong: 2, matched: 2, precision: 0, clean: 0, typos: 1, absentMatched: 1 });
});
