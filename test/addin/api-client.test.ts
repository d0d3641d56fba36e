// The API client's error contract, with a stubbed global fetch: every failure is one ApiError
// (status, code, message, request id), and the functions layer maps it once to an Excel error.
import { createApiClient } from "../../src/shared/api-client";
import { ApiError } from "../../src/shared/api-error";
import { toExcelError } from "../../src/functions/excel-errors";
import { customFunctionsStandIn, jsonResponse, problemResponse } from "./office-stand-ins";

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

const client = (timeoutMs?: number) => createApiClient({ baseUrl: "http://svc.test/", apiKey: "prop_test_k1_secret", timeoutMs });

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
  await expect(client().get("/v1/parcels", { state_code: "TX", limit: 5, city: "", zip: null })).resolves.toEqual({ object: "list", data: [] });
  const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
  expect(url).toBe("http://svc.test/v1/parcels?state_code=TX&limit=5");
  expect(init.headers).toMatchObject({ Authorization: "Bearer prop_test_k1_secret", Accept: "application/json" });
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
  expect(toExcelError(err)).toMatchObject({ code: "#VALUE!", message: "The request has invalid inputs. (/query/limit: must be at most 100)" });
});

test.each([
  [401, "invalid_api_key", "The API key is not valid.", /^API key not accepted: The API key is not valid\./],
  [402, "credits_exhausted", "No credits left; they reset on 2025-07-01T00:00:00Z.", /^No credits left; they reset on 2025-07-01/],
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
  fetchMock.mockResolvedValue(new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html", "x-request-id": "req_502" } }));
  const err = await failure(client().get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status: 502, code: "internal", requestId: "req_502" });
  jest.spyOn(console, "error").mockImplementation(() => undefined);
  expect(toExcelError(err)).toMatchObject({ code: "#N/A", message: "The service had a problem (request req_502); try again later." });
});

test("a network failure is ApiError network_error and #N/A naming the service", async () => {
  fetchMock.mockRejectedValue(new TypeError("fetch failed"));
  const err = await failure(client().get("/v1/commercial/coverage"));
  expect(err).toMatchObject({ status: 0, code: "network_error", message: "Could not reach http://svc.test: fetch failed" });
  expect(toExcelError(err)).toMatchObject({ code: "#N/A", message: "Could not reach http://svc.test: fetch failed" });
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
  const controller = new AbortController();
  const pending = client().get("/v1/commercial/coverage", undefined, controller.signal);
  controller.abort();
  await expect(failure(pending)).resolves.toMatchObject({ code: "aborted" });
});

test("an answer that is not JSON is reported as such, not as a network failure", async () => {
  fetchMock.mockResolvedValue(new Response("<html>an intranet login page</html>", { status: 200, headers: { "content-type": "text/html" } }));
  await expect(failure(client().get("/v1/commercial/coverage"))).resolves.toMatchObject({ code: "invalid_response" });
});
