// Plans are found by one typed lookup that refuses an id naming no plan, inherited names included.
import { DEFAULT_PLAN, PLANS, planOf } from "../../src/server/auth/plans";

test("planOf gives the plan of each id", () => {
  for (const id of Object.keys(PLANS)) expect(planOf(id).id).toBe(id);
  expect(planOf(DEFAULT_PLAN).public).toBe(true);
});

test.each(["gold", "", "toString", "constructor", "__proto__", "hasOwnProperty"])("planOf refuses %p, listing the plans", (id) => {
  expect(() => planOf(id)).toThrow(`Unknown plan '${id}'. Plans: explorer, unlimited.`);
});
