// Which kinds of place each operation's `geography` takes is written once, in PLACE_KINDS_OF:
// the input's annotation (read by the catalog and the add-in) says the same for every operation.
import { placeKindsOf } from "../../src/contract/input-kinds";
import { OPERATION_LIST, OPERATIONS } from "../../src/contract/operations";
import { PLACE_KINDS_OF } from "../../src/contract/queries";

test.each(Object.keys(PLACE_KINDS_OF) as (keyof typeof PLACE_KINDS_OF)[])(
  "%s: its geography takes the kinds PLACE_KINDS_OF gives it",
  (name) => {
    expect(placeKindsOf(OPERATIONS[name].inputs)).toEqual(PLACE_KINDS_OF[name]);
  },
);

test("an operation with a geography input is listed in PLACE_KINDS_OF", () => {
  const withGeography = OPERATION_LIST.filter((o) => placeKindsOf(o.inputs).length > 0).map((o) => o.name);
  expect(withGeography.sort()).toEqual(Object.keys(PLACE_KINDS_OF).sort());
});
