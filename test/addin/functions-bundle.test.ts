// The built bundles run in node:vm with stand-ins for what Office provides. functions.js must
// register exactly the ids in functions.json; taskpane.js (loaded after it, as taskpane.html
// does) must register exactly the ribbon functions manifest.xml names. Then two registered
// functions are called end to end against a stubbed fetch.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";
import { DIST, ROOT, ensureAddinBuild, readDist } from "./addin-build";
import { customFunctionsStandIn, jsonResponse, memoryStorage, problemResponse, type CustomFunctionsStandIn } from "./office-stand-ins";
import { SETTING_KEYS } from "../../src/shared/settings";

interface FetchCall {
  url: string;
  init: RequestInit;
}

/** A fresh page-like context with the add-in's Office stand-ins, and functions.js loaded into it. */
function loadFunctionsBundle(respond: (url: string) => Response = () => jsonResponse({})) {
  const customFunctions = customFunctionsStandIn();
  const storage = memoryStorage({ [SETTING_KEYS.apiKey]: "prop_test_k1_secret" });
  const calls: FetchCall[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return respond(url);
  };
  const context = vm.createContext({
    CustomFunctions: customFunctions,
    OfficeRuntime: { storage },
    location: { origin: "http://svc.test" },
    fetch,
    console,
    setTimeout,
    clearTimeout,
    AbortController,
    URL,
    URLSearchParams,
  });
  context.self = context;
  vm.runInContext(readDist("functions.js"), context, { filename: "functions.js" });
  return { context, customFunctions, calls, storage };
}

function registered(customFunctions: CustomFunctionsStandIn, id: string) {
  return customFunctions.associated.get(id) as (...args: unknown[]) => Promise<unknown>;
}

beforeAll(() => ensureAddinBuild(), 240_000);

test("functions.js registers exactly the ids in functions.json", () => {
  const { customFunctions } = loadFunctionsBundle();
  const metadataIds = (JSON.parse(readDist("functions.json")) as { functions: { id: string }[] }).functions.map((f) => f.id);
  expect([...customFunctions.associated.keys()].sort()).toEqual([...metadataIds].sort());
  for (const fn of customFunctions.associated.values()) expect(typeof fn).toBe("function");
});

test("COVERAGE spills a header row and one row per resource, asking the page's own origin with the key in the header", async () => {
  const { customFunctions, calls } = loadFunctionsBundle(() =>
    jsonResponse({ object: "coverage", counts: { parcels: 120, properties: 40, sales: 7 } }),
  );
  await expect(registered(customFunctions, "COVERAGE")()).resolves.toEqual([
    ["resource", "count"],
    ["parcels", 120],
    ["properties", 40],
    ["sales", 7],
  ]);
  expect(calls).toHaveLength(1);
  expect(calls[0].url).toBe("http://svc.test/v1/commercial/coverage");
  expect((calls[0].init.headers as Record<string, string>).Authorization).toBe("Bearer prop_test_k1_secret");
  expect(calls[0].url).not.toContain("prop_test_k1_secret");
});

test("PROPERTY returns the field's value from the property record", async () => {
  const { customFunctions, calls } = loadFunctionsBundle(() =>
    jsonResponse({ id: "cp_00ab", object: "commercial_property", year_built: 1987, owner_name: null }),
  );
  await expect(registered(customFunctions, "PROPERTY")("cp_00ab", "Year_Built ")).resolves.toBe(1987);
  expect(calls[0].url).toBe("http://svc.test/v1/commercial/properties/cp_00ab");
  await expect(registered(customFunctions, "PROPERTY")("cp_00ab", "owner_name")).rejects.toMatchObject({
    code: "#N/A",
    message: "owner_name is not recorded for cp_00ab.",
  });
});

test("PROPERTY rejects bad input with #VALUE! before making any request", async () => {
  const { customFunctions, calls } = loadFunctionsBundle();
  const property = registered(customFunctions, "PROPERTY");
  await expect(property("", "year_built")).rejects.toMatchObject({ code: "#VALUE!" });
  await expect(property("cp_00ab", "colour")).rejects.toMatchObject({ code: "#VALUE!", message: expect.stringContaining('"colour"') });
  expect(calls).toHaveLength(0);
});

test("a 404 from the service becomes #N/A with the service's message", async () => {
  const { customFunctions } = loadFunctionsBundle(() =>
    problemResponse(404, { title: "Not Found", detail: "No property cp_0404.", code: "not_found", request_id: "req_1" }),
  );
  await expect(registered(customFunctions, "PROPERTY")("cp_0404", "name")).rejects.toMatchObject({
    code: "#N/A",
    message: "No property cp_0404.",
  });
});

test("taskpane.js, loaded after functions.js, registers exactly the ribbon functions manifest.xml names", () => {
  const { context } = loadFunctionsBundle();
  const actions = new Map<string, unknown>();
  const elements = new Map<string, Record<string, unknown>>();
  context.Office = {
    onReady: (callback: () => void) => callback(),
    actions: { associate: (name: string, fn: unknown) => actions.set(name, fn) },
  };
  context.document = {
    getElementById: (id: string) => {
      if (!elements.has(id)) elements.set(id, { id, value: "", placeholder: "", textContent: "", addEventListener() {} });
      return elements.get(id);
    },
  };
  vm.runInContext(readDist("taskpane.js"), context, { filename: "taskpane.js" });

  const manifest = fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8");
  const named = [...manifest.matchAll(/<FunctionName>\s*([^<\s]+)\s*<\/FunctionName>/g)].map((m) => m[1]);
  expect([...actions.keys()].sort()).toEqual([...new Set(named)].sort());
  // The pane wired its form: it looked up the elements taskpane.html has.
  const html = fs.readFileSync(path.join(DIST, "taskpane.html"), "utf8");
  for (const id of elements.keys()) expect(html).toMatch(new RegExp(`id=["']?${id}["'\\s>]`));
  expect(elements.size).toBeGreaterThanOrEqual(5);
});
