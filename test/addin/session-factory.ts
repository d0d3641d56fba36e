// A session (cache, meter, gateway) over a stubbed service, for unit tests: each test gets a
// fresh one, and sees every request the add-in made. Small record factories beside it.
import { createSession, type AddinSession } from "../../src/shared/addin-session";
import { SETTING_KEYS } from "../../src/shared/settings";
import type { FunctionContext } from "../../src/functions/call-context";
import { jsonResponse, memoryStorage, wellFormedKey } from "./office-stand-ins";

export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  headers: Record<string, string>;
  signal?: AbortSignal | null;
}

export type Handler = (request: SeenRequest) => Response | Promise<Response>;

export interface TestSession {
  session: AddinSession;
  ctx: FunctionContext;
  requests: SeenRequest[];
  storage: ReturnType<typeof memoryStorage>;
}

export function testSession(
  handler: Handler,
  options: { storage?: ReturnType<typeof memoryStorage>; batchWindowMs?: number } = {},
): TestSession {
  const storage = options.storage ?? memoryStorage({ [SETTING_KEYS.apiKey]: wellFormedKey() });
  const requests: SeenRequest[] = [];
  const fetch = (async (url: string, init: RequestInit = {}) => {
    const parsed = new URL(url);
    const request: SeenRequest = {
      method: init.method ?? "GET",
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      headers: { ...(init.headers as Record<string, string>) },
      signal: init.signal,
    };
    requests.push(request);
    return handler(request);
  }) as unknown as typeof globalThis.fetch;
  const session = createSession({ storage: () => storage, fetch, batchWindowMs: options.batchWindowMs ?? 5 });
  return { session, ctx: { session, preview: false }, requests, storage };
}

export function propertyRecord(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    object: "commercial_property",
    name: `Building ${id}`,
    asset_type: "industrial",
    year_built: 1990,
    building_area_sqft: 100_000,
    owner_name: null,
    ...overrides,
  };
}

export function listResponse(data: unknown[], extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  const body = {
    object: "list",
    data,
    limit: data.length,
    offset: 0,
    has_more: false,
    next_offset: null,
    total_count: data.length,
    snapshot: { id: "snap_1", captured_at: "2025-01-01T00:00:00Z" },
    ...extra,
  };
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json", etag: `"${JSON.stringify(body).length}"`, ...headers },
  });
}

/**
 * A comparison as the service answers it: each property's ETag is `"<id>"`; those held as they
 * are are not modified, and come back as their id only.
 */
export function compareResponse(ids: string[], snapshotId = "snap_1", held: Record<string, string> = {}): Response {
  const notModified = ids.filter((id) => held[id] === `"${id}"`);
  return jsonResponse({
    object: "property_comparison",
    fields: [],
    properties: ids.map((id) => (notModified.includes(id) ? { id } : propertyRecord(id))),
    statistics: [],
    etags: Object.fromEntries(ids.map((id) => [id, `"${id}"`])),
    not_modified: notModified,
    snapshot: { id: snapshotId, captured_at: "2025-01-01T00:00:00Z" },
  });
}
