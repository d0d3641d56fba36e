// The argument suggestions Excel's AutoComplete offers (custom enums in functions.json): each
// suggestion is a value its function accepts as it stands, and the build step that adds them
// refuses an argument it cannot put them on rather than dropping them.
import { ARGUMENT_CHOICES, choiceLists, withArgumentChoices, type FunctionsMetadata } from "../../src/functions/argument-choices";
import { assetTypeArg, companyTypeArg } from "../../src/functions/argument-parsers";
import { marketMetric } from "../../src/functions/market";
import { parseFieldName } from "../../src/functions/property-field";
import { resourceNamed } from "../../src/functions/record-fields";
import { ensureAddinBuild, readDist } from "./addin-build";

const lists = choiceLists();

test("every suggestion is a value its function reads as itself", () => {
  for (const { value } of lists.ASSET_TYPE) expect(assetTypeArg(value)).toBe(value);
  for (const { value } of lists.PROPERTY_FIELD) expect(parseFieldName(value)).toBe(value);
  for (const { value } of lists.MARKET_METRIC) expect(marketMetric(value)).toBe(value);
  for (const { value } of lists.COMPANY_TYPE) expect(companyTypeArg(value)).toBe(value);
  for (const { value } of lists.FIELDS_RESOURCE) expect(resourceNamed(value)).toBe(value);
});

test("the lists hold the contract's values with readable tooltips, no value twice", () => {
  expect(lists.ASSET_TYPE.map((c) => c.value)).toContain("industrial");
  expect(lists.PROPERTY_FIELD.find((c) => c.value === "year_built")?.tooltip).toBe("Year built");
  expect(lists.MARKET_METRIC.map((c) => c.value)).toContain("vacancy_rate");
  for (const [id, list] of Object.entries(lists)) {
    expect({ id, size: new Set(list.map((c) => c.value)).size }).toEqual({ id, size: list.length });
    for (const c of list) expect(c.tooltip.trim().length).toBeGreaterThan(1);
  }
});

function metadata(): FunctionsMetadata {
  return {
    allowCustomDataForDataTypeAny: true,
    functions: Object.entries(ARGUMENT_CHOICES).map(([id, args]) => ({
      id,
      parameters: [...Object.keys(args).map((name) => ({ name, type: "string" })), { name: "options", type: "string" }],
    })),
  };
}

test("names each list on its arguments and adds each list once", () => {
  const out = withArgumentChoices(metadata());
  const market = out.functions.find((f) => f.id === "MARKET")!;
  expect(market.parameters.map((p) => [p.name, p.customEnumId])).toEqual([
    ["asset_type", "ASSET_TYPE"],
    ["metric", "MARKET_METRIC"],
    ["options", undefined],
  ]);
  expect(out.enums!.filter((e) => e.id === "ASSET_TYPE")).toHaveLength(1);
  expect(out.allowCustomDataForDataTypeAny).toBe(true);
});

test("refuses, rather than drops, an argument it cannot offer suggestions on", () => {
  const renamed = metadata();
  renamed.functions.find((f) => f.id === "MARKET")!.parameters[1].name = "figure";
  expect(() => withArgumentChoices(renamed)).toThrow('PROP.MARKET has no argument "metric"');
  const range = metadata();
  range.functions.find((f) => f.id === "SALECOMPS")!.parameters[0].dimensionality = "matrix";
  expect(() => withArgumentChoices(range)).toThrow("PROP.SALECOMPS(asset_type) offers ASSET_TYPE but is not a single text argument");
  const gone = metadata();
  gone.functions = gone.functions.filter((f) => f.id !== "CREDITS");
  expect(() => withArgumentChoices(gone)).toThrow("No function CREDITS");
});

describe("the built functions.json", () => {
  let built: FunctionsMetadata;
  beforeAll(async () => {
    await ensureAddinBuild();
    built = JSON.parse(readDist("functions.json")) as FunctionsMetadata;
  }, 240_000);

  test("holds the lists as Excel's custom enums, each named by an argument", () => {
    const ids = new Set(built.enums!.map((e) => e.id));
    for (const e of built.enums!) {
      expect(e.id).toMatch(/^[A-Za-z][A-Za-z0-9._]{2,63}$/);
      expect(e.type).toBe("string");
      for (const v of e.values) expect(v.name).toBe(v.stringValue);
    }
    const named = built.functions.flatMap((f) =>
      f.parameters.filter((p) => p.customEnumId).map((p) => `${f.id}.${p.name}=${p.customEnumId}`),
    );
    expect(named).toContain("PROPERTY.field=PROPERTY_FIELD");
    expect(named).toContain("ASSETSEARCH.asset_type=ASSET_TYPE");
    for (const entry of named) expect(ids.has(entry.split("=")[1])).toBe(true);
  });
});
