// The pane's status line: what it says for a working connection and for each kind of failure.
import { ApiError } from "../../src/shared/api-error";
import { checkConnection, describeConnectionError } from "../../src/taskpane/connection-status";

test("a working connection names the service and what its snapshot holds", async () => {
  const client = {
    baseUrl: "http://svc.test",
    get: async <T>(path: string) => {
      expect(path).toBe("/v1/commercial/coverage");
      return { object: "coverage", counts: { parcels: 12000, properties: 340 } } as T;
    },
    send: async () => {
      throw new Error("the status line only needs get");
    },
  };
  await expect(checkConnection(async () => client)).resolves.toBe(
    "Connected to http://svc.test. The snapshot holds 12,000 parcels, 340 properties.",
  );
});

test.each([
  [new ApiError(0, "not_configured", "No API key yet"), "Not connected yet: paste your API key and choose Save and test."],
  [new ApiError(401, "invalid_api_key", "The API key is not valid."), "Not connected: the service did not accept the API key. The API key is not valid."],
  [new ApiError(503, "overloaded", "queue full at node 7", "req_9"), "Not connected: the service had a problem (request req_9)."],
  [new ApiError(0, "network_error", "Could not reach http://svc.test: fetch failed"), "Not connected: Could not reach http://svc.test: fetch failed"],
])("failure %#: %s", (err, text) => {
  expect(describeConnectionError(err)).toBe(text);
});
