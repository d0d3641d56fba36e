// The one mapping from failures to Excel errors: bad input is #VALUE! (the formula must
// change), everything else is #N/A with a message saying why.
import { InputError, NoDataError, toExcelError } from "../../src/functions/excel-errors";
import { ApiError } from "../../src/shared/api-error";
import { customFunctionsStandIn } from "./office-stand-ins";

beforeEach(() => {
  (globalThis as Record<string, unknown>).CustomFunctions = customFunctionsStandIn();
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).CustomFunctions;
});

test.each([
  [new InputError("limit must be at most 1000."), "#VALUE!", "limit must be at most 1000."],
  [
    new ApiError(400, "unsupported_filter", "min_units is not supported for industrial.", "r", [
      { pointer: "/query/min_units", detail: "unsupported" },
    ]),
    "#VALUE!",
    "min_units is not supported for industrial. (/query/min_units: unsupported)",
  ],
  [new NoDataError("No sale comps match for state_code=VT."), "#N/A", "No sale comps match for state_code=VT."],
  [new ApiError(0, "not_configured", "No API key yet: open the pane."), "#N/A", "No API key yet: open the pane."],
  [
    new ApiError(0, "malformed_api_key", "The saved API key is not usable: This key has a typo."),
    "#N/A",
    "The saved API key is not usable: This key has a typo.",
  ],
  [
    new ApiError(402, "credits_exhausted", "No credits left. Credits reset on 2025-08-01 at 00:00 UTC."),
    "#N/A",
    "No credits left. Credits reset on 2025-08-01 at 00:00 UTC.",
  ],
  [
    new ApiError(0, "timeout", "No answer from http://svc within 20 s."),
    "#N/A",
    "No answer from http://svc within 20 s. Is the service running at http://svc? Start it with npm start, or check the Service URL under Connection in the Property Intelligence pane.",
  ],
  [new ApiError(0, "aborted", "The request was cancelled."), "#N/A", "The request was cancelled."],
  [new ApiError(0, "preview_not_fetched", "Not fetched in the formula preview."), "#N/A", "Not fetched in the formula preview."],
])("%s → %s", (err, code, message) => {
  expect(toExcelError(err)).toMatchObject({ code, message });
});

test("a long message is cut to what the error flyout shows", () => {
  const message = toExcelError(new NoDataError("x".repeat(400))).message!;
  expect(message.length).toBe(250);
  expect(message.endsWith("…")).toBe(true);
});

test("a bug of ours is #N/A pointing at the console, with the details logged", () => {
  const log = jest.spyOn(console, "error").mockImplementation(() => undefined);
  expect(toExcelError(new TypeError("x is undefined"))).toMatchObject({
    code: "#N/A",
    message: "Unexpected error in the add-in; see the browser console.",
  });
  expect(log).toHaveBeenCalled();
  log.mockRestore();
});
