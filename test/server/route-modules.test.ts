// The API's routes are found in the areas' route modules (src/server/routes/index.ts): every
// operation of the contract has exactly one, in the contract's order.
import { OPERATION_LIST, OPERATIONS } from "../../src/contract/operations";
import { API_ROUTES, routesOf } from "../../src/server/routes";
import { catalogRoute, coverageRoute } from "../../src/server/routes/coverage-catalog";

test("every operation of the contract has exactly one route, in the contract's order", () => {
  expect(API_ROUTES.map((r) => r.operation.name)).toEqual(OPERATION_LIST.map((o) => o.name));
  API_ROUTES.forEach((route, i) => expect(route.operation).toBe(OPERATION_LIST[i]));
});

test("an operation without a route in the route modules is an error", () => {
  expect(() => routesOf([{ coverageRoute, UNRELATED: "text" }], [OPERATIONS.getCoverage, OPERATIONS.getCatalog])).toThrow(
    "getCatalog has 0 routes in the route modules; it needs exactly one",
  );
});

test("an operation with two routes in the route modules is an error", () => {
  const second = { ...coverageRoute };
  expect(() => routesOf([{ coverageRoute }, { second, catalogRoute }], [OPERATIONS.getCoverage, OPERATIONS.getCatalog])).toThrow(
    "getCoverage has 2 routes in the route modules; it needs exactly one",
  );
});
