// Stand-ins for the globals Office provides to the add-in (CustomFunctions, OfficeRuntime),
// built fresh per test. Only what the add-in code uses is implemented.
import { formatKey } from "../../src/contract/api-key-format";
import type { KeyValueStorage } from "../../src/shared/settings";

export class ExcelErrorStandIn {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

export interface CustomFunctionsStandIn {
  Error: typeof ExcelErrorStandIn;
  ErrorCode: Record<string, string>;
  associate(id: string, fn: unknown): void;
  associated: Map<string, unknown>;
}

export function customFunctionsStandIn(): CustomFunctionsStandIn {
  const associated = new Map<string, unknown>();
  return {
    Error: ExcelErrorStandIn,
    ErrorCode: {
      invalidValue: "#VALUE!",
      notAvailable: "#N/A",
      divisionByZero: "#DIV/0!",
      invalidNumber: "#NUM!",
      nullReference: "#NULL!",
    },
    associate(id, fn) {
      if (associated.has(id)) throw new Error(`${id} associated twice`);
      associated.set(id, fn);
    },
    associated,
  };
}

export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: async (key) => items.get(key) ?? null,
    setItem: async (key, value) => void items.set(key, value),
    removeItem: async (key) => void items.delete(key),
  };
}

/** A problem+json response as the service sends one. */
export function problemResponse(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: "about:blank", status, ...body }), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** A key with a valid shape and checksum (the client refuses malformed keys before any request). */
export function wellFormedKey(environment: "live" | "test" = "test", keyId = "k1k1k1k1k1k1"): string {
  return formatKey(environment, keyId, "s".repeat(24));
}
