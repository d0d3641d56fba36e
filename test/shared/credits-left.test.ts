// withinCreditsLeft: a batch the credits left cannot pay for is asked again with the keys they
// cover, by the 402's rows_covered when it says (a match request, whose free rows cost nothing),
// else by the credits left over each key's price; the rest settle with the 402.
import { ApiError } from "../../src/shared/api-error";
import { withinCreditsLeft, type BatchOutcome } from "../../src/shared/batcher";

const shortfall = (extensions: Record<string, unknown>) =>
  new ApiError(402, "credits_exhausted", "Not enough credits.", null, [], {
    extensions: { cost: 10, credits_remaining: 2, credits_limit: 1000, ...extensions },
  });

/** A fetch that answers `answerable` keys or fewer and otherwise throws `err`, recording what it was asked. */
function fetcher(answerable: number, err: ApiError) {
  const asked: string[][] = [];
  const fetch = (keys: string[]) => {
    asked.push(keys);
    if (keys.length > answerable) return Promise.reject(err);
    return Promise.resolve(new Map<string, BatchOutcome>(keys.map((k) => [k, { record: { key: k } }])));
  };
  return { asked, fetch };
}

const keys = ["a", "b", "c", "d", "e", "f"];

test("rows_covered: those keys are asked again (more than the credits left, as free rows cost nothing), the rest get the 402", async () => {
  const err = shortfall({ rows_covered: 4 });
  expect(err.shortfall).toMatchObject({ remaining: 2, rowsCovered: 4 });
  const { asked, fetch } = fetcher(4, err);
  const outcomes = await withinCreditsLeft(keys, fetch);
  expect(asked).toEqual([keys, ["a", "b", "c", "d"]]);
  expect(["a", "b", "c", "d"].map((k) => "record" in outcomes.get(k)!)).toEqual([true, true, true, true]);
  expect(outcomes.get("e")).toEqual({ error: err });
  expect(outcomes.get("f")).toEqual({ error: err });
});

test("without rows_covered: the credits left over each key's price, as the other batch endpoints are priced", async () => {
  const err = shortfall({});
  expect(err.shortfall?.rowsCovered).toBeNull();
  const one = fetcher(2, err);
  await withinCreditsLeft(keys, one.fetch);
  expect(one.asked.map((k) => k.length)).toEqual([6, 2]);
  const two = fetcher(1, shortfall({ credits_remaining: 3 }));
  const outcomes = await withinCreditsLeft(keys, two.fetch, 2);
  expect(two.asked.map((k) => k.length)).toEqual([6, 1]);
  expect("record" in outcomes.get("a")!).toBe(true);
  expect("error" in outcomes.get("b")!).toBe(true);
});

test("rows_covered 0, or a 402 that covers nothing: the whole batch fails with it", async () => {
  const err = shortfall({ rows_covered: 0 });
  const { asked, fetch } = fetcher(0, err);
  await expect(withinCreditsLeft(keys, fetch)).rejects.toBe(err);
  expect(asked).toHaveLength(1);
});
