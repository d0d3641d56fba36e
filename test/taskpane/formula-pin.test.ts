// Pinning a workbook rewrites each PROP call's options argument; unpinning takes it out again.
import fs from "node:fs";
import path from "node:path";
import { OPTIONS_ARGUMENT, repinFormula } from "../../src/taskpane/formula-pin";

const PIN = "snap_3f2a9c";

test.each([
  ['=PROP.SALECOMPS("Austin, TX","industrial","limit=10")', '=PROP.SALECOMPS("Austin, TX","industrial","as_of=snap_3f2a9c; limit=10")'],
  ['=PROP.MARKET("TX","office")', '=PROP.MARKET("TX","office",,"as_of=snap_3f2a9c")'],
  ['=PROP.PROPERTY(A2,"name")*2', '=PROP.PROPERTY(A2,"name","as_of=snap_3f2a9c")*2'],
  ['=PROP.SEARCH("warehouse","TX",B1)', '=PROP.SEARCH("warehouse","TX","as_of=snap_3f2a9c; "&(B1))'],
  ['=PROP.SEARCH("a, b (c)","TX","as_of=2026-10-01; limit=5")', '=PROP.SEARCH("a, b (c)","TX","as_of=snap_3f2a9c; limit=5")'],
  [
    '=IF(A1,prop.property("cp_1","name"),"say ""PROP.MARKET(""")',
    '=IF(A1,prop.property("cp_1","name","as_of=snap_3f2a9c"),"say ""PROP.MARKET(""")',
  ],
  ['=PROP.COMPARE(PROP.SEARCH("x","TX"))', '=PROP.COMPARE(PROP.SEARCH("x","TX","as_of=snap_3f2a9c"),"as_of=snap_3f2a9c")'],
  ["=PROP.CREDITS()", "=PROP.CREDITS()"],
  ["=SUM(A1:A3)", "=SUM(A1:A3)"],
])("pins %s", (formula, pinned) => {
  expect(repinFormula(formula, PIN)).toBe(pinned);
});

test.each([
  ['=PROP.SALECOMPS("Austin, TX","industrial","as_of=snap_3f2a9c; limit=10")', '=PROP.SALECOMPS("Austin, TX","industrial","limit=10")'],
  ['=PROP.MARKET("TX","office",,"as_of=snap_3f2a9c")', '=PROP.MARKET("TX","office")'],
  ['=PROP.SEARCH("warehouse","TX","as_of=snap_3f2a9c; "&(B1))', '=PROP.SEARCH("warehouse","TX",B1)'],
  ['=PROP.MARKET("TX","office","vacancy_rate","AS_OF = 2026-01-01")', '=PROP.MARKET("TX","office","vacancy_rate")'],
])("moves %s to the latest", (formula, unpinned) => {
  expect(repinFormula(formula, null)).toBe(unpinned);
});

test("pinning twice, or moving a pin, gives the same as pinning once; unpinning restores the formula", () => {
  for (const formula of ['=PROP.MARKET("TX","office")', '=PROP.SEARCH("w","TX",B1)', '=PROP.SALECOMPS("TX",,"limit=3")']) {
    const once = repinFormula(formula, PIN);
    expect(repinFormula(repinFormula(formula, "snap_old"), PIN)).toBe(once);
    expect(repinFormula(once, null)).toBe(formula);
  }
});

test("every function's options argument is where the built metadata puts it", () => {
  const file = path.join(__dirname, "../../dist/addin/functions.json");
  if (!fs.existsSync(file)) throw new Error("build the add-in first (npm run build:addin)");
  const { functions } = JSON.parse(fs.readFileSync(file, "utf8")) as { functions: { id: string; parameters: { name: string }[] }[] };
  const found = Object.fromEntries(
    functions
      .filter((f) => f.parameters.some((p) => p.name === "options"))
      .map((f) => [f.id, f.parameters.findIndex((p) => p.name === "options")]),
  );
  // CREDITS and FIELDS take options but no pin: they do not read the snapshot.
  delete found.CREDITS;
  delete found.FIELDS;
  for (const [id, at] of Object.entries(found)) expect({ id, at: OPTIONS_ARGUMENT[id] }).toEqual({ id, at });
});
