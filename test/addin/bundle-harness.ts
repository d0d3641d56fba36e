// Loads the built functions.js into node:vm the way Excel's shared runtime loads it: with
// stand-ins for CustomFunctions and OfficeRuntime, a page origin, and a fetch that counts
// requests. Used by the bundle contract test and by the service-backed function tests.
import * as vm from "node:vm";
import { readDist } from "./addin-build";
import { customFunctionsStandIn, memoryStorage, type CustomFunctionsStandIn } from "./office-stand-ins";
import { SETTING_KEYS } from "../../src/shared/settings";

export interface FetchCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  status?: number;
  charged?: number | null;
}

export interface LoadedBundle {
  context: vm.Context;
  customFunctions: CustomFunctionsStandIn;
  storage: ReturnType<typeof memoryStorage>;
  calls: FetchCall[];
  /** Calls a registered function as Excel would, with an invocation stand-in last. */
  call(id: string, args: unknown[], invocation?: Record<string, unknown>): Promise<unknown>;
}

export interface BundleOptions {
  origin: string;
  apiKey?: string | null;
  /** Answers requests instead of the network (unit-style tests). */
  respond?: (url: string, init: RequestInit) => Response | Promise<Response>;
}

export function loadFunctionsBundle(options: BundleOptions): LoadedBundle {
  const customFunctions = customFunctionsStandIn();
  const storage = memoryStorage(options.apiKey ? { [SETTING_KEYS.apiKey]: options.apiKey } : {});
  const calls: FetchCall[] = [];
  const fetchImpl = async (url: string, init: RequestInit = {}) => {
    const call: FetchCall = {
      url,
      method: init.method ?? "GET",
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body as string | undefined,
    };
    calls.push(call);
    const response = options.respond ? await options.respond(url, init) : await fetch(url, init);
    call.status = response.status;
    const charged = response.headers.get("x-credits-charged");
    call.charged = charged === null ? null : Number(charged);
    return response;
  };
  const context = vm.createContext({
    CustomFunctions: customFunctions,
    OfficeRuntime: { storage },
    location: { origin: options.origin },
    fetch: fetchImpl,
    console,
    setTimeout,
    clearTimeout,
    AbortController,
    URL,
    URLSearchParams,
  });
  context.self = context;
  vm.runInContext(readDist("functions.js"), context, { filename: "functions.js" });
  // Excel passes every declared parameter, an omitted optional one as null, then the invocation.
  const declared = new Map<string, number>(
    (JSON.parse(readDist("functions.json")) as { functions: { id: string; parameters: unknown[] }[] }).functions.map((f) => [
      f.id,
      f.parameters.length,
    ]),
  );
  const call = (id: string, args: unknown[], invocation: Record<string, unknown> = { functionName: id, isInValuePreview: false }) => {
    const fn = customFunctions.associated.get(id) as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (!fn) throw new Error(`${id} is not registered`);
    const padded = [...args, ...Array<null>(Math.max(0, (declared.get(id) ?? args.length) - args.length)).fill(null)];
    return fn(...padded, invocation);
  };
  return { context, customFunctions, storage, calls, call };
}
