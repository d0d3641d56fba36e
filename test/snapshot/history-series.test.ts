// The market history's series maths, on hand-made inputs.
import { absorption, runBack } from "../../src/snapshot/derive/history-series";

test("runBack takes each quarter's deliveries off today's stock, and returns the stock before the span", () => {
  const out = new Array<number | null>(3);
  const before = runBack(out, 100, Float64Array.from([5, 10, 20]), 0, 3);
  expect(out).toEqual([70, 80, 100]);
  expect(before).toBe(65);
});

test("runBack gives nulls throughout when today's stock is unknown", () => {
  const out = new Array<number | null>(2);
  expect(runBack(out, null, Float64Array.from([1, 2]), 0, 2)).toBeNull();
  expect(out).toEqual([null, null]);
});

test("absorption is the change in occupied stock between quarter ends, null where a figure is missing", () => {
  const out = new Array<number | null>(3);
  absorption(out, [100, 110, null], 100, [0.1, 0.1, 0.1], 0.2, 3);
  expect(out).toEqual([10, 9, null]);
});
