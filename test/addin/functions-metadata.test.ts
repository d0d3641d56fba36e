// Contract test for the generated functions.json: exactly the ids we ship, with the argument
// shapes Excel will enforce. Ids are stable forever once released (workbooks store them), so a
// rename or a changed shape must fail here first.
import { ensureAddinBuild, readDist } from "./addin-build";

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
}

let functions: FunctionMetadata[];

beforeAll(async () => {
  await ensureAddinBuild();
  functions = (JSON.parse(readDist("functions.json")) as { functions: FunctionMetadata[] }).functions;
}, 240_000);

const byId = (id: string) => functions.find((f) => f.id === id)!;

test("declares exactly the functions we ship", () => {
  expect(functions.map((f) => f.id).sort()).toEqual(["COVERAGE", "PROPERTY"]);
  for (const f of functions) expect(f.name).toBe(f.id);
});

test("PROPERTY(property_id, field) is a point function of two required text arguments", () => {
  const f = byId("PROPERTY");
  expect(f.parameters.map(({ name, type, dimensionality, optional, repeating }) => ({ name, type, dimensionality, optional, repeating }))).toEqual([
    { name: "property_id", type: "string", dimensionality: undefined, optional: undefined, repeating: undefined },
    { name: "field", type: "string", dimensionality: undefined, optional: undefined, repeating: undefined },
  ]);
  expect(f.result.dimensionality).toBeUndefined();
});

test("COVERAGE() takes no arguments and spills a matrix", () => {
  const f = byId("COVERAGE");
  expect(f.parameters).toEqual([]);
  expect(f.result.dimensionality).toBe("matrix");
});

test("every function and argument is described for Excel's formula autocomplete", () => {
  for (const f of functions) {
    expect(f.description?.length ?? 0).toBeGreaterThan(20);
    for (const p of f.parameters) expect({ fn: f.id, param: p.name, described: (p.description?.length ?? 0) > 10 }).toEqual({ fn: f.id, param: p.name, described: true });
  }
});

test("no function is volatile or streaming (recalculation must not multiply requests)", () => {
  for (const f of functions) {
    expect(f.options?.volatile).toBeFalsy();
    expect(f.options?.stream).toBeFalsy();
  }
});
