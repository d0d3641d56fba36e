// A snapshot's caches of prepared statements are bounded: SQL whose text varies with a list's
// length (owner_name's matching owners, say) cannot grow them without end.
import { STATEMENT_CACHE_SIZE, openContext } from "../../src/server/data/snapshot-context";
import { snapshotPath } from "../helpers/service";

test("statements for many distinct list lengths leave each cache at its bound, the ones used last kept", () => {
  const context = openContext(snapshotPath());
  try {
    const lengths = STATEMENT_CACHE_SIZE + 150;
    const inList = (n: number) => `SELECT count(*) AS n FROM properties WHERE owner_id IN (${Array(n).fill("?").join(",")})`;
    const hot = "SELECT id FROM properties ORDER BY id LIMIT 1";
    const prepare = jest.spyOn(context.db, "prepare");
    for (let n = 1; n <= lengths; n++) {
      const owners = Array.from({ length: n }, (_, i) => `co_${i}`);
      expect(context.get<{ n: number }>(inList(n), owners)).toEqual({ n: expect.any(Number) });
      expect(context.value<number>(inList(n), owners)).toEqual(expect.any(Number));
      context.get(hot); // used all along: never the least recently used
    }
    expect(context.cachedStatements).toBe(2 * STATEMENT_CACHE_SIZE);
    expect(prepare.mock.calls.filter(([sql]) => sql === hot)).toHaveLength(1); // prepared once, kept since
    // Answers from statements made again after they were dropped are the same.
    expect(context.get(inList(1), ["co_0"])).toEqual(context.get(inList(2), ["co_0", "co_0"]));
  } finally {
    context.close();
  }
});
