// Contract test for the generated functions.json: exactly the ids we ship, with the argument
// shapes Excel will enforce. Ids are stable forever once released (workbooks store them), so a
// rename or a changed shape must fail here first. Adding an optional argument at the end is
// the only change an existing function may get.
import path from "node:path";
import { ROOT, ensureAddinBuild, readDist } from "./addin-build";
import { startService } from "../helpers/service";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- webpack.config.js is CommonJS, read as webpack reads it
const webpackConfig = require("../../webpack.config.js") as { functionsMetadataForOrigin: (json: string, origin: string) => string };

interface ParameterMetadata {
  name: string;
  description?: string;
  type?: string;
  dimensionality?: string;
  optional?: boolean;
  repeating?: boolean;
}
interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  parameters: ParameterMetadata[];
  result: { type?: string; dimensionality?: string };
  options?: Record<string, unknown>;
  helpUrl?: string;
}

let functions: FunctionMetadata[];

beforeAll(async () => {
  await ensureAddinBuild();
  functions = (JSON.parse(readDist("functions.json")) as { functions: FunctionMetadata[] }).functions;
}, 240_000);

const byId = (id: string) => functions.find((f) => f.id === id)!;

/** "name:type" for a required argument, "[name]:type" for an optional one; "matrix" marks a range. */
function signature(f: FunctionMetadata): string {
  const params = f.parameters.map((p) => {
    const name = p.optional ? `[${p.name}]` : p.name;
    return `${name}:${p.type}${p.dimensionality === "matrix" ? "[][]" : ""}${p.repeating ? "..." : ""}`;
  });
  return `${f.id}(${params.join(", ")}) -> ${f.result.dimensionality === "matrix" ? "matrix" : "scalar"}`;
}

/** Every function we ship, exactly as Excel sees it. */
const EXPECTED = [
  "ANALYSIS(asset_type:string, [geography]:string, [options]:string) -> matrix",
  "ASSETSEARCH(asset_type:string, [geography]:any, [options]:string) -> matrix",
  "CARD(property:string, [options]:string) -> scalar",
  "CATALOG([section]:string, [options]:string) -> matrix",
  "COMPANIES(company_type:string, [name]:string, [options]:string) -> matrix",
  "COMPARE(property_ids:any[][], [options]:string) -> matrix",
  "COVERAGE([section]:string, [options]:string) -> matrix",
  "CREDITS([item]:string, [options]:string) -> matrix",
  "DETAILS(property_id:string, [options]:string) -> matrix",
  "DILIGENCE([asset_type]:string, [geography]:string, [options]:string) -> matrix",
  "FIELDS(resource:string, [options]:string) -> matrix",
  "FOOTPRINT(tenant:string, [options]:string) -> matrix",
  "HISTORY(property_id:string, [options]:string) -> matrix",
  "LISTINGS([geography]:any, [status]:string, [options]:string) -> matrix",
  "MARKET(geography:string, asset_type:string, [metric]:string, [options]:string) -> matrix",
  "MARKETHISTORY(geography:string, asset_type:string, metrics:any[][], [from]:any, [to]:any, [options]:string) -> matrix",
  "MATCH(address:any[][], [city]:any[][], [state]:any[][], [zip]:any[][], [options]:string) -> matrix",
  "PARCELS([geography]:any, [options]:string) -> matrix",
  "PORTFOLIO(owner:string, [options]:string) -> matrix",
  "PROPERTY(property_id:string, field:string, [options]:string) -> scalar",
  "SALECOMPS(subject:any, [asset_type]:string, [options]:string) -> matrix",
  "SEARCH([text]:string, [geography]:any, [options]:string) -> matrix",
];

test("declares exactly the functions we ship, with their argument and result shapes", () => {
  expect(functions.map(signature).sort()).toEqual(EXPECTED);
  for (const f of functions) expect(f.name).toBe(f.id);
});

test("the released ids keep their original arguments first: PROPERTY(property_id, field), COVERAGE() still works", () => {
  // PROPERTY gained only a trailing optional options argument, so =PROP.PROPERTY(id, field) stays valid.
  expect(byId("PROPERTY").parameters.map((p) => [p.name, p.type, p.optional])).toEqual([
    ["property_id", "string", undefined],
    ["field", "string", undefined],
    ["options", "string", true],
  ]);
  expect(byId("PROPERTY").result.dimensionality).toBeUndefined();
  // COVERAGE gained only optional arguments, so =PROP.COVERAGE() stays a valid formula.
  expect(byId("COVERAGE").parameters.every((p) => p.optional)).toBe(true);
});

test("every function takes options, last, and optional arguments come after required ones", () => {
  for (const f of functions) {
    const names = f.parameters.map((p) => p.name);
    if (names.includes("options")) expect({ id: f.id, last: names[names.length - 1] }).toEqual({ id: f.id, last: "options" });
    const firstOptional = f.parameters.findIndex((p) => p.optional);
    if (firstOptional >= 0) expect(f.parameters.slice(firstOptional).every((p) => p.optional)).toBe(true);
  }
  expect(functions.filter((f) => !f.parameters.some((p) => p.name === "options")).map((f) => f.id)).toEqual([]);
});

test("every function that calls the service is cancelable, so a cancelled cell aborts its request", () => {
  for (const f of functions.filter((f) => f.id !== "FIELDS"))
    expect({ id: f.id, cancelable: f.options?.cancelable }).toEqual({ id: f.id, cancelable: true });
});

test("every function is told its cell's address, under which the pane finds why the cell failed", () => {
  for (const f of functions) expect({ id: f.id, requiresAddress: f.options?.requiresAddress }).toEqual({ id: f.id, requiresAddress: true });
  // FIELDS took an invocation only for its address: it makes no request, so nothing to cancel.
  expect(byId("FIELDS").options?.cancelable).toBeFalsy();
});

test("every function and argument is described for Excel's formula autocomplete", () => {
  for (const f of functions) {
    expect(f.description?.length ?? 0).toBeGreaterThan(20);
    for (const p of f.parameters)
      expect({ fn: f.id, param: p.name, described: (p.description?.length ?? 0) > 10 }).toEqual({
        fn: f.id,
        param: p.name,
        described: true,
      });
  }
});

test("no function is volatile or streaming (recalculation must not multiply requests)", () => {
  for (const f of functions) {
    expect(f.options?.volatile).toBeFalsy();
    expect(f.options?.stream).toBeFalsy();
  }
});

test("every function's help link opens its own section of the function reference the service serves", async () => {
  const { app } = await startService({ docsDir: path.join(ROOT, "docs"), email: null });
  try {
    const page = await app.inject({ method: "GET", url: "/docs/functions" });
    expect(page.statusCode).toBe(200);
    for (const f of functions) {
      const anchor = `prop${f.id.toLowerCase()}`;
      expect({ id: f.id, helpUrl: f.helpUrl }).toEqual({ id: f.id, helpUrl: `http://localhost:3000/docs/functions#${anchor}` });
      expect({ id: f.id, section: page.body.includes(`id="${anchor}"`) }).toEqual({ id: f.id, section: true });
    }
  } finally {
    await app.close();
  }
});

test("the help links follow the origin the add-in is built for, as the manifest does", () => {
  const built = JSON.parse(webpackConfig.functionsMetadataForOrigin(readDist("functions.json"), "https://prop.example.com")) as {
    functions: FunctionMetadata[];
  };
  expect(new Set(built.functions.map((f) => new URL(f.helpUrl!).origin))).toEqual(new Set(["https://prop.example.com"]));
});

test("the functions may return formatted numbers (dates, percentages) where Excel supports them", () => {
  expect(JSON.parse(readDist("functions.json")).allowCustomDataForDataTypeAny).toBe(true);
  // A result of no declared type is "any", which may hold them.
  for (const f of functions) expect({ id: f.id, type: f.result.type ?? "any" }).toEqual({ id: f.id, type: "any" });
});
