// The API client's error contract, with a stubbed global fetch: every failure is one ApiError
// (status, code, message, request id), and the functions layer maps it once to an Excel error.
import { createApiClient } from "../../src/shared/api-client";
import { ApiError } from "../../src/shared/api-error";
import { toExcelError } from "../../src/functions/excel-errors";
import { customFunctionsStandIn, jsonResponse, problemResponse, wellFormedKey } from "./office-stand-ins";

const realFetch = globalThis.fetch;
let fetchMock: jest.Mock;

beforeEach(() => {
  fetchMock = jest.fn();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  (globalThis as Record<string, unknown>).CustomFunctions = customFunctionsStandIn();
});

afterEach(() => {
  globalThis.fetch = realFetch;
  delete (globalThis as Record<string, unknown>).CustomFunctions;
  jest.restoreAllMocks();
});

const KEY = wellFormedKey();
const client = (timeoutMs?: number) => createApiClient({ baseUrl: "http://svc.test/", apiKey: KEY, timeoutMs });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

test("sends the key as a bearer header only, and drops empty query values", async () => {
  fetchMock.mockResolvedValue(jsonResponse({ object: "list", data: [] }));
  await expect(client().get("/v1/parcels", { state_code: "TX", limit: 5, city: "", zip: null })).resolves.toEqual({
    object: "list",
    data: [],
  });
  const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
  expect(url).toBe("http://svc.test/v1/parcels?state_code=TX&limit=5");
  expect(init.headers).toMatchObject({ Authorization: `Bearer ${KEY}`, Accept: "application/json" });
  expect(init.signal).toBeInstanceOf(AbortSignal);
});

test("400 problem+json becomes ApiError with its fields, and #VALUE! naming the bad input", async () => {
  fetchMock.mockResolvedValue(
    problemResponse(400, {
      title: "Bad Request",
      detail: "The request has invalid inputs.",
      code: "validation_failed",
      request_id: "req_400",
      errors: [{ pointer: "/query/limit", detail: "must be at most 100" }],
    }),
  );
  const err = await failure(client().get("/v1/parcels", { limit: 500 }));
  expect(err).toMatchObject({ status: 400, code: "validation_failed", message: "The request has invalid inputs.", requestId: "req_400" });
  expect(err.errors).toEqual([{ pointer: "/query/limit", detail: "must be at most 100" }]);
  expect(toExcelError(err)).toMatchObject({
    code: "#VALUE!",
    message: "The request has invalid inputs. (/query/limit: must be at most 100)",
  });
});

test.each([
  [401, "invalid_api_key", "The API key is not valid.", /^API key not accepted: The API key is not valid\./],
  [
    402,
    "credits_exhausted",
    "No credits left; they reset on 2025-07-01T00:00:00Z.",
    /^No credits left; they reset on 2025-07-01T00:00:00Z\.$/,
  ],
  [404, "not_found", "No property cp_0404.", /^No property cp_0404\.$/],
])("%i %s becomes #N/A with a message saying why", async (status, code, detail, message) => {
  fetchMock.mockResolvedValue(problemResponse(status, { title: "x", detail, code, request_id: "req_x" }));
  const err = await failure(client().get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status, code, message: detail, requestId: "req_x" });
  const excel = toExcelError(err);
  expect(excel.code).toBe("#N/A");
  expect(excel.message).toMatch(message);
});

test("5xx keeps its detail out of the cell and quotes the request id from the header when the body has none", async () => {
  fetchMock.mockResolvedValue(
    new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html", "x-request-id": "req_502" } }),
  );
  const err = await failure(client().get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status: 502, code: "internal", requestId: "req_502" });
  jest.spyOn(console, "error").mockImplementation(() => undefined);
  expect(toExcelError(err)).toMatchObject({ code: "#N/A", message: "The service had a problem (request req_502); try again later." });
});

test("a network failure is ApiError network_error and #N/A naming the service and saying what to do", async () => {
  fetchMock.mockRejectedValue(new TypeError("fetch failed"));
  const err = await failure(client().get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status: 0, code: "network_error", message: "Could not reach http://svc.test: fetch failed" });
  // The cell says what to do: start the service, or correct the pane's Service URL.
  expect(toExcelError(err)).toMatchObject({
    code: "#N/A",
    message:
      "Could not reach http://svc.test: fetch failed. Is the service running at http://svc.test? " +
      "Start it with npm start, or check the Service URL under Connection in the Property Intelligence pane.",
  });
});

/** A fetch that never answers, but honours its abort signal like the real one. */
function hangingFetch(_url: string, init: RequestInit): Promise<Response> {
  return new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
}

test("a request that gets no answer settles as a timeout", async () => {
  fetchMock.mockImplementation(hangingFetch);
  const started = Date.now();
  const err = await failure(client(50).get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status: 0, code: "timeout" });
  expect(Date.now() - started).toBeLessThan(2000);
  expect(toExcelError(err).code).toBe("#N/A");
});

test("a caller's abort signal cancels the request", async () => {
  fetchMock.mockImplementation(hangingFetch);
  // Cancelled before it is sent: it never is.
  const early = new AbortController();
  const notSent = client().get("/v1/commercial/coverage", undefined, early.signal);
  early.abort();
  await expect(failure(notSent)).resolves.toMatchObject({ code: "aborted" });
  expect(fetchMock).not.toHaveBeenCalled();
  // Cancelled while in flight: the request's own signal is aborted.
  const controller = new AbortController();
  const pending = client().get("/v1/commercial/coverage", undefined, controller.signal);
  for (let i = 0; i < 100 && fetchMock.mock.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  expect(fetchMock).toHaveBeenCalledTimes(1);
  const sent = (fetchMock.mock.calls[0][1] as RequestInit).signal!;
  expect(sent.aborted).toBe(false);
  controller.abort();
  await expect(failure(pending)).resolves.toMatchObject({ code: "aborted" });
  expect(sent.aborted).toBe(true);
});

test("an answer that is not JSON is reported as such, not as a network failure", async () => {
  fetchMock.mockResolvedValue(
    new Response("<html>an intranet login page</html>", { status: 200, headers: { "content-type": "text/html" } }),
  );
  await expect(failure(client().get("/v1/commercial/coverage"))).resolves.toMatchObject({ code: "invalid_response" });
});

test("a mistyped key is refused before any request, saying what is wrong with it", async () => {
  const typo = createApiClient({ baseUrl: "http://svc.test", apiKey: `${KEY.slice(0, -1)}${KEY.endsWith("A") ? "B" : "A"}` });
  const err = await failure(typo.get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status: 0, code: "malformed_api_key", message: expect.stringMatching(/checksum/) });
  expect(fetchMock).not.toHaveBeenCalled();
  expect(toExcelError(err).code).toBe("#N/A");
});

test("revalidates with If-None-Match: a 304 comes back as status 304 with no body", async () => {
  fetchMock.mockResolvedValue(new Response(null, { status: 304, headers: { etag: '"v1"' } }));
  const response = await client().send({ path: "/v1/commercial/coverage", etag: '"v1"' });
  expect(response).toMatchObject({ status: 304, body: null, etag: '"v1"' });
  expect((fetchMock.mock.calls[0][1] as RequestInit).headers).toMatchObject({ "If-None-Match": '"v1"' });
});

test("POSTs a JSON body, and reports the ETag and credit headers of the answer", async () => {
  const seen: unknown[] = [];
  const c = createApiClient({ baseUrl: "http://svc.test", apiKey: KEY, onResponse: (info) => seen.push(info) });
  fetchMock.mockResolvedValue(
    new Response(JSON.stringify({ ok: true }), {
      headers: {
        "content-type": "application/json",
        etag: '"e"',
        "x-credits-limit": "1000",
        "x-credits-remaining": "998",
        "x-credits-charged": "2",
        "x-credits-reset": "2025-07-01T00:00:00Z",
      },
    }),
  );
  const response = await c.send({ method: "POST", path: "/v1/commercial/properties/compare", body: { property_ids: ["cp_1", "cp_2"] } });
  const init = fetchMock.mock.calls[0][1] as RequestInit;
  expect(init).toMatchObject({ method: "POST", body: '{"property_ids":["cp_1","cp_2"]}' });
  expect(init.headers).toMatchObject({ "Content-Type": "application/json" });
  expect(response).toMatchObject({
    status: 200,
    body: { ok: true },
    etag: '"e"',
    credits: { limit: 1000, remaining: 998, charged: 2, resetsAt: "2025-07-01T00:00:00.000Z" },
  });
  expect(seen).toEqual([{ method: "POST", path: "/v1/commercial/properties/compare", status: 200, credits: response.credits }]);
});

test("the service's 402 is said from its fields: the call's cost, the credits left, and resets_at", async () => {
  const body = {
    type: "https://docs.propintel.dev/problems/credits_exhausted",
    title: "You have used all the credits of this period.",
    status: 402,
    detail: "This call costs 2 credits and 0 of the Explorer plan's 1000 monthly credits are left. Credits reset at 2026-12-01T00:00:00Z.",
    code: "credits_exhausted",
    request_id: "req_402",
    cost: 2,
    credits_remaining: 0,
    credits_limit: 1000,
    resets_at: "2026-12-01T00:00:00Z",
  };
  // The body's resets_at is what the call is refused until; the header says the same in a real answer.
  fetchMock.mockResolvedValue(problemResponse(402, body, { "x-credits-reset": "2027-01-01T00:00:00Z", "x-credits-plan": "explorer" }));
  const err = await failure(client().get("/v1/parcels"));
  expect(err).toMatchObject({
    status: 402,
    code: "credits_exhausted",
    resetsAt: "2026-12-01T00:00:00.000Z",
    shortfall: { cost: 2, remaining: 0, limit: 1000, plan: "explorer" },
  });
  expect(err.message).toBe(
    "This call costs 2 credits and 0 of the Explorer plan's 1,000 monthly credits are left. Credits reset on 2026-12-01 at 00:00 UTC.",
  );
  expect(toExcelError(err)).toMatchObject({ code: "#N/A", message: err.message });
});

test("402 without a date in its words gets the reset time from the X-Credits-Reset header", async () => {
  fetchMock.mockResolvedValue(
    problemResponse(
      402,
      { detail: "You have used all the credits of this period.", code: "credits_exhausted" },
      { "x-credits-reset": "2025-08-01T00:00:00Z" },
    ),
  );
  const err = await failure(client().get("/v1/parcels"));
  expect(err.resetsAt).toBe("2025-08-01T00:00:00.000Z");
  expect(toExcelError(err)).toMatchObject({
    code: "#N/A",
    message: "You have used all the credits of this period. Credits reset on 2025-08-01 at 00:00 UTC.",
  });
});

test("429 and 503 are retried after Retry-After, a bounded number of times", async () => {
  const sentAt: number[] = [];
  const answer = (response: Response) => async () => (sentAt.push(Date.now()), response);
  fetchMock
    .mockImplementationOnce(answer(problemResponse(429, { detail: "Slow down.", code: "rate_limited" }, { "retry-after": "1" })))
    .mockImplementationOnce(answer(problemResponse(503, { detail: "Busy." }, { "retry-after": "0" })))
    .mockImplementationOnce(answer(jsonResponse({ object: "coverage" })));
  await expect(client().get("/v1/commercial/coverage")).resolves.toEqual({ object: "coverage" });
  expect(fetchMock).toHaveBeenCalledTimes(3);
  // The retry after "Retry-After: 1" waited the second.
  expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(990);

  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => problemResponse(429, { detail: "Slow down.", code: "rate_limited" }, { "retry-after": "0" }));
  await expect(failure(client().get("/v1/commercial/coverage"))).resolves.toMatchObject({ status: 429, retryAfterMs: 0 });
  expect(fetchMock).toHaveBeenCalledTimes(4); // the first try and three retries
});

test("a Retry-After longer than the time left is not waited for: the cell settles at once", async () => {
  fetchMock.mockImplementation(async () => problemResponse(429, { detail: "Slow down.", code: "rate_limited" }, { "retry-after": "120" }));
  const started = Date.now();
  const err = await failure(client().get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status: 429, retryAfterMs: 120_000 });
  expect(Date.now() - started).toBeLessThan(1000);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(toExcelError(err).message).toMatch(/^Too many requests/);
});

test("a 400 or 404 is not retried", async () => {
  fetchMock.mockImplementation(async () => problemResponse(404, { detail: "No such thing.", code: "not_found" }));
  await expect(failure(client().get("/v1/commercial/properties/cp_1"))).resolves.toMatchObject({ status: 404 });
  expect(fetchMock).toHaveBeenCalledTimes(1);
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => problemResponse(400, { detail: "limit: too big.", code: "validation_failed" }));
  await expect(failure(client().get("/v1/parcels", { limit: 500 }))).resolves.toMatchObject({ status: 400 });
  expect(fetchMock).toHaveBeenCalledTimes(1);
});

test("call() sends an operation's method, filled path, query and body, and answers with its typed 200 body", async () => {
  const { OPERATIONS } = await import("../../src/contract/operations");
  fetchMock.mockResolvedValue(jsonResponse({ object: "asset_analysis", asset_type: "industrial" }));
  const analysis = await client().call(OPERATIONS.analyseAssetType, {
    params: { asset_type: "industrial" },
    query: { geography: "Austin, TX", as_of: "2026-06-30" },
  });
  const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
  expect(init.method).toBe("GET");
  expect(url).toBe("http://svc.test/v1/commercial/assets/industrial/analysis?geography=Austin%2C+TX&as_of=2026-06-30");
  // The answer is the operation's response type: a misspelt member does not compile.
  // @ts-expect-error AssetAnalysis has no member asset_typo
  expect(analysis.body?.asset_typo).toBeUndefined();
  expect(analysis.body?.asset_type).toBe("industrial");

  fetchMock.mockResolvedValue(jsonResponse({ object: "property_comparison" }));
  await client().call(OPERATIONS.compareProperties, { body: { property_ids: ["cp_1", "cp_2"] } });
  const [compareUrl, compareInit] = fetchMock.mock.calls[1] as [string, RequestInit];
  expect(compareInit.method).toBe("POST");
  expect(compareUrl).toBe("http://svc.test/v1/commercial/properties/compare");
  expect(JSON.parse(String(compareInit.body))).toEqual({ property_ids: ["cp_1", "cp_2"] });
  // A path parameter the operation needs must be given, and a query member it does not take is refused.
  // @ts-expect-error getProperty needs params.property_id
  await expect(client().call(OPERATIONS.getProperty, {})).rejects.toThrow("property_id");
  const coverage = client();
  fetchMock.mockResolvedValue(jsonResponse({ object: "coverage" }));
  // @ts-expect-error getCoverage takes no query member `geography`
  await coverage.call(OPERATIONS.getCoverage, { query: { geography: "TX" } });
});
