// The status card's wording: plan and credits, the data by its capture day, and what the
// folded Connection and Status cards' headers say.
import { planName } from "../../src/shared/credit-headers";
import { connectionSummary, creditSummary, formatDay, snapshotLine, statusSummary } from "../../src/taskpane/status-text";

const state = (over = {}) => ({
  plan: "explorer",
  limit: 1000,
  remaining: 812,
  resetsAt: "2026-12-01T00:00:00.000Z",
  chargedThisSession: 4,
  observedAt: "",
  ...over,
});

test("credits read as plan, left of limit, reset day; zero left is exhausted", () => {
  expect(creditSummary(state())).toEqual({
    plan: "Explorer",
    left: "812 of 1,000 credits left",
    fraction: 0.812,
    resets: "Resets 1 Dec 2026",
    exhausted: false,
  });
  expect(creditSummary(state({ remaining: 0 }))).toMatchObject({ fraction: 0, exhausted: true });
  expect(creditSummary(null)).toBeNull();
  expect(planName("property-manager")).toBe("Property Manager");
  expect(planName(null)).toBe("Unknown plan");
});

test("dates are UTC days; a bad date says unknown", () => {
  expect(formatDay("2026-11-30T23:30:00-05:00")).toBe("1 Dec 2026");
  expect(formatDay("soon")).toBe("unknown");
});

test("the data is named by the day it was captured; the snapshot id is the detail", () => {
  expect(snapshotLine({ id: "snap_9", captured_at: "2026-11-01T00:00:00Z" })).toEqual({
    text: "Data captured 1 Nov 2026",
    detail: "Snapshot snap_9",
  });
  expect(snapshotLine({ id: "snap_9", captured_at: "" })).toEqual({ text: "Capture date not known", detail: "Snapshot snap_9" });
  expect(snapshotLine(null)).toEqual({ text: "Snapshot not known yet", detail: null });
});

test("folded cards still say what matters: connected with which plan, and the credits left", () => {
  expect(connectionSummary(true, state())).toBe("Connected, Explorer plan");
  expect(connectionSummary(true, null)).toBe("Connected");
  expect(connectionSummary(false, state())).toBe("Not connected");
  expect(statusSummary(state({ remaining: 1234, limit: 5000 }))).toBe("1,234 credits left");
  expect(statusSummary(state({ remaining: 0 }))).toBe("Out of credits");
  expect(statusSummary(null)).toBe("Credits known after the first call");
});
