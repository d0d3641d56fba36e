import { ApiError } from "../../src/shared/api-error";
import { failureMessage } from "../../src/taskpane/pane-messages";
import { creditSummary, formatDay, planName, snapshotLine } from "../../src/taskpane/status-text";
import { TargetNotEmptyError } from "../../src/taskpane/workbook-types";

const state = (over = {}) => ({ plan: "explorer", limit: 1000, remaining: 812, resetAt: "2026-12-01T00:00:00.000Z", chargedThisSession: 4, observedAt: "", ...over });

test("credits read as plan, left of limit, reset day; zero left is exhausted", () => {
  expect(creditSummary(state())).toEqual({ plan: "Explorer", left: "812 of 1,000 credits left", fraction: 0.812, resets: "Resets 1 Dec 2026", exhausted: false });
  expect(creditSummary(state({ remaining: 0 }))).toMatchObject({ fraction: 0, exhausted: true });
  expect(creditSummary(null)).toBeNull();
  expect(planName("property-manager")).toBe("Property Manager");
  expect(planName(null)).toBe("Unknown plan");
});

test("dates are UTC days; a bad date says unknown", () => {
  expect(formatDay("2026-11-30T23:30:00-05:00")).toBe("1 Dec 2026");
  expect(formatDay("soon")).toBe("unknown");
  expect(snapshotLine({ id: "snap_9", captured_at: "2026-11-01T00:00:00Z" })).toBe("Snapshot snap_9, captured 1 Nov 2026");
});

test("failures become a title and a sentence; out of credits names the reset day", () => {
  const out = new ApiError(402, "credits_exhausted", "This call costs 2 credits and 0 of the Explorer plan's 1000 monthly credits are left. Credits reset at 2026-12-01T00:00:00.000Z.", "r1", [], { resetAt: "2026-12-01T00:00:00.000Z" });
  expect(failureMessage(out)).toEqual({
    intent: "warning",
    title: "Out of credits",
    text: "This call costs 2 credits and 0 of the Explorer plan's 1000 monthly credits are left. Credits come back on 1 Dec 2026.",
  });
  expect(failureMessage(new TargetNotEmptyError("Sheet1!A1:C4"))).toMatchObject({ title: "Nothing was changed", text: expect.stringContaining("Sheet1!A1:C4 are not empty") });
  const spy = jest.spyOn(console, "error").mockImplementation(() => undefined);
  expect(failureMessage(new ApiError(503, "unavailable", "db down", "req-7"))).toEqual({ intent: "error", title: "The service had a problem", text: "Try again shortly (request req-7)." });
  spy.mockRestore();
});
