// Failures as the pane shows them: a title that says what happened and a sentence to act on.
import { ApiError } from "../../src/shared/api-error";
import { ConnectError } from "../../src/taskpane/connect-error";
import { failureMessage, isUnreachable } from "../../src/taskpane/pane-messages";
import { TargetNotEmptyError } from "../../src/taskpane/workbook-types";

test("failures become a title and a sentence; out of credits names the reset day", () => {
  const out = new ApiError(
    402,
    "credits_exhausted",
    "This call costs 2 credits and 0 of the Explorer plan's 1,000 monthly credits are left. Credits reset on 2026-12-01 at 00:00 UTC.",
    "r1",
    [],
    {
      resetsAt: "2026-12-01T00:00:00.000Z",
      extensions: { cost: 2, credits_remaining: 0, credits_limit: 1000, resets_at: "2026-12-01T00:00:00Z" },
      plan: "explorer",
    },
  );
  expect(failureMessage(out)).toEqual({
    intent: "warning",
    title: "Out of credits",
    text: "This call costs 2 credits and 0 of the Explorer plan's 1,000 monthly credits are left. Credits come back on 1 Dec 2026.",
  });
  // A 402 without the service's fields (a proxy's) is shown as the client worded it.
  const bare = new ApiError(402, "credits_exhausted", "Payment required. Credits reset on 2026-12-01 at 00:00 UTC.", null, [], {
    resetsAt: "2026-12-01T00:00:00.000Z",
  });
  expect(failureMessage(bare)).toMatchObject({
    title: "Out of credits",
    text: "Payment required. Credits reset on 2026-12-01 at 00:00 UTC.",
  });
  expect(failureMessage(new TargetNotEmptyError("Sheet1!A1:C4"))).toMatchObject({
    title: "Nothing was changed",
    text: expect.stringContaining("Sheet1!A1:C4 are not empty"),
  });
  const spy = jest.spyOn(console, "error").mockImplementation(() => undefined);
  expect(failureMessage(new ApiError(503, "unavailable", "db down", "req-7"))).toEqual({
    intent: "error",
    title: "The service had a problem",
    text: "Try again shortly (request req-7).",
  });
  spy.mockRestore();
});

describe("a service that cannot be reached", () => {
  const CHECK =
    "Check that the service is running and that the Service URL under Connection is right; a proxy or firewall may also be in the way.";

  test("no answer at all (network failure, timeout) is 'Service unreachable', with the URL and what to check", () => {
    const down = new ApiError(0, "network_error", "Could not reach http://127.0.0.1:9: fetch failed");
    expect(failureMessage(down)).toEqual({
      intent: "error",
      title: "Service unreachable",
      text: `Could not reach http://127.0.0.1:9: fetch failed. ${CHECK}`,
    });
    const slow = new ApiError(0, "timeout", "No answer from https://prop.example.com within 30 s.");
    expect(failureMessage(slow)).toMatchObject({
      title: "Service unreachable",
      text: expect.stringMatching(/^No answer from https:\/\/prop\.example\.com within 30 s\. Check/),
    });
  });

  test("connecting to it says the same", () => {
    expect(failureMessage(new ConnectError("Could not reach http://127.0.0.1:9: fetch failed", "baseUrl", true))).toMatchObject({
      title: "Service unreachable",
    });
    // A URL that is not one is a form error, not an unreachable service.
    expect(failureMessage(new ConnectError('"x" is not a URL', "baseUrl"))).toMatchObject({ title: "Nothing was changed" });
  });

  test("only a missing answer counts: a cancelled call, an unreadable answer or a refusal does not", () => {
    expect(isUnreachable(new ApiError(0, "network_error", "x"))).toBe(true);
    expect(isUnreachable(new ApiError(0, "aborted", "x"))).toBe(false);
    expect(isUnreachable(new ApiError(200, "invalid_response", "x"))).toBe(false);
    expect(failureMessage(new ApiError(400, "validation_failed", "limit: too big"))).toMatchObject({ title: "Not accepted" });
  });
});

describe("a place the snapshot does not hold", () => {
  // `suggestions` as it may arrive, not only as the contract says (a proxy, an older service).
  const refusal = (code: string, detail: string, suggestions?: unknown[], extra: Record<string, unknown> = {}) =>
    new ApiError(400, code, detail, "req-1", [{ pointer: "/geography", detail }], {
      extensions: {
        parameter: "geography",
        place: "Austn, TX",
        ...(suggestions === undefined ? {} : { suggestions: suggestions as string[] }),
        ...extra,
      },
    });

  test("unknown: the place from the problem's `place`, and its suggestions to offer as buttons", () => {
    const err = refusal(
      "unknown_place",
      'geography: this snapshot holds no city "Austn, TX". Did you mean Austin, TX, Aston, PA or Houston, TX?',
      ["Austin, TX", "Aston, PA", "Houston, TX"],
    );
    expect(failureMessage(err)).toEqual({
      intent: "warning",
      title: "Place not found",
      text: 'This snapshot holds no city "Austn, TX". (No credits were used.)',
      suggestions: ["Austin, TX", "Aston, PA", "Houston, TX"],
    });
  });

  test("the message is made from the problem's fields whatever the detail's wording, and never repeats the suggestions", () => {
    const err = refusal("unknown_place", "Unbekannter Ort: Austn, TX. Vorschläge: Austin, TX.", ["Austin, TX"], { parameter: "subject" });
    const message = failureMessage(err);
    expect(message.text).toBe('This snapshot holds no city "Austn, TX". (No credits were used.)');
    expect(message.suggestions).toEqual(["Austin, TX"]);
  });

  test("ambiguous: the match count and the first suggestion; unsupported: the kinds the search takes", () => {
    const ambiguous = new ApiError(400, "ambiguous_place", "geography: names 4 cities.", "req-1", [], {
      extensions: {
        parameter: "geography",
        place: "Springfield",
        match_count: 4,
        suggestions: ["Springfield, IL", "Springfield, MA", "Springfield, MO"],
      },
    });
    expect(failureMessage(ambiguous)).toEqual({
      intent: "warning",
      title: "Which place?",
      text: '"Springfield" names 4 places; add the state, such as "Springfield, IL". (No credits were used.)',
      suggestions: ["Springfield, IL", "Springfield, MA", "Springfield, MO"],
    });
    const sameState = new ApiError(400, "ambiguous_place", "geography: names 2 cities.", "req-1", [], {
      extensions: { parameter: "geography", place: "Franklin, PA", match_count: 2, suggestions: ["Franklin, PA", "Franklin, PA"] },
    });
    expect(failureMessage(sameState).text).toBe(
      '"Franklin, PA" names 2 places of one name in one state; ask for the county or a ZIP code instead. (No credits were used.)',
    );
    const unsupported = new ApiError(400, "unsupported_place", "geography: a ZIP code.", "req-1", [], {
      extensions: { parameter: "geography", place: "78704", accepted_kinds: ["metro", "state"], suggestions: [] },
    });
    expect(failureMessage(unsupported)).toEqual({
      intent: "warning",
      title: "Not a place this search takes",
      text: '"78704" is not a place this search takes; it takes a state ("TX" or "Texas") or a metro ("Austin, TX metro" or "metro-austin-tx"). (No credits were used.)',
    });
  });

  test("a refusal without a `place` field (not this service's) is shown in the service's own words", () => {
    const bare = new ApiError(404, "unknown_place", 'geography: this snapshot holds no city "Austn, TX". Did you mean Austin, TX?');
    expect(failureMessage(bare)).toEqual({
      intent: "warning",
      title: "Place not found",
      text: 'geography: this snapshot holds no city "Austn, TX". Did you mean Austin, TX? (No credits were used.)',
    });
  });

  test("suggestions that are not text are dropped, and at most three are offered", () => {
    const err = refusal("unknown_place", "geography: nothing. Did you mean A, B, C or D?", ["A", 7, "", "B", "C", "D"]);
    expect(failureMessage(err).suggestions).toEqual(["A", "B", "C"]);
  });
});
