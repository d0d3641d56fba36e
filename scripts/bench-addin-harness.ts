// The add-in as the benchmarks run it: the built functions.js and taskpane.js in one node:vm
// context (Excel's shared runtime), with stand-ins for what Excel provides, against the real
// service; and a counter of the requests and credits it spends.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import type { SqliteStores } from "../src/server/stores/sqlite";
import { buildSnapshot } from "../src/snapshot/build";
import { outdatedSnapshot } from "../src/snapshot/snapshot-file";
import { CREDIT_HEADERS } from "../src/contract/credit-fields";
import { endpointFor } from "../src/shared/endpoints";
import { SETTING_KEYS } from "../src/shared/setting-keys";

export const DIST = path.resolve(__dirname, "../dist/addin");

/** The add-in benchmarks' snapshot of `properties`, built once into the temporary folder (seed 11). */
export function benchSnapshot(properties: number): string {
  const file = path.join(os.tmpdir(), `propintel-bench-addin-${properties}.db`);
  if (!fs.existsSync(file) || outdatedSnapshot(file)) {
    console.log(`Building a ${properties.toLocaleString("en-US")}-property snapshot into ${file} (once)...`);
    buildSnapshot({ out: file, seed: 11, properties });
  }
  return file;
}

/** One model cell: a function id and its arguments. */
export interface Cell {
  id: string;
  args: unknown[];
  kind: "point" | "table";
}

export interface Counter {
  requests: number;
  pointRequests: number;
  credits: number;
  creditsFromHeaders: boolean;
  statuses: Record<string, number>;
  /** Credits by operation ("POST /v1/commercial/properties/compare"). */
  creditsByOperation: Record<string, number>;
}

export const newCounter = (): Counter => ({
  requests: 0,
  pointRequests: 0,
  credits: 0,
  creditsFromHeaders: false,
  statuses: {},
  creditsByOperation: {},
});

/** Counts a response: credits from X-Credits-Charged when the service sends it, else its published cost. */
export function count(counter: Counter, method: string, url: string, response: Response) {
  const { pathname } = new URL(url);
  counter.requests++;
  if (pathname.startsWith("/v1/commercial/properties/")) counter.pointRequests++;
  counter.statuses[response.status] = (counter.statuses[response.status] ?? 0) + 1;
  const charged = response.headers.get(CREDIT_HEADERS.charged);
  const endpoint = endpointFor(method, pathname);
  let credits = 0;
  if (charged !== null) {
    counter.creditsFromHeaders = true;
    credits = Number(charged);
  } else if (response.ok) {
    credits = endpoint?.cost ?? 0;
  }
  counter.credits += credits;
  const operation = `${method} ${endpoint?.path ?? pathname}`;
  if (credits > 0) counter.creditsByOperation[operation] = (counter.creditsByOperation[operation] ?? 0) + credits;
}

/**
 * functions.js and taskpane.js in one vm context: the add-in's shared runtime. `requirementSets`
 * are the sets the host reports supported (Office.context.requirements), none by default.
 */
export function loadAddin(origin: string, apiKey: string, counter: Counter, requirementSets: Record<string, string> = {}) {
  const associated = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  const actions = new Map<string, (event: { completed(): void }) => Promise<void>>();
  const storageItems = new Map<string, string>([[SETTING_KEYS.apiKey, apiKey]]);
  class ExcelError {
    constructor(
      readonly code: string,
      readonly message?: string,
    ) {}
  }
  const context = vm.createContext({
    CustomFunctions: {
      Error: ExcelError,
      ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A" },
      associate: (id: string, fn: (...args: unknown[]) => Promise<unknown>) => associated.set(id, fn),
    },
    OfficeRuntime: {
      storage: {
        getItem: async (k: string) => storageItems.get(k) ?? null,
        setItem: async (k: string, v: string) => void storageItems.set(k, v),
        removeItem: async (k: string) => void storageItems.delete(k),
      },
    },
    // The ribbon's refresh ends in a full recalculation; the benchmark runs the model for it.
    Excel: {
      run: async (body: (ctx: unknown) => Promise<void>) => body({ workbook: { application: { calculate() {} } }, sync: async () => {} }),
      CalculationType: { full: "Full" },
    },
    Office: {
      onReady: (cb: () => void) => cb(),
      actions: { associate: (name: string, fn: never) => actions.set(name, fn) },
      context: { requirements: { isSetSupported: (set: string, version = "1.1") => atLeast(requirementSets[set], version) } },
    },
    // No pane markup: taskpane.js registers the ribbon commands and mounts nothing.
    document: { getElementById: () => null },
    location: { origin },
    fetch: async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, init);
      count(counter, init.method ?? "GET", url, response);
      return response;
    },
    console,
    setTimeout,
    clearTimeout,
    AbortController,
    URL,
    URLSearchParams,
  });
  context.self = context;
  vm.runInContext(fs.readFileSync(path.join(DIST, "functions.js"), "utf8"), context, { filename: "functions.js" });
  vm.runInContext(fs.readFileSync(path.join(DIST, "taskpane.js"), "utf8"), context, { filename: "taskpane.js" });
  return { associated, actions };
}

/** Whether a requirement set's version (undefined: not supported) is at least `wanted` ("1.16" is above "1.4"). */
function atLeast(version: string | undefined, wanted: string): boolean {
  if (version === undefined) return false;
  const [a, b] = [version, wanted].map((v) => v.split(".").map(Number));
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * Calls a cell's function as Excel does: every parameter functions.json declares (an omitted
 * optional one as null), then the invocation.
 */
export function excelCall(associated: Map<string, (...args: unknown[]) => Promise<unknown>>) {
  const declared = new Map<string, number>(
    (
      JSON.parse(fs.readFileSync(path.join(DIST, "functions.json"), "utf8")) as { functions: { id: string; parameters: unknown[] }[] }
    ).functions.map((f) => [f.id, f.parameters.length]),
  );
  return (cell: Cell) => {
    const args = [...cell.args, ...Array<null>(Math.max(0, (declared.get(cell.id) ?? 0) - cell.args.length)).fill(null)];
    return associated.get(cell.id)!(...args, { functionName: cell.id, isInValuePreview: false });
  };
}

export interface Phase {
  requests: number;
  pointRequests: number;
  credits: number;
  ms: number;
  /** What each cell answered (a value, a spill, or an Excel error), in model order. */
  results: PromiseSettledResult<unknown>[];
}

/** Excel calculating every cell of the model at once. */
export async function calculate(cells: Cell[], run: (cell: Cell) => Promise<unknown>, counter: Counter): Promise<Phase> {
  const before = { ...counter };
  const started = performance.now();
  const results = await Promise.allSettled(cells.map(run));
  return {
    requests: counter.requests - before.requests,
    pointRequests: counter.pointRequests - before.pointRequests,
    credits: counter.credits - before.credits,
    ms: performance.now() - started,
    results,
  };
}

/** A fresh add-in runtime on a fresh Explorer account: each scenario starts from nothing. */
export async function freshAddin(origin: string, stores: SqliteStores, name: string) {
  const key = stores.keys.createKey(stores.accounts.create(`${name}@bench.example`).id, `bench ${name}`).raw;
  const counter = newCounter();
  const addin = loadAddin(origin, key, counter);
  await new Promise((r) => setTimeout(r, 200)); // the pane's start-up coverage call
  Object.assign(counter, newCounter());
  const run = excelCall(addin.associated);
  return { counter, run, actions: addin.actions };
}

export const errorText = (r: PromiseSettledResult<unknown>) =>
  r.status === "rejected" ? `${(r.reason as { code?: string }).code ?? "error"} ${(r.reason as { message?: string }).message ?? ""}` : "";
